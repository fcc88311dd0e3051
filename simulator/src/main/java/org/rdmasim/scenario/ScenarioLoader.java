package org.rdmasim.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.workload.TransferItem;

/** Reads a scenario file into validated records; every problem is a {@link ScenarioException}. */
public final class ScenarioLoader {
    private static final Set<String> TOP = Set.of("name", "description", "seed", "replications", "hosts", "fabric",
            "transport", "protocol", "workload", "variants");
    private static final Set<String> OVERRIDABLE = Set.of("hosts", "fabric", "transport", "protocol", "workload");

    private ScenarioLoader() {
    }

    public static Scenario load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ScenarioException(file.toString(), 0, 0, "no such scenario file");
        }
        YamlTree root = YamlTree.parse(file);
        String comment = leadingComment(file);
        return read(root, comment);
    }

    public static Scenario parse(String text, String label) {
        return read(YamlTree.parse(text, label), leadingComment(text));
    }

    private static Scenario read(YamlTree root, String comment) {
        root.onlyFields(TOP);
        String name = root.get("name").text();
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw root.get("name").error("a scenario name may use letters, digits, '.', '_' and '-' only (it names the report folder)");
        }
        String description = root.has("description") ? root.get("description").text().trim() : comment;
        long seed = root.has("seed") ? root.get("seed").integer() : 1;
        int replications = 1;
        if (root.has("replications")) {
            long r = root.get("replications").integer();
            if (r < 1 || r > 100_000) {
                throw root.get("replications").error("expected 1 to 100000 replications, got " + r);
            }
            replications = (int) r;
        }
        List<VariantSpec> variants = new ArrayList<>();
        if (!root.has("variants")) {
            variants.add(variant(root, "baseline", description));
        } else {
            Set<String> seen = new HashSet<>();
            for (YamlTree v : root.get("variants").items()) {
                Set<String> allowed = new HashSet<>(OVERRIDABLE);
                allowed.add("name");
                allowed.add("description");
                v.onlyFields(allowed);
                String vname = v.get("name").text();
                if (!seen.add(vname)) {
                    throw v.get("name").error("two variants are named '" + vname + "'");
                }
                YamlTree merged = root;
                for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
                    if (OVERRIDABLE.contains(e.getKey())) {
                        merged = merged.overlay(wrap(v, e.getKey()));
                    }
                }
                variants.add(variant(merged, vname, v.string("description", "")));
            }
            if (variants.isEmpty()) {
                throw root.get("variants").error("the list of variants is empty");
            }
        }
        return new Scenario(name, description, root.file(), seed, replications, variants);
    }

    /** A one-field mapping {@code key: value} cut out of a variant, keeping locations. */
    private static YamlTree wrap(YamlTree variant, String key) {
        return variant.onlyKey(key);
    }

    private static VariantSpec variant(YamlTree v, String name, String description) {
        Map<String, HostSpec> hosts = hosts(v.get("hosts"));
        Map<String, Host> built = new LinkedHashMap<>();
        for (Map.Entry<String, HostSpec> e : hosts.entrySet()) {
            try {
                built.put(e.getKey(), new Host(e.getKey(), e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw v.get("hosts").get(e.getKey()).error(ex.getMessage());
            }
        }
        FabricSpec fabric = v.has("fabric") ? fabric(v.get("fabric")) : FabricSpec.nonBlocking();
        ProtocolParameters protocol = v.has("protocol") ? protocol(v.get("protocol")) : ProtocolParameters.defaults();
        TransportSettings transport = transport(v.has("transport") ? v.get("transport") : null);
        List<TransferItem> transfers = workload(v.get("workload"), built, transport);
        if (v.has("transport") && v.get("transport").has("lanes")) {
            checkLanes(v.get("transport").get("lanes"), transport.lanes(), transfers, built);
        }
        return new VariantSpec(name, description, hosts, fabric, transport, protocol, transfers);
    }

    private static Map<String, HostSpec> hosts(YamlTree v) {
        Map<String, HostSpec> out = new LinkedHashMap<>();
        for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
            if (!e.getKey().matches("[A-Za-z0-9._-]+")) {
                throw e.getValue().error("host names may use letters, digits, '.', '_' and '-' only");
            }
            out.put(e.getKey(), HostReader.read(e.getValue()));
        }
        if (out.isEmpty()) {
            throw v.error("at least one host is needed");
        }
        return out;
    }

    private static FabricSpec fabric(YamlTree v) {
        v.onlyFields(Set.of("kind", "hostsPerLeaf", "oversubscription", "hopLatency"));
        FabricSpec.Kind kind = FabricSpec.Kind.NON_BLOCKING;
        if (v.has("kind")) {
            YamlTree k = v.get("kind");
            kind = switch (k.text().toLowerCase(Locale.ROOT)) {
                case "non-blocking", "nonblocking" -> FabricSpec.Kind.NON_BLOCKING;
                case "leaf-spine" -> FabricSpec.Kind.LEAF_SPINE;
                case "rail-optimized", "rail-optimised" -> FabricSpec.Kind.RAIL_OPTIMIZED;
                default -> throw k.error("expected non-blocking, leaf-spine or rail-optimized, got '" + k.text() + "'");
            };
        }
        int perLeaf = 1;
        if (v.has("hostsPerLeaf")) {
            long n = v.get("hostsPerLeaf").integer();
            if (n < 1) {
                throw v.get("hostsPerLeaf").error("must be at least 1");
            }
            perLeaf = (int) n;
        }
        double over = 1.0;
        if (v.has("oversubscription")) {
            over = v.get("oversubscription").number();
            if (!(over >= 1.0)) {
                throw v.get("oversubscription").error("must be >= 1 (1 = non-blocking, 2 = 2:1), got " + over);
            }
        }
        double hop = v.has("hopLatency") ? Quantities.seconds(v.get("hopLatency")) : FabricSpec.DEFAULT_HOP_LATENCY;
        return new FabricSpec(kind, perLeaf, over, hop);
    }

    private static ProtocolParameters protocol(YamlTree v) {
        v.onlyFields(Set.of("nicLatency", "pcieHop", "perDescriptor", "perFragment", "maxOutstandingReads", "stagingCopy"));
        ProtocolParameters d = ProtocolParameters.defaults();
        int outstanding = d.maxOutstandingReads();
        if (v.has("maxOutstandingReads")) {
            long n = v.get("maxOutstandingReads").integer();
            if (n < 1 || n > 1024) {
                throw v.get("maxOutstandingReads").error("expected 1 to 1024");
            }
            outstanding = (int) n;
        }
        return new ProtocolParameters(
                v.has("nicLatency") ? Quantities.seconds(v.get("nicLatency")) : d.nicLatencySeconds(),
                v.has("pcieHop") ? Quantities.seconds(v.get("pcieHop")) : d.pcieHopSeconds(),
                v.has("perDescriptor") ? Quantities.seconds(v.get("perDescriptor")) : d.perDescriptorSeconds(),
                v.has("perFragment") ? Quantities.seconds(v.get("perFragment")) : d.perFragmentSeconds(),
                outstanding,
                v.has("stagingCopy") ? Quantities.seconds(v.get("stagingCopy")) : d.stagingCopySeconds());
    }

    private static TransportSettings transport(YamlTree v) {
        if (v == null) {
            return new TransportSettings(Operation.READ, List.of(), 1, true, false, 0.0);
        }
        v.onlyFields(Set.of("operation", "lanes", "descriptors", "gpudirect", "acs", "iommuPenalty"));
        Operation op = v.has("operation") ? operation(v.get("operation")) : Operation.READ;
        List<LaneSplit.Candidate> lanes = new ArrayList<>();
        if (v.has("lanes")) {
            for (YamlTree l : v.get("lanes").items()) {
                l.onlyFields(Set.of("source", "sink", "weight"));
                double w = 1.0;
                if (l.has("weight")) {
                    w = l.get("weight").number();
                    if (!(w > 0)) {
                        throw l.get("weight").error("lane weight must be positive, got " + w);
                    }
                }
                lanes.add(new LaneSplit.Candidate(l.get("source").text(), l.get("sink").text(), w));
            }
            if (lanes.isEmpty()) {
                throw v.get("lanes").error("the list of lanes is empty");
            }
        }
        int descriptors = 1;
        if (v.has("descriptors")) {
            long n = v.get("descriptors").integer();
            if (n < 1 || n > 100_000_000) {
                throw v.get("descriptors").error("expected 1 to 100000000 descriptors, got " + n);
            }
            descriptors = (int) n;
        }
        boolean gdr = !v.has("gpudirect") || v.get("gpudirect").bool();
        boolean acs = v.has("acs") && v.get("acs").bool();
        double iommu = 0;
        if (v.has("iommuPenalty")) {
            iommu = v.get("iommuPenalty").number();
            if (iommu < 0 || iommu >= 1) {
                throw v.get("iommuPenalty").error("expected a fraction in [0, 1), got " + iommu);
            }
        }
        return new TransportSettings(op, lanes, descriptors, gdr, acs, iommu);
    }

    private static Operation operation(YamlTree v) {
        return switch (v.text().toLowerCase(Locale.ROOT)) {
            case "read", "pull", "get" -> Operation.READ;
            case "write", "push", "put" -> Operation.WRITE;
            default -> throw v.error("expected read or write, got '" + v.text() + "'");
        };
    }

    private static List<TransferItem> workload(YamlTree v, Map<String, Host> hosts, TransportSettings transport) {
        v.onlyFields(Set.of("transfers"));
        List<TransferItem> out = new ArrayList<>();
        int i = 0;
        for (YamlTree t : v.get("transfers").items()) {
            t.onlyFields(Set.of("id", "from", "to", "size", "at", "operation", "descriptors"));
            Endpoint from = endpoint(t.get("from"), hosts);
            Endpoint to = endpoint(t.get("to"), hosts);
            if (from.host().equals(to.host())) {
                throw t.get("to").error("source and destination are on the same host; rdmasim models transfers between hosts");
            }
            long bytes = Quantities.bytes(t.get("size"));
            double at = t.has("at") ? Quantities.seconds(t.get("at")) : 0.0;
            Operation op = t.has("operation") ? operation(t.get("operation")) : transport.operation();
            int descriptors = transport.descriptors();
            if (t.has("descriptors")) {
                long n = t.get("descriptors").integer();
                if (n < 1) {
                    throw t.get("descriptors").error("expected at least 1 descriptor");
                }
                descriptors = (int) n;
            }
            String id = t.string("id", "t" + i);
            out.add(new TransferItem(id, from, to, bytes, at, op, descriptors));
            i++;
        }
        if (out.isEmpty()) {
            throw v.get("transfers").error("the workload has no transfer");
        }
        return out;
    }

    private static Endpoint endpoint(YamlTree v, Map<String, Host> hosts) {
        String text = v.text().trim();
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw v.error("expected HOST:DEVICE such as 'source:GPU0' or 'source:CPU0', got '" + text + "'");
        }
        String host = text.substring(0, colon);
        String device = text.substring(colon + 1);
        Host h = hosts.get(host);
        if (h == null) {
            throw v.error("no host named '" + host + "' (hosts: " + String.join(", ", hosts.keySet()) + ")");
        }
        TopologyNode node = h.find(device).orElse(null);
        if (node == null || (node.kind() != TopologyNode.Kind.GPU && node.kind() != TopologyNode.Kind.SOCKET)) {
            List<String> names = new ArrayList<>();
            h.gpus().forEach(g -> names.add(g.name()));
            h.sockets().forEach(s -> names.add(s.name()));
            throw v.error("host '" + host + "' has no GPU or CPU named '" + device + "' (has: " + String.join(", ", names) + ")");
        }
        return new Endpoint(host, device);
    }

    private static void checkLanes(YamlTree lanesNode, List<LaneSplit.Candidate> lanes, List<TransferItem> transfers,
            Map<String, Host> hosts) {
        List<YamlTree> items = lanesNode.items();
        for (TransferItem t : transfers) {
            for (int i = 0; i < lanes.size(); i++) {
                LaneSplit.Candidate c = lanes.get(i);
                Host src = hosts.get(t.from().host());
                Host dst = hosts.get(t.to().host());
                if (src.find(c.sourceNic()).filter(n -> n.kind() == TopologyNode.Kind.NIC).isEmpty()) {
                    throw items.get(i).get("source").error("host '" + src.name() + "' has no NIC named '" + c.sourceNic()
                            + "' (NICs: " + nicNames(src) + ")");
                }
                if (dst.find(c.sinkNic()).filter(n -> n.kind() == TopologyNode.Kind.NIC).isEmpty()) {
                    throw items.get(i).get("sink").error("host '" + dst.name() + "' has no NIC named '" + c.sinkNic()
                            + "' (NICs: " + nicNames(dst) + ")");
                }
            }
        }
    }

    private static String nicNames(Host h) {
        return String.join(", ", h.nics().stream().map(TopologyNode::name).toList());
    }

    static String leadingComment(Path file) {
        try {
            return leadingComment(Files.readString(file));
        } catch (IOException e) {
            return "";
        }
    }

    static String leadingComment(String text) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String t = line.trim();
            if (t.startsWith("#")) {
                out.append(t.replaceFirst("^#+ ?", "")).append('\n');
            } else if (!t.isEmpty() || out.length() > 0) {
                break;
            }
        }
        return out.toString().trim();
    }
}
