package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;
import org.rdmasim.workload.ArrivalProcess;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.Jitter;
import org.rdmasim.workload.ModelLayout;
import org.rdmasim.workload.RefitCycles;
import org.rdmasim.workload.SourceAssignment;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.TreeFanout;

/**
 * Reads {@code workload: {fanout: ...}}:
 * <pre>
 * fanout:
 *   receivers: receivers              # a host group or host, or {hosts: GROUP | [names], gpus: [GPU0, ...]}
 *   sources: {hosts: sources, gpus: [GPU0]}
 *   model: 16 GB                      # decimal GB or binary GiB
 *   layout: whole | sharded
 *   arrival: all-at-once | {kind: waves, size: 32[, gap: 10 ms]} | {kind: poisson, meanGap: 1 ms}
 *   assignment: round-robin | least-loaded
 *   tree: {maxChildren: 2}            # receivers re-publish themselves as sources
 *   operation: read | write
 *   cycles: {count: 3, metadataRtt: 20 us, metadataPerReceiver: 2 us, registrationCached: true}
 *   jitter: {nicRate: 2%, start: 1 ms}
 * </pre>
 */
final class FanoutReader {
    private FanoutReader() {
    }

    static FanoutPlan read(YamlTree f, HostTable hosts, TransportSettings transport) {
        f.onlyFields(Set.of("receivers", "sources", "model", "layout", "arrival", "assignment", "tree", "operation",
                "cycles", "jitter"));
        List<FanoutPlan.Member> receivers = members(f.get("receivers"), hosts, null);
        List<String> receiverGpus = receivers.get(0).gpus();
        List<FanoutPlan.Member> sources = members(f.get("sources"), hosts, receiverGpus);
        Set<String> sourceNames = new HashSet<>();
        sources.forEach(s -> sourceNames.add(s.host()));
        for (FanoutPlan.Member r : receivers) {
            if (sourceNames.contains(r.host())) {
                throw f.get("receivers").error("host '" + r.host() + "' is both a source and a receiver");
            }
        }
        long model = Quantities.bytes(f.get("model"));
        if (model < 1) {
            throw f.get("model").error("the model needs at least one byte");
        }
        ModelLayout layout = ModelLayout.WHOLE;
        if (f.has("layout")) {
            YamlTree l = f.get("layout");
            layout = switch (l.text().toLowerCase(Locale.ROOT)) {
                case "whole" -> ModelLayout.WHOLE;
                case "sharded" -> ModelLayout.SHARDED;
                default -> throw l.notOneOf("whole or sharded", List.of("whole", "sharded"));
            };
        }
        if (layout == ModelLayout.SHARDED) {
            for (FanoutPlan.Member s : sources) {
                if (s.gpus().size() < receiverGpus.size()) {
                    throw f.get("sources").error("sharded: source " + s.host() + " holds " + s.gpus().size()
                            + " shard(s) but receivers pull " + receiverGpus.size());
                }
            }
            for (FanoutPlan.Member r : receivers) {
                if (r.gpus().size() != receiverGpus.size()) {
                    throw f.get("receivers").error("sharded: every receiver needs the same number of GPUs");
                }
            }
        }
        ArrivalProcess arrival = f.has("arrival") ? arrival(f.get("arrival")) : new ArrivalProcess.AllAtOnce();
        SourceAssignment assignment = SourceAssignment.ROUND_ROBIN;
        if (f.has("assignment")) {
            YamlTree a = f.get("assignment");
            assignment = switch (a.text().toLowerCase(Locale.ROOT)) {
                case "round-robin" -> SourceAssignment.ROUND_ROBIN;
                case "least-loaded" -> SourceAssignment.LEAST_LOADED;
                default -> throw a.notOneOf("round-robin or least-loaded", List.of("round-robin", "least-loaded"));
            };
        }
        TreeFanout tree = null;
        if (f.has("tree")) {
            YamlTree t = f.get("tree");
            t.onlyFields(Set.of("maxChildren"));
            long n = Parameters.MAX_CHILDREN.fromYaml(t.get("maxChildren"));
            tree = new TreeFanout((int) n);
        }
        Operation op = f.has("operation") ? ScenarioLoader.operation(f.get("operation")) : transport.operation();
        RefitCycles cycles = f.has("cycles") ? cycles(f.get("cycles")) : RefitCycles.single();
        Jitter jitter = f.has("jitter") ? jitter(f.get("jitter")) : Jitter.NONE;
        return new FanoutPlan(receivers, sources, model, layout, arrival, assignment, tree, op, transport.descriptors(),
                cycles, jitter);
    }

