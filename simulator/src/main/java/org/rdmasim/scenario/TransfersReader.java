package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.backend.BackendRefusal;
import org.rdmasim.transport.config.ConfigValueException;
import org.rdmasim.workload.TransferItem;

/** A {@code transfers} workload and the checks made once a variant is read: explicit lanes against the hosts, and the lane choice UCX would warn about. */
final class TransfersReader {
    private TransfersReader() {
    }

    private static final Set<String> WORKLOAD_FIELDS = Set.of("transfers", "fanout");
    private static final Set<String> TRANSFER_FIELDS = Set.of("id", "from", "to", "size", "at", "operation", "descriptors");

    static List<TransferItem> workload(YamlTree v, HostTable hosts, TransportSettings transport) {
        v.onlyFields(WORKLOAD_FIELDS);
        List<TransferItem> out = new ArrayList<>();
        int i = 0;
        for (YamlTree t : v.get("transfers").items()) {
            t.onlyFields(TRANSFER_FIELDS);
            Endpoint from = endpoint(t.get("from"), hosts);
            Endpoint to = endpoint(t.get("to"), hosts);
            if (from.host().equals(to.host())) {
                throw t.get("to").error("source and destination are on the same host; rdmasim models transfers between hosts");
            }
            long bytes = Quantities.payload(t.get("size"));
            double at = t.has("at") ? Quantities.seconds(t.get("at")) : 0.0;
            Operation op = t.has("operation") ? ScenarioLoader.operation(t.get("operation")) : transport.operation();
            int descriptors = Math.toIntExact(Parameters.DESCRIPTORS.fromYaml(t, (long) transport.descriptors()));
            String id = t.string("id", "t" + i);
            out.add(new TransferItem(id, from, to, bytes, at, op, descriptors));
            i++;
        }
        if (out.isEmpty()) {
            throw v.get("transfers").error("the workload has no transfer");
        }
        return out;
    }

