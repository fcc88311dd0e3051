package org.rdmasim.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.Units;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.ConfigLayer;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.ucx.HcaEstimate;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.LaneVerdict;
import org.rdmasim.transport.ucx.UcxLane;
import org.rdmasim.transport.ucx.UcxTopoDistance;
import org.rdmasim.transport.ucx.WireupFastLanes;
import org.rdmasim.workload.ConfigAudit;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.TransferItem;

/**
 * Why a variant's first initiating process used fewer NICs than its {@code UCX_NET_DEVICES} lists, in one clause
 * taken from UCX's lane decision for its first transfer (the decision {@code explain} prints): the NICs a ratio
 * filter dropped (wireup's, or the protocol's) and the distance that rated them so low, those over the rail limit, those the buffer is not
 * registered on, or those the devices the process runs with do not name.
 */
final class ListedNicsLeftOut {
    private ListedNicsLeftOut() {
    }

    /**
     * The clause, or empty when every listed NIC carried bytes, the lanes are given, or the backend is not UCX;
     * {@code held}: the registrations of the run that gave {@code result}.
     */
    static String why(VariantSpec v, ConfigAudit audit, RunResult result, VariantRunner.Held held) {
        if (audit.listedNics().isEmpty() || result == null || !v.transport().lanes().isEmpty()) {
            return "";
        }
        String host = audit.host();
        Set<String> used = new LinkedHashSet<>();
        for (RunResult.NicTraffic t : result.nics()) {
            if (t.host().equals(host) && t.txBytes() + t.rxBytes() > 0) {
                used.add(t.name());
            }
        }
        List<String> unused = audit.listedNics().stream().filter(n -> !used.contains(n)).toList();
        if (unused.isEmpty()) {
            return "";
        }
        TransferItem first = null;
        for (TransferItem t : v.isFanout() ? v.fanoutPlan().firstPull() : v.transfers()) {
            Endpoint init = t.operation() == Operation.READ ? t.to() : t.from();
            if (init.toString().equals(audit.process())) {
                first = t;
                break;
            }
        }
        if (first == null) {
            return "";
        }
        java.util.Optional<LaneDecision> decided = FirstLaneDecision.of(v, first, held);
        if (decided.isEmpty()) {
            return "";
        }
        LaneDecision d = decided.get();
        Map<String, Host> built = new HashMap<>();
        Hosts hosts = name -> built.computeIfAbsent(name, n -> new Host(n, v.hosts().get(n)));
        TransferSpec ts = FirstLaneDecision.spec(v, hosts, first);
        Endpoint init = ts.initiator();
        Host h = hosts.host(init.host());
        var device = h.find(init.device()).orElse(null);
        Map<String, Double> configured = new HashMap<>();
        if (device != null) {
            for (String nic : unused) {
                h.find(nic).filter(n -> n.kind() == org.rdmasim.hardware.TopologyNode.Kind.NIC).ifPresent(n -> configured
                        .put(nic, UcxTopoDistance.configuredBandwidth(h, device, n, d.initiatorConfig().distanceBandwidth(),
                                d.initiatorConfig().ucxVersion())));
            }
        }
        return words(d, unused, audit.process(), configured);
    }

    /** The clause for the NICs {@code unused}, grouped by what UCX's decision made of their lanes. */
    static String words(LaneDecision d, List<String> unused, String process, Map<String, Double> configured) {
        Map<LaneVerdict, List<String>> byVerdict = new LinkedHashMap<>();
        List<String> notCandidates = new ArrayList<>();
        List<String> pickedIdle = new ArrayList<>();
        for (String nic : unused) {
            LaneVerdict verdict = null;
            boolean picked = false;
            for (UcxLane l : d.lanes()) {
                if (!l.nic().equals(nic)) {
                    continue;
                }
                if (l.verdict() == LaneVerdict.PICKED) {
                    picked = true;
                } else if (verdict == null) {
                    // a NIC's lanes share a verdict unless the rail limit cut between its paths: the first says it
                    verdict = l.verdict();
                }
            }
            if (d.local().stream().noneMatch(e -> e.nic().equals(nic))) {
                notCandidates.add(nic);
            } else if (picked) {
                // UCX chose it; what left it idle is the split of each message, not the lane selection
                pickedIdle.add(nic);
            } else if (verdict != null) {
                byVerdict.computeIfAbsent(verdict, k -> new ArrayList<>()).add(nic);
            }
        }
        EffectiveConfig c = d.initiatorConfig();
        List<String> parts = new ArrayList<>();
        for (Map.Entry<LaneVerdict, List<String>> e : byVerdict.entrySet()) {
            String nics = String.join(", ", e.getValue());
            switch (e.getKey()) {
                case DROPPED_AT_WIREUP -> parts.add(ratio(d, e.getValue(), process, c, configured, true));
                case DROPPED_BY_RATIO -> parts.add(ratio(d, e.getValue(), process, c, configured, false));
                case OVER_RAIL_LIMIT -> parts.add("the rail limit " + d.railLimitName() + "=" + d.railLimit()
                        + " leaves out " + nics);
                case NOT_REGISTERED -> parts.add(nics + (e.getValue().size() == 1 ? " reaches " : " reach ")
                        + peersOf(d, e.getValue()) + " on the far end, where the remote buffer is not registered "
                        + "(not in its rkey; UCX_MAX_HCA_PER_GPU=" + d.remoteConfig().rawValue("UCX_MAX_HCA_PER_GPU")
                        + " there)");
                case NOT_WIRED -> parts.add(nics + (e.getValue().size() == 1 ? " is" : " are") + " not wired: every HCA of "
                        + "the far end already carries as many lanes as it has paths (UCX wires bandwidth lanes pairwise)");
                default -> { }
            }
        }
        if (!pickedIdle.isEmpty()) {
            parts.add(String.join(", ", pickedIdle) + (pickedIdle.size() == 1 ? " was" : " were") + " picked but given "
                    + "no bytes: a message shorter than the minimum chunk a lane takes (UCX_MIN_RMA_CHUNK_SIZE, "
                    + "UCX_MIN_RNDV_CHUNK_SIZE) goes over fewer lanes");
        }
        if (!notCandidates.isEmpty()) {
            parts.add(String.join(", ", notCandidates) + " not in the devices the process runs with (UCX_NET_DEVICES="
                    + c.rawValue("UCX_NET_DEVICES") + ", set by " + layer(c.layerOf("UCX_NET_DEVICES")) + ")");
        }
        return String.join("; ", parts);
    }

