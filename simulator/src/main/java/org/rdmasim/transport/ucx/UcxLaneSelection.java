package org.rdmasim.transport.ucx;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.DeviceSelection;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.MemUnits;
import org.rdmasim.transport.config.StackVersion;

/**
 * Lane choice as UCX makes it for a multi-lane RMA operation (openucx/ucx
 * {@code src/ucp/proto/proto_multi.c}, v1.20.0 [ucx-src]):
 * <ol>
 *   <li>candidate devices are the HCAs {@code UCX_NET_DEVICES} leaves the initiating process; their lanes
 *       are wired to remote devices when the endpoint is made, before any buffer exists, one path at a time to
 *       the (local, remote) pair with the best wireup score ({@link BwLanePairing}); a lane whose remote
 *       device is missing from the remote buffer's rkey is skipped ({@code proto_common.c},
 *       {@code ucp_proto_common_find_lanes}); a wired lane below {@code 1 / UCX_MULTI_LANE_MAX_RATIO} of the
 *       fastest wired one was never added to the endpoint ({@link WireupFastLanes}, UCX >= 1.14.1); the
 *       initiator's own buffer never removes a lane, as UCX
 *       registers it on a lane's device at first use ({@code datatype_iter.inl},
 *       {@code ucp_datatype_iter_mem_reg_single}, v1.16.0 on; before v1.16.0 a user memh held every
 *       memory domain);</li>
 *   <li>each device gives one lane per path ({@link UcxPaths}); a lane's bandwidth estimate is the
 *       interface rate (wire x MTU efficiency, capped by the HCA's PCIe), capped by the packed local and
 *       remote distances ({@link UcxTopoDistance#forLane}, {@code UCX_DISTANCE_BW} honoured);</li>
 *   <li>of the lanes left, those whose estimate times {@code UCX_MULTI_LANE_MAX_RATIO} is below the best are
 *       dropped (v1.20.0 L305-321, {@code ucp_proto_multi_init}): the same ratio as wireup's filter, over the lanes
 *       the rkey leaves and with the protocol's estimate, so it drops only what wireup's could not see (a best lane
 *       missing from the rkey, an XDR GET's lowered estimate, 8-bit packed distances);</li>
 *   <li>UCX >= 1.19 takes lanes greedily by {@code avail_bw} ({@link UcxPaths#availableBandwidth}),
 *       so a second path of a device ranks below other devices' first paths; older UCX takes them in
 *       wireup order, a device's paths one after another (v1.18.0 L100); either way up to the rail
 *       limit ({@code UCX_MAX_RMA_RAILS} for get/put, {@code UCX_MAX_RNDV_RAILS} for rendezvous), which
 *       counts lanes, not devices;</li>
 *   <li>bytes are split by lane bandwidth ({@link LaneSplit}), fixed when posted, each lane's minimum chunk
 *       scaled by its bandwidth over the slowest chosen lane's ({@link #plan}).</li>
 * </ol>
 * Lane order (the tie-break of the greedy step): devices by estimate, then by PCIe relation to the
 * buffer's device (PIX before PXB ...), then by PCI order on the host; never by name. ASSUMPTION: UCX
 * orders wireup lanes by resource index; putting the buffer's own switch first among equal estimates
 * is rdmasim's reading of the PCI-ordinal rule of UCX master [ucx-src]. The peer of each
 * lane is UCX's wireup pairing ({@link BwLanePairing}, {@link #PEER_PAIRING}), under the assumptions of
 * {@link #PEER_PAIRING_ASSUMPTIONS}.
 */
public final class UcxLaneSelection implements LanePolicy {
    /** Which UCX protocol family carries the transfer, hence which rail limit applies. */
    public enum Api { RMA, RENDEZVOUS }

    /** Whether a buffer's registration includes an HCA (UCX's md map after {@code MAX_HCA_PER_GPU}). */
    @FunctionalInterface
    public interface Registrations {
        boolean holds(String host, String device, String nic);

        Registrations EVERYWHERE = (h, d, n) -> true;
    }

    /** How a lane is paired with a remote HCA: UCX's wireup rule ({@link BwLanePairing}), as {@code explain} says it. */
    public static final String PEER_PAIRING = "wired as UCX's wireup wires bandwidth lanes: one path at a time, the "
            + "(local HCA, remote HCA) pair with the best score, 1 / (256 KiB / avail_bw + the mean of the two distance "
            + "latencies), avail_bw being the lesser of the two HCAs' bandwidths (interface capped by the distance to the "
            + "GPU) each times 1 - paths it already carries / its paths, plus 0.001 of their sum; scores within 1e-6 are "
            + "a tie, which goes to the first local HCA in PCI order, then the first remote one; an HCA leaves the pool "
            + "once each of its paths carries a lane, so equal hosts pair the i-th HCA with the i-th and a fresh pair "
            + "beats a second path of a busy HCA";