    /**
     * A group or host name, a list of them, or {hosts: ..., gpus: [...]}. GPUs default to
     * {@code fallback} (the receivers' list, for sources) or GPU0.
     */
    private static List<FanoutPlan.Member> members(YamlTree v, HostTable hosts, List<String> fallback) {
        YamlTree names = v;
        List<String> gpus = fallback == null ? List.of("GPU0") : fallback;
        YamlTree gpuNode = null;
        if (v.isMap()) {
            v.onlyFields(Set.of("hosts", "gpus"));
            names = v.get("hosts");
            if (v.has("gpus")) {
                gpuNode = v.get("gpus");
                gpus = new ArrayList<>();
                for (YamlTree g : gpuNode.isList() ? gpuNode.items() : List.of(gpuNode)) {
                    if (gpus.contains(g.text())) {
                        // a GPU is one buffer's home: listed twice it would pull (or serve) the model twice
                        throw g.error("GPU '" + g.text() + "' is listed twice");
                    }
                    gpus.add(g.text());
                }
                if (gpus.isEmpty()) {
                    throw gpuNode.error("the list of GPUs is empty");
                }
            }
        }
        List<String> hostNames = new ArrayList<>();
        for (YamlTree n : names.isList() ? names.items() : List.of(names)) {
            String name = n.text();
            List<String> group = hosts.groups().get(name);
            if (group != null) {
                hostNames.addAll(group);
            } else if (hosts.specs().containsKey(name)) {
                hostNames.add(name);
            } else {
                throw n.error("no host or host group named '" + name + "' (hosts: " + hosts.describe() + ")");
            }
        }
        if (hostNames.isEmpty()) {
            throw names.error("no hosts listed");
        }
        YamlTree where = gpuNode != null ? gpuNode : names;
        Set<String> checkedShapes = new HashSet<>();
        List<FanoutPlan.Member> out = new ArrayList<>(hostNames.size());
        Set<String> unique = new HashSet<>();
        for (String h : hostNames) {
            if (!unique.add(h)) {
                throw names.error("host '" + h + "' is listed twice");
            }
            Host rep = hosts.representative(h);
            if (checkedShapes.add(rep.name())) {
                for (String g : gpus) {
                    TopologyNode node = rep.find(g).orElse(null);
                    if (node == null || node.kind() != TopologyNode.Kind.GPU) {
                        throw where.error("host '" + h + "' has no GPU named '" + g + "' (GPUs: "
                                + String.join(", ", rep.gpus().stream().map(TopologyNode::name).toList()) + ")");
                    }
                }
            }
            out.add(new FanoutPlan.Member(h, gpus));
        }
        return out;
    }