    static Endpoint endpoint(YamlTree v, HostTable hosts) {
        String text = v.text().trim();
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw v.error("expected HOST:DEVICE such as 'source:GPU0' or 'source:CPU0', got '" + text + "'");
        }
        String host = text.substring(0, colon);
        String device = text.substring(colon + 1);
        if (!hosts.has(host)) {
            throw v.error("no host named '" + host + "' (hosts: " + hosts.describe() + ")");
        }
        // Its devices come with its shape: every endpoint is checked on the shape's one built host
        // (building each of 4,096 receivers here would cost more than reading their transfers).
        Host h = hosts.representative(host);
        TopologyNode node = h.find(device).orElse(null);
        if (node == null || (node.kind() != TopologyNode.Kind.GPU && node.kind() != TopologyNode.Kind.SOCKET)) {
            List<String> names = new ArrayList<>();
            h.gpus().forEach(g -> names.add(g.name()));
            h.sockets().forEach(s -> names.add(s.name()));
            throw v.error("host '" + host + "' has no GPU or CPU named '" + device + "' (has: " + String.join(", ", names) + ")");
        }
        return new Endpoint(host, device);
    }

    /**
     * Lanes given explicitly: each NIC exists on its host, and the backend can drive it (a refusal
     * points at the lane).
     */
    static void checkLanes(YamlTree lanesNode, TransportSettings transport, List<TransferItem> transfers,
            HostTable hosts) {
        List<LaneSplit.Candidate> lanes = transport.lanes();
        List<YamlTree> items = lanesNode.items();
        // Whether a host has a lane's NICs, and whether the backend takes the lane, depend on the two
        // hosts' shapes only: the first transfer of each pair of shapes is checked, which is also the
        // first transfer the check of every transfer would refuse, with the same hosts in its message.
        Set<List<Object>> checked = new HashSet<>();
        for (TransferItem t : transfers) {
            String from = t.from().host();
            String to = t.to().host();
            if (!checked.add(List.of(hosts.representative(from).name(), hosts.representative(to).name(), from.equals(to)))) {
                continue;
            }
            for (int i = 0; i < lanes.size(); i++) {
                LaneSplit.Candidate c = lanes.get(i);
                Host src = hosts.get(from);
                Host dst = hosts.get(to);
                if (!hasNic(src, c.sourceNic())) {
                    throw noLaneNic(items.get(i).get("source"), src, c.sourceNic(), "sending (from)");
                }
                if (!hasNic(dst, c.sinkNic())) {
                    throw noLaneNic(items.get(i).get("sink"), dst, c.sinkNic(), "receiving (to)");
                }
                try {
                    transport.backend().checkGivenLane(transport.stack(),
                            Hosts.of(src == dst ? List.of(src) : List.of(src, dst)), src.name(), dst.name(), c);
                } catch (BackendRefusal e) {
                    throw items.get(i).error(e.getMessage());
                }
            }
        }
    }

    /**
     * Resolves every process's configuration and lane choice once, so a malformed value or a
     * UCX_NET_DEVICES that selects nothing is reported now, at the scenario's line, not mid-run.
     */
    static List<String> checkStack(YamlTree variant, TransportSettings transport, FabricSpec fabric,
            List<TransferItem> transfers, HostTable hosts) {
        // Lane choice depends on host shapes and devices only: check each distinct pair once, on a
        // cluster of one representative host per shape.
        Map<String, Host> reps = new LinkedHashMap<>();
        Set<Shape> seen = new HashSet<>();
        List<TransferItem> distinct = new ArrayList<>();
        for (TransferItem t : transfers) {
            Host from = hosts.representative(t.from().host());
            Host to = hosts.representative(t.to().host());
            if (seen.add(new Shape(from.name(), t.from().device(), to.name(), t.to().device(), t.operation()))) {
                reps.put(from.name(), from);
                reps.put(to.name(), to);
                distinct.add(new TransferItem(t.id(), new Endpoint(from.name(), t.from().device()),
                        new Endpoint(to.name(), t.to().device()), t.bytes(), t.atSeconds(), t.operation(), t.descriptors()));
            }
        }
        return checkLaneChoice(variant, hosts, transport, fabric, distinct, new ArrayList<>(reps.values()));
    }

    /** What lane choice depends on: the representative hosts, the devices, the operation. */
    private record Shape(String from, String fromDevice, String to, String toDevice, Operation operation) {
    }

    /**
     * Resolves each transfer's configuration and lanes on a cluster of {@code hosts} (representatives of
     * {@code table}'s groups); errors point at the variant's transport block (the variant when it has
     * none), and a refusal of a host's hardware at {@code transport.backend} when the scenario names
     * the backend, else at the host's entry.
     */
    static List<String> checkLaneChoice(YamlTree variant, HostTable table, TransportSettings transport, FabricSpec fabric,
            List<TransferItem> transfers, List<Host> hosts) {
        YamlTree where = variant.has("transport") ? variant.get("transport") : variant;
        List<TransferSpec> specs = new ArrayList<>();
        for (TransferItem t : transfers) {
            specs.add(new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                    DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0));
        }
        try {
            return transport.backend().checkLanes(transport.stack(), Hosts.of(hosts), specs);
        } catch (BackendRefusal e) {
            throw refusalSite(variant, table, where, e).error(e.getMessage());
        } catch (ConfigValueException e) {
            throw valueSite(where, transport, e);
        }
    }

    /**
     * The refusal of a configuration value, at the line the user wrote it on when the user set it: the
     * variable's entry in the env block (a variant's own block when the variant sets it) or its envFile
     * line, not the base transport block it was merged into. A value another layer set (NIXL, ModelExpress,
     * a ucx.conf) stays at {@code where}.
     */
    static ScenarioException valueSite(YamlTree where, TransportSettings transport, ConfigValueException e) {
        return transport.atUserLine(e).orElseGet(() -> where.error(e.getMessage()));
    }

    private static YamlTree refusalSite(YamlTree variant, HostTable table, YamlTree where, BackendRefusal e) {
        if (e.host().isEmpty()) {
            return where;
        }
        if (where.has("backend")) {
            return where.get("backend");
        }
        String group = HostsSection.groupOf(table, e.host().get());
        YamlTree hosts = variant.get("hosts");
        return hosts.has(group) ? hosts.get(group) : where;
    }

    private static boolean hasNic(Host h, String name) {
        return h.find(name).filter(n -> n.kind() == TopologyNode.Kind.NIC).isPresent();
    }

    /**
     * A lane end naming no NIC of {@code h}. A lane applies to every transfer, so each end is a NIC name
     * alone ({@code {source: mlx5_0, sink: mlx5_1, weight: 1}}); a guess in another tool's form is named as
     * such: {@code host:nic} as a transfer's {@code from} is written, {@code nic:port} as UCX_NET_DEVICES.
     */
    private static ScenarioException noLaneNic(YamlTree at, Host h, String name, String side) {
        String known = " (NICs: " + nicNames(h) + ")";
        int colon = name.indexOf(':');
        if (colon > 0) {
            String before = name.substring(0, colon);
            String after = name.substring(colon + 1);
            if (hasNic(h, after)) {
                return at.error("'" + name + "' is written as host:NIC; a lane names the NIC alone, '" + after
                        + "', on each transfer's " + side + " host (here '" + h.name() + "'): write '" + after + "'");
            }
            if (hasNic(h, before) && after.chars().allMatch(Character::isDigit)) {
                return at.error("'" + name + "' is written as NIC:port (as UCX_NET_DEVICES takes it); a lane names the "
                        + "NIC alone: write '" + before + "'");
            }
            return at.error("a lane names a NIC alone, without host or port (e.g. '" + (h.nics().isEmpty() ? "mlx5_0" : h.nics().get(0).name())
                    + "'): host '" + h.name() + "' has no NIC named '" + name + "'" + known);
        }
        return at.error("host '" + h.name() + "' has no NIC named '" + name + "'" + known);
    }

    static String nicNames(Host h) {
        return String.join(", ", h.nics().stream().map(TopologyNode::name).toList());
    }
}