    /**
     * What the pairing takes that UCX knows only at run time, each with the alternative. The distance is measured
     * from the first {@code UCX_SELECT_DISTANCE_MD} ({@code cuda_cpy}) resource, the CUDA device current when the
     * UCP context was made ({@code ucp_worker_iface_set_sys_device_distance}).
     */
    public static final List<String> PEER_PAIRING_ASSUMPTIONS = List.of(
            "the GPU UCX measures each HCA's wireup distance from (UCX_SELECT_DISTANCE_MD=cuda_cpy: the CUDA device "
                    + "current when the process made its UCP context) is the buffer's GPU, and for a host-memory buffer "
                    + "there is none (no distance); a process that drives several GPUs from one context scores every "
                    + "HCA from its first GPU instead, and its lanes follow the HCAs nearest that GPU",
            "the worker address is version 1 (UCX_ADDRESS_VERSION=v1, the default: bandwidth as a 32-bit float, "
                    + "no 8-bit packing), no processes-per-node hint (UCX_NUM_PPN unset, the application passes none: "
                    + "bandwidths are not divided) and UCX_MULTI_PATH_RATIO=auto; with a hint of n every bandwidth is "
                    + "divided by n, so distance latency weighs n times more against bandwidth",
            "every HCA is at the same NUMA distance from the CPUs the process may run on (full affinity), so the "
                    + "memory-distance latency UCX adds to each interface is the same for all and drops out",
            "UCX's resource order, and the remote worker address's, is the host's PCI order",
            "no active-message lane on dc_mlx5 shares its HCA pair with the bandwidth lanes (NIXL asks for "
                    + "UCP_FEATURE_AM; an AM lane on dc_mlx5 would be counted first on its pair and give that pair "
                    + "one more path, allow_extra_path; on rc_mlx5 it is not counted)");

    private static final StackVersion AVAIL_BW_RANKING = new StackVersion(1, 19, 0);
    /** Rendezvous lanes carry at least their minimum chunk ({@code proto_rndv.inl} v1.17.0 L255). */
    private static final StackVersion RNDV_MIN_CHUNK = new StackVersion(1, 17, 0);
    /** {@code UCX_MIN_RMA_CHUNK_SIZE} and the {@code UCP_MIN_BCOPY} floor of lane minima (v1.20.0). */
    private static final StackVersion MIN_CHUNK_FLOOR = new StackVersion(1, 20, 0);

    private final StackProfile stack;
    private final Api api;
    private final Registrations registrations;

    public UcxLaneSelection(StackProfile stack, Api api) {
        this(stack, api, Registrations.EVERYWHERE);
    }

    public UcxLaneSelection(StackProfile stack, Api api, Registrations registrations) {
        this.stack = stack;
        this.api = api;
        this.registrations = registrations;
    }

    public StackProfile stack() {
        return stack;
    }

    @Override
    public Plan plan(Hosts hosts, TransferSpec spec) {
        LaneDecision d = decide(hosts, spec);
        return new Plan(d.picked(), minChunk(d.initiatorConfig()));
    }

    /**
     * The per-lane minimum chunk rule of this API at the initiator's UCX release. {@code params.min_chunk}
     * is {@code UCX_MIN_RMA_CHUNK_SIZE} for get/put offload ({@code src/ucp/rma/get_offload.c} v1.20.0 L112,
     * L222; 0 in v1.19.0, the variable appears in v1.20.0) and {@code UCX_MIN_RNDV_CHUNK_SIZE} for
     * rendezvous ({@code src/ucp/rndv/rndv_get.c} v1.20.0 L50); the rendezvous split honours it since v1.17.0
     * ({@code proto_rndv.inl} v1.17.0 L255) and both gain the {@code UCP_MIN_BCOPY} floor in v1.20.0
     * ({@code proto_multi.c} v1.20.0 L405-408).
     */
    private LaneSplit.MinChunk minChunk(EffectiveConfig config) {
        StackVersion ucx = config.ucxVersion();
        if (api == Api.RMA) {
            return ucx.atLeast(MIN_CHUNK_FLOOR) ? LaneSplit.MinChunk.rma(bytes(config.minRmaChunk()))
                    : LaneSplit.MinChunk.RMA_UNTIL_1_19;
        }
        if (ucx.atLeast(MIN_CHUNK_FLOOR)) {
            return LaneSplit.MinChunk.rendezvous(bytes(config.minRndvChunk()));
        }
        long rndv = ucx.atLeast(RNDV_MIN_CHUNK) ? bytes(config.minRndvChunk()) : 0;
        return new LaneSplit.MinChunk(rndv, 0, LaneSplit.MinChunk.Split.RENDEZVOUS_END);
    }