    private static ArrivalProcess arrival(YamlTree a) {
        if (a.isScalar()) {
            if (a.text().equalsIgnoreCase("all-at-once")) {
                return new ArrivalProcess.AllAtOnce();
            }
            throw a.error("expected all-at-once, {kind: waves, size: N[, gap: T]} or {kind: poisson, meanGap: T}, got '"
                    + a.text() + "'" + YamlTree.suggestion(a.text().trim(), List.of("all-at-once")));
        }
        YamlTree kind = a.get("kind");
        switch (kind.text().toLowerCase(Locale.ROOT)) {
            case "all-at-once" -> {
                a.onlyFields(Set.of("kind"));
                return new ArrivalProcess.AllAtOnce();
            }
            case "waves" -> {
                a.onlyFields(Set.of("kind", "size", "gap"));
                long size = Parameters.WAVE_SIZE.fromYaml(a.get("size"));
                if (a.has("gap")) {
                    return ArrivalProcess.Waves.everySeconds((int) size, Quantities.seconds(a.get("gap")));
                }
                return ArrivalProcess.Waves.afterPrevious((int) size);
            }
            case "poisson" -> {
                a.onlyFields(Set.of("kind", "meanGap"));
                double gap = Quantities.seconds(a.get("meanGap"));
                if (!(gap > 0)) {
                    throw a.get("meanGap").error("the mean gap must be positive");
                }
                return new ArrivalProcess.Poisson(gap);
            }
            default -> throw kind.notOneOf("all-at-once, waves or poisson", List.of("all-at-once", "waves", "poisson"));
        }
    }

    private static RefitCycles cycles(YamlTree c) {
        c.onlyFields(Set.of("count", "metadataRtt", "metadataPerReceiver", "registrationCached"));
        long count = Parameters.CYCLES.fromYamlOrDefault(c);
        double rtt = c.has("metadataRtt") ? Quantities.seconds(c.get("metadataRtt")) : 0.0;
        double per = c.has("metadataPerReceiver") ? Quantities.seconds(c.get("metadataPerReceiver")) : 0.0;
        boolean cached = !c.has("registrationCached") || c.get("registrationCached").bool();
        return new RefitCycles((int) count, rtt, per, cached);
    }

    private static Jitter jitter(YamlTree j) {
        j.onlyFields(Set.of("nicRate", "start"));
        double rate = Parameters.NIC_RATE_JITTER.fromYamlOrDefault(j);
        double start = j.has("start") ? Quantities.seconds(j.get("start")) : 0.0;
        return new Jitter(rate, start);
    }

    /**
     * Lane choice for every kind of pull the plan can make, once per pair of host shapes: source to
     * receiver, and receiver to receiver when a tree re-publishes receivers.
     */
    static List<String> checkStack(YamlTree variant, TransportSettings transport, FabricSpec fabric, FanoutPlan plan,
            HostTable hosts) {
        Map<String, Host> reps = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        List<TransferItem> items = new ArrayList<>();
        List<FanoutPlan.Member> servers = new ArrayList<>(plan.sources());
        if (plan.tree() != null) {
            servers.add(plan.receivers().get(0));
        }
        Map<String, FanoutPlan.Member> receiverShapes = new LinkedHashMap<>();
        for (FanoutPlan.Member r : plan.receivers()) {
            receiverShapes.putIfAbsent(hosts.representative(r.host()).name() + r.gpus(), r);
        }
        Map<String, FanoutPlan.Member> serverShapes = new LinkedHashMap<>();
        for (FanoutPlan.Member s : servers) {
            serverShapes.putIfAbsent(hosts.representative(s.host()).name() + s.gpus(), s);
        }
        for (FanoutPlan.Member s : serverShapes.values()) {
            Host sh = hosts.representative(s.host());
            for (FanoutPlan.Member r : receiverShapes.values()) {
                Host rh = hosts.representative(r.host());
                for (int k = 0; k < r.gpus().size(); k++) {
                    String sg = plan.layout() == ModelLayout.SHARDED ? s.gpus().get(k) : s.gpus().get(k % s.gpus().size());
                    String rg = r.gpus().get(k);
                    if (seen.add(sh.name() + ":" + sg + ">" + rh.name() + ":" + rg)) {
                        reps.put(sh.name(), sh);
                        reps.put(rh.name(), rh);
                        items.add(new TransferItem("fanout " + s.host() + ":" + sg + " -> " + r.host() + ":" + rg,
                                new Endpoint(sh.name(), sg), new Endpoint(rh.name(), rg), plan.bytesForGpu(k, r.gpus().size()),
                                0, plan.operation(), plan.descriptors()));
                    }
                }
            }
        }
        return TransfersReader.checkLaneChoice(variant, hosts, transport, fabric, items, new ArrayList<>(reps.values()));
    }
}