    /**
     * "UCX_MULTI_LANE_MAX_RATIO=4 drops mlx5_2, mlx5_3 (SYS from receiver:GPU0, a distance UCX rates 220 MB/s
     * (512 MB/s packed) with UCX_DISTANCE_BW=auto (UCX's default: no ucx.conf sets it), so their lanes' 4.3 Gbps is under 1/4 of the
     * best lane's 137.4 Gbps)" for the protocol's filter; for wireup's ({@code atWireup}) "drops ... at wireup (...)"
     * with the bandwidths wireup compares: unpacked distances, the best of all wired lanes.
     */
    private static String ratio(LaneDecision d, List<String> nics, String process, EffectiveConfig c,
            Map<String, Double> configured, boolean atWireup) {
        double best = atWireup ? d.wireupFilter().best() : 0;
        for (UcxLane l : d.lanes()) {
            if (!atWireup && l.verdict() == LaneVerdict.PICKED) {
                best = Math.max(best, l.bandwidth());
            }
        }
        // NICs of one relation and distance share a reason; another relation gets its own
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String nic : nics) {
            HcaEstimate e = d.local().stream().filter(x -> x.nic().equals(nic)).findFirst().orElseThrow();
            double distance = configured.getOrDefault(nic, e.distance().bandwidthBytesPerSecond());
            groups.computeIfAbsent(e.relation() + "|" + distance, k -> new ArrayList<>()).add(nic);
        }
        List<String> reasons = new ArrayList<>();
        for (List<String> group : groups.values()) {
            reasons.add(String.join(", ", group) + (atWireup ? " at wireup" : "") + " ("
                    + why(d, group, process, c, configured, best, atWireup) + ")");
        }
        return "UCX_MULTI_LANE_MAX_RATIO=" + Units.number(d.ratio()) + " drops " + String.join(" and ", reasons);
    }

    /** Why UCX's ratio filter drops {@code group}, NICs of one relation and distance from the initiator. */
    private static String why(LaneDecision d, List<String> group, String process, EffectiveConfig c,
            Map<String, Double> configured, double best, boolean atWireup) {
        double theirs = 0;
        if (atWireup) {
            for (WireupFastLanes.Rated r : d.wireupFilter().dropped()) {
                if (group.contains(r.wire().localNic())) {
                    theirs = Math.max(theirs, r.bandwidth());
                }
            }
        }
        for (UcxLane l : d.lanes()) {
            if (!atWireup && l.verdict() != LaneVerdict.PICKED && group.contains(l.nic())) {
                theirs = Math.max(theirs, l.bandwidth());
            }
        }
        HcaEstimate e = d.local().stream().filter(x -> x.nic().equals(group.get(0))).findFirst().orElseThrow();
        StringBuilder b = new StringBuilder(e.relation() + " from " + process);
        double packed = e.distance().bandwidthBytesPerSecond();
        double distance = configured.getOrDefault(group.get(0), packed);
        if (Double.isFinite(distance)) {
            ConfigLayer set = c.layerOf("UCX_DISTANCE_BW");
            b.append(", a distance UCX rates ").append(Units.number(distance / UcxTopoDistance.UCS_MBYTE)).append(" MB/s");
            if (packed != distance && !atWireup) {
                // ucp_worker packs distances into an 8-bit float (UcxTopoDistance.fp8PackUnpackBandwidth)
                b.append(" (").append(Units.number(packed / UcxTopoDistance.UCS_MBYTE)).append(" MB/s packed)");
            }
            b.append(" with UCX_DISTANCE_BW=").append(c.rawValue("UCX_DISTANCE_BW"))
                    .append(set == ConfigLayer.DEFAULT ? " (UCX's default: no ucx.conf sets it)" : " set by " + layer(set));
        }
        b.append(String.format(Locale.ROOT, ", so %s %s Gbps is under 1/%s of the best %s %s Gbps",
                group.size() == 1 ? "its lanes'" : "their lanes'", Units.number(theirs * 8 / 1e9),
                Units.number(d.ratio()), atWireup ? "wired lane's" : "lane's", Units.number(best * 8 / 1e9)));
        return b.toString();
    }

    private static String layer(ConfigLayer l) {
        return switch (l) {
            case DEFAULT -> "UCX's default";
            case UCX_CONF -> "ucx.conf";
            case NIXL -> "NIXL";
            case MODEL_EXPRESS -> "ModelExpress";
            case USER -> "the user";
        };
    }

    /** The remote devices the lanes of {@code nics} connect to, in lane order, each once. */
    private static String peersOf(LaneDecision d, List<String> nics) {
        return String.join(", ", d.lanes().stream().filter(l -> nics.contains(l.nic())).map(UcxLane::peerNic)
                .distinct().toList());
    }
}