    private static long bytes(MemUnits m) {
        return m.isInf() ? Long.MAX_VALUE : m.requireBytes();
    }

    /** The whole decision, for {@code explain}. */
    public LaneDecision decide(Hosts hosts, TransferSpec spec) {
        Endpoint initiator = spec.initiator();
        Endpoint remote = spec.operation() == Operation.READ ? spec.source() : spec.sink();
        Host lh = hosts.host(initiator.host());
        Host rh = hosts.host(remote.host());
        TopologyNode ld = lh.find(initiator.device()).orElseThrow();
        TopologyNode rd = rh.find(remote.device()).orElseThrow();
        EffectiveConfig lc = stack.configFor(lh, ld);
        EffectiveConfig rc = stack.configFor(rh, rd);
        List<String> warnings = new ArrayList<>();
        warnings.addAll(lc.warnings());
        List<HcaEstimate> local = estimates(lh, ld, lc, spec.operation(), warnings);
        List<HcaEstimate> remoteEst = estimates(rh, rd, rc, spec.operation(), new ArrayList<>());
        int rails = api == Api.RMA ? lc.maxRmaRails() : lc.maxRndvRails();
        String railName = api == Api.RMA ? "UCX_MAX_RMA_RAILS" : "UCX_MAX_RNDV_RAILS";
        double ratio = lc.multiLaneMaxRatio();

        // Lanes are wired at endpoint creation, before any buffer exists, pair by pair as UCX's wireup scores them
        // (BwLanePairing); a local HCA path left when no remote path is left is not wired. A buffer then loses only
        // the lanes whose remote device is missing from its rkey; the initiator's own buffer is registered on a
        // missing device when a lane first uses it (see registeredAtFirstUse).
        List<BwLanePairing.Device> localDevices = wireupDevices(local, false);
        List<BwLanePairing.Device> remoteDevices = wireupDevices(remoteEst, true);
        List<BwLanePairing.Wire> wires = BwLanePairing.pair(localDevices, remoteDevices);
        // wireup then leaves out of the endpoint the wired lanes too slow beside the fastest (WireupFastLanes):
        // they never reach the rkey check or the protocol's own ratio filter
        WireupFastLanes fast = WireupFastLanes.over(wires, localDevices, remoteDevices, ratio, lc.ucxVersion());
        java.util.Map<String, HcaEstimate> remoteByNic = new java.util.HashMap<>();
        remoteEst.forEach(e -> remoteByNic.put(e.nic(), e));
        List<UcxLane> lanes = new ArrayList<>();
        List<String> lateLocal = new ArrayList<>();
        for (HcaEstimate e : local) {
            List<BwLanePairing.Wire> own = wires.stream().filter(w -> w.localNic().equals(e.nic())).toList();
            for (BwLanePairing.Wire w : own) {
                HcaEstimate peer = remoteByNic.get(w.remoteNic());
                if (fast.drops(e.nic(), w.localPath())) {
                    double bw = Math.min(e.estimate(), peer.estimate());
                    lanes.add(new UcxLane(e.nic(), w.localPath(), peer.nic(), bw, e.pathRatio(), bw,
                            LaneVerdict.DROPPED_AT_WIREUP));
                    continue;
                }
                boolean held = registrations.holds(rh.name(), rd.name(), peer.nic());
                if (held && !registrations.holds(lh.name(), ld.name(), e.nic()) && !lateLocal.contains(e.nic())) {
                    lateLocal.add(e.nic());
                }
                double bw = Math.min(e.estimate(), peer.estimate());
                lanes.add(new UcxLane(e.nic(), w.localPath(), peer.nic(), bw, e.pathRatio(), bw,
                        held ? LaneVerdict.PICKED : LaneVerdict.NOT_REGISTERED));
            }
            for (int p = own.size(); p < e.paths(); p++) {
                lanes.add(new UcxLane(e.nic(), p, "", e.estimate(), e.pathRatio(), e.estimate(), LaneVerdict.NOT_WIRED));
            }
        }
        List<UcxLane> judged = select(lanes, rails, ratio, lc.ucxVersion().atLeast(AVAIL_BW_RANKING));
        List<LaneSplit.Candidate> picked = new ArrayList<>();
        for (UcxLane l : judged) {
            if (l.verdict() == LaneVerdict.PICKED) {
                picked.add(spec.operation() == Operation.READ
                        ? new LaneSplit.Candidate(l.peerNic(), l.nic(), l.bandwidth(), l.path())
                        : new LaneSplit.Candidate(l.nic(), l.peerNic(), l.bandwidth(), l.path()));
            }
        }
        if (picked.isEmpty()) {
            String emulation = api == Api.RMA
                    ? "UCX would fall back to its software RMA emulation over an active-message lane (put/am/bcopy, "
                            + "get/am/bcopy), which rdmasim models only for GPU memory no NIC can register"
                    : "a rendezvous send would be left to protocols rdmasim does not model (eager sends)";
            if (rails == 0) {
                // a multi-lane protocol with no lanes allowed is unsupported
                // (openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:253-255 ucp_proto_multi_init); rndv/am takes
                // UCX_MAX_RNDV_RAILS as its lane limit too (openucx/ucx v1.20.0 src/ucp/rndv/rndv_am.c:34)
                throw lc.refusal(railName, "at least 1: with 0 UCX's multi-lane protocols are unsupported (openucx/ucx "
                        + "v1.20.0 src/ucp/proto/proto_multi.c:253-255 ucp_proto_multi_init"
                        + (api == Api.RMA ? "" : "; rndv/am too: openucx/ucx v1.20.0 src/ucp/rndv/rndv_am.c:34")
                        + ") and " + emulation);
            }
            if (!(ratio > 0)) {
                // wireup keeps a lane whose bandwidth is at least the best one's times 1 / ratio (0: infinity, none kept;
                // openucx/ucx v1.20.0 src/ucp/wireup/select.c:1712-1725 ucp_wireup_add_fast_lanes_pairwise); the
                // protocol then uses a lane whose bandwidth times the ratio is at least the best one's (below 0: none;
                // openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:310 ucp_proto_multi_init)
                throw lc.refusal("UCX_MULTI_LANE_MAX_RATIO", "a ratio above 0: with 0 wireup keeps no lane (openucx/ucx "
                        + "v1.20.0 src/ucp/wireup/select.c:1712-1725 ucp_wireup_add_fast_lanes_pairwise), below 0 the "
                        + "protocol uses none (openucx/ucx v1.20.0 src/ucp/proto/proto_multi.c:310 ucp_proto_multi_init), "
                        + "and " + emulation);
            }
            throw new NoLaneException("no lane for " + spec.id() + ": no lane UCX_NET_DEVICES allows and "
                    + "wireup's fast-lane filter keeps reaches an HCA the remote buffer is registered on (its rkey); "
                    + noLaneReasons(lanes, rh.name() + ":" + rd.name()) + ". UCX would fall back to its software RMA "
                    + "emulation over an active-message lane (put/am/bcopy, get/am/bcopy), which rdmasim models only "
                    + "for GPU memory no NIC can register: register the buffer on a wired HCA");
        }
        List<String> pickedNics = judged.stream().filter(l -> l.verdict() == LaneVerdict.PICKED).map(UcxLane::nic)
                .distinct().toList();
        List<String> firstUse = lateLocal.stream().filter(pickedNics::contains).toList();
        return new LaneDecision(lc, rc, local, remoteEst, rails, railName, ratio, judged, picked, warnings, firstUse,
                fast);
    }

    /** Why each wired lane was refused, by verdict, so a user sees which HCAs to register on or to keep wired. */
    static String noLaneReasons(List<UcxLane> lanes, String remoteBuffer) {
        java.util.Map<LaneVerdict, java.util.List<String>> byVerdict = new java.util.EnumMap<>(LaneVerdict.class);
        for (UcxLane l : lanes) {
            if (l.verdict() == LaneVerdict.NOT_WIRED) {
                continue;
            }
            byVerdict.computeIfAbsent(l.verdict(), v -> new ArrayList<>()).add(l.nic() + "->" + l.peerNic());
        }
        if (byVerdict.isEmpty()) {
            return "no lane was wired to " + remoteBuffer;
        }
        List<String> parts = new ArrayList<>();
        byVerdict.forEach((v, pairs) -> parts.add(String.join(", ", pairs) + " " + v.words()));
        return "the buffer on " + remoteBuffer + ": " + String.join("; ", parts);
    }

    /**
     * The ratio filter, then the greedy choice up to {@code rails} lanes. Lanes arrive in lane order
     * with verdict PICKED (eligible) or NOT_REGISTERED; the result keeps that order.
     */
    static List<UcxLane> select(List<UcxLane> lanes, int rails, double ratio, boolean rankByAvailBw) {
        double best = 0;
        for (UcxLane l : lanes) {
            if (l.verdict() == LaneVerdict.PICKED) {
                best = Math.max(best, l.bandwidth());
            }
        }
        UcxLane[] out = lanes.toArray(new UcxLane[0]);
        List<Integer> eligible = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            if (out[i].verdict() != LaneVerdict.PICKED) {
                continue;
            }
            if (out[i].bandwidth() * ratio < best) {
                out[i] = out[i].with(LaneVerdict.DROPPED_BY_RATIO, out[i].bandwidth());
            } else {
                eligible.add(i);
            }
        }
        java.util.Map<String, Integer> takenOnDevice = new java.util.HashMap<>();
        java.util.Set<Integer> taken = new java.util.HashSet<>();
        for (int step = 0; step < Math.min(rails, eligible.size()); step++) {
            int chosen = -1;
            double chosenAvail = 1.0; // proto_multi.c: "Initial value is 1Bps"
            for (int i : eligible) {
                if (taken.contains(i)) {
                    continue;
                }
                double avail = rankByAvailBw ? UcxPaths.availableBandwidth(out[i].bandwidth(), out[i].pathRatio(),
                        takenOnDevice.getOrDefault(out[i].nic(), 0)) : out[i].bandwidth();
                if (rankByAvailBw ? avail > chosenAvail : chosen < 0) {
                    chosen = i;
                    chosenAvail = avail;
                }
            }
            if (chosen < 0) {
                break;
            }
            taken.add(chosen);
            takenOnDevice.merge(out[chosen].nic(), 1, Integer::sum);
            out[chosen] = out[chosen].with(LaneVerdict.PICKED, chosenAvail);
        }
        for (int i : eligible) {
            if (!taken.contains(i)) {
                out[i] = out[i].with(LaneVerdict.OVER_RAIL_LIMIT, out[i].bandwidth());
            }
        }
        return List.of(out);
    }

    /**
     * The HCAs as the wireup score sees them, in UCX's resource order (PCI order); a remote HCA's bandwidth as its
     * version-1 worker address carries it.
     */
    private static List<BwLanePairing.Device> wireupDevices(List<HcaEstimate> estimates, boolean remote) {
        return estimates.stream().sorted(Comparator.comparingInt(HcaEstimate::pciOrder))
                .map(e -> new BwLanePairing.Device(e.nic(),
                        remote ? BwLanePairing.packedV1(e.wireupBandwidth()) : e.wireupBandwidth(),
                        e.distance().latencySeconds(), e.paths()))
                .toList();
    }

    /** UCX's estimate for every selected HCA of {@code host}, in lane order (best first). */
    static List<HcaEstimate> estimates(Host host, TopologyNode device, EffectiveConfig config, Operation op,
            List<String> warnings) {
        List<String> names = host.nics().stream().map(TopologyNode::name).toList();
        DeviceSelection selection = config.selectNetDevices(names, host.listedOnlyNics());
        warnings.addAll(selection.warnings());
        List<HcaEstimate> out = new ArrayList<>();
        for (String name : selection.devices()) {
            TopologyNode nic = host.nic(name);
            HostSpec.NicSpec n = nic.nic();
            int paths = UcxPaths.pathsPerPort(n, config.ucxVersion(), config.ibNumPaths());
            double wire = UcxWireEstimate.bytesPerSecond(n, host.profile());
            double pcie = n.link().bytesPerSecond();
            double iface = Math.min(wire, pcie);
            double opIface = UcxPaths.ifaceEstimate(n.model(), op, iface, paths);
            HcaDistance distance = UcxTopoDistance.forLane(host, device, nic, config.distanceBandwidth(),
                    config.distanceLatency(), config.ucxVersion());
            double estimate = Math.min(opIface, distance.bandwidthBytesPerSecond());
            // wireup scores the interface with its distance as ucs_topo gives it, not packed to 8 bits
            double wireup = Math.min(iface, UcxTopoDistance.configuredBandwidth(host, device, nic,
                    config.distanceBandwidth(), config.ucxVersion()));
            out.add(new HcaEstimate(name, device.kind() == TopologyNode.Kind.SOCKET ? null : host.relation(device, nic),
                    distance, wire, pcie, estimate, paths, UcxPaths.pathRatio(n.model(), op, iface, opIface),
                    names.indexOf(name), wireup));
        }
        out.sort(Comparator.comparingDouble(HcaEstimate::estimate).reversed()
                .thenComparing(e -> e.relation() == null ? 0 : e.relation().ordinal())
                .thenComparingInt(HcaEstimate::pciOrder));
        return out;
    }
}
