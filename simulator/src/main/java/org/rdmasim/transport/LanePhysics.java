package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.rdmasim.fluid.FlowListener;
import org.rdmasim.fluid.FlowStart;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * What one lane is made of physically: the resources a byte crosses from the source buffer to the sink
 * buffer (and how many times), its one-way latency, and the limits it has on its own. The running of
 * transfers over these lanes is {@link TransferEngine}'s.
 */
final class LanePhysics {
    private final Cluster cluster;
    private final ProtocolParameters params;
    private final WriteOrdering ordering;
    /**
     * The READ initiator's per-QP READ rate, bytes per second, by profile: a profile finds a parameter by
     * name through a stream, and a READ lane's cap asked for it once per lane start.
     */
    private final Map<CalibrationProfile, Double> qpReadRates = new IdentityHashMap<>();
    // A lane's usages, boxed once: the path is built on every lane start, and the launcher's C1 compiler
    // does not remove the boxing of a literal (one Double per resource per lane).
    private static final Double ONCE = 1.0;
    private static final Double TWICE = 2.0;
    /** A lane path's usual length at most, to size its lists once (see {@link #lanePath}). */
    static final int LANE_PATH_ROOM = 16;
    /** Where a lane start's usages are gathered before its flow is made ({@link #flowStart}). */
    private final List<Double> usageScratch = new ArrayList<>(LANE_PATH_ROOM);
    private final List<Resource> pathScratch = new ArrayList<>(LANE_PATH_ROOM);

    LanePhysics(Cluster cluster, ProtocolParameters params, WriteOrdering ordering) {
        this.cluster = cluster;
        this.params = params;
        this.ordering = ordering;
    }

    /** One-way latency from the source buffer to the sink buffer over one lane, seconds. */
    public double oneWayLatency(TransferSpec spec, Lane lane) {
        return oneWayLatency(spec, lane, cluster.host(spec.source().host()), cluster.host(spec.sink().host()));
    }

    /**
     * {@link #oneWayLatency(TransferSpec, Lane)} with the transfer's source and sink hosts already found:
     * a running transfer finds them once for all its lanes (a lookup among every host of the cluster).
     */
    double oneWayLatency(TransferSpec spec, Lane lane, Host src, Host dst) {
        TopologyNode sn = src.nic(lane.sourceNic());
        TopologyNode dn = dst.nic(lane.sinkNic());
        return oneWayLatency(spec, src, sn, src.device(spec.source().device()), dst, dn, dst.device(spec.sink().device()));
    }

    /**
     * {@link #oneWayLatency(TransferSpec, Lane)} with the lane's NICs ({@code sn}, {@code dn}) and the
     * buffers' devices (null where the host has no such device) already found: a running transfer finds
     * the devices once and each lane its NICs once, for its latency and its path ({@link #flowStart}); each
     * was a lookup by name, eight per lane (~2% of a 65,536-receiver fan-out's event loop, perf).
     */
    double oneWayLatency(TransferSpec spec, Host src, TopologyNode sn, TopologyNode srcDevice, Host dst,
            TopologyNode dn, TopologyNode dstDevice) {
        double t = 2 * params.nicLatencySeconds();
        t += cluster.switchHops(src, sn, dst, dn) * cluster.fabric().hopLatencySeconds();
        t += pcieHops(src, srcDevice, sn, spec.acsRedirect()) * params.pcieHopSeconds();
        t += pcieHops(dst, dstDevice, dn, spec.acsRedirect()) * params.pcieHopSeconds();
        if (spec.sourcePath() == DataPath.STAGED) {
            t += params.stagingCopySeconds();
        }
        if (spec.sinkPath() == DataPath.STAGED) {
            t += params.stagingCopySeconds();
        }
        // software emulation: the first fragment is copied out of GPU memory before it is sent and into GPU
        // memory after it arrives, each a synchronous cuda_copy (RmaEmulation)
        t += RmaEmulation.sourceSeconds(spec) + RmaEmulation.sinkSeconds(spec);
        return t;
    }

    /**
     * PCIe switch traversals between a buffer's device and its NIC: one under a shared switch, two
     * through the root complex; with ACS redirecting peer requests, a shared switch sends them up to
     * the root complex and back down (three traversals).
     */
    private static int pcieHops(Host h, TopologyNode d, TopologyNode nic, boolean acs) {
        if (d == null || d.kind() == TopologyNode.Kind.SOCKET) {
            return 1;
        }
        int hops = h.relation(d, nic) == org.rdmasim.hardware.PathType.PIX ? 1 : 2;
        return acs ? Math.max(3, hops) : hops;
    }

    /** The resources one byte of this lane crosses, with how much of each it uses. */
    public List<Resource> lanePath(TransferSpec spec, Lane lane, List<Double> usage) {
        Host src = cluster.host(spec.source().host());
        Host dst = cluster.host(spec.sink().host());
        TopologyNode sn = src.nic(lane.sourceNic());
        TopologyNode dn = dst.nic(lane.sinkNic());
        return lanePath(spec, src, sn, src.device(spec.source().device()), dst, dn, dst.device(spec.sink().device()),
                usage);
    }

    /**
     * {@link #lanePath(TransferSpec, Lane, List)} with the source and sink hosts, the lane's NICs and the
     * buffers' devices (null where the host has none of that name) already found.
     */
    private List<Resource> lanePath(TransferSpec spec, Host src, TopologyNode sn, TopologyNode srcDevice, Host dst,
            TopologyNode dn, TopologyNode dstDevice, List<Double> usage) {
        // Room for a lane of a multi-switch host on a leaf-spine fabric (~12-16 resources) without regrowing.
        List<Resource> path = new ArrayList<>(LANE_PATH_ROOM);
        appendLanePath(spec, src, sn, srcDevice, dst, dn, dstDevice, path, usage);
        return path;
    }

    /** Appends the lane's path to {@code path} and its usages to {@code usage}, in path order. */
    private void appendLanePath(TransferSpec spec, Host src, TopologyNode sn, TopologyNode srcDevice, Host dst,
            TopologyNode dn, TopologyNode dstDevice, List<Resource> path, List<Double> usage) {
        // Each piece is appended straight to the path (the cluster's lists per piece, an Optional and a
        // lambda per device looked up were ~a third of a lane start's garbage), in the order the pieces
        // were always asked for: resources are built on first use, and that order numbers them.
        bufferToNic(src, deviceNode(src, srcDevice, spec.source().device()), spec.sourcePath(), sn, spec.acsRedirect(),
                path, usage);
        int at = path.size();
        cluster.addAcross(src, sn, dst, dn, path);
        once(usage, path.size() - at);
        if (spec.operation() == Operation.READ && !RmaEmulation.applies(spec)) {
            // the READ initiator is the sink; its NIC's calibrated READ rate, if its profile has one, or the
            // responding source NIC's where that profile places the rate on the answering end
            // (an emulated GET is no RDMA READ: the target sends its reply as active messages)
            Resource read = cluster.nicReadCalibratedAtResponder(dn) ? null : cluster.nicReadCalibrated(dn);
            if (read != null) {
                path.add(read);
                usage.add(ONCE);
            }
            Resource answered = cluster.nicReadCalibratedAtResponder(sn) ? cluster.nicReadCalibrated(sn) : null;
            if (answered != null) {
                path.add(answered);
                usage.add(ONCE);
            }
        }
        nicToBuffer(dst, dn, deviceNode(dst, dstDevice, spec.sink().device()), spec.sink().device(), spec.sinkPath(),
                spec.acsRedirect(), path, usage);
    }

    private void bufferToNic(Host h, TopologyNode d, DataPath mode, TopologyNode nic, boolean acs,
            List<Resource> path, List<Double> usage) {
        int at = path.size();
        if (d.kind() == TopologyNode.Kind.SOCKET || mode == DataPath.HOST_MEMORY) {
            int socket = d.socket();
            path.add(cluster.hostMemory(h, socket));
            cluster.addFromSocket(h, socket, nic, path);
        } else if (mode.bouncesThroughHost()) {
            // Bounce buffer on the NIC's NUMA node: GPU -> host memory (write), host memory -> NIC (read);
            // for the emulation the bounce buffer is the AM lane's registered send buffer.
            int socket = nic.socket();
            cluster.addToSocket(h, d, socket, path);
            once(usage, path.size() - at);
            path.add(cluster.hostMemory(h, socket));
            usage.add(TWICE);
            at = path.size();
            cluster.addFromSocket(h, socket, nic, path);
        } else {
            cluster.addWithin(h, d, nic, acs, path);
        }
        once(usage, path.size() - at);
    }

    private void nicToBuffer(Host h, TopologyNode nic, TopologyNode d, String device, DataPath mode, boolean acs,
            List<Resource> path, List<Double> usage) {
        int at = path.size();
        if (d.kind() == TopologyNode.Kind.SOCKET || mode == DataPath.HOST_MEMORY) {
            int socket = d.socket();
            cluster.addToSocket(h, nic, socket, path);
            path.add(cluster.hostMemory(h, socket));
            once(usage, path.size() - at);
        } else if (mode.bouncesThroughHost()) {
            int socket = nic.socket();
            cluster.addToSocket(h, nic, socket, path);
            once(usage, path.size() - at);
            path.add(cluster.hostMemory(h, socket));
            usage.add(TWICE);
            at = path.size();
            cluster.addFromSocket(h, socket, d, path);
            once(usage, path.size() - at);
        } else {
            cluster.addWithin(h, nic, d, acs, path);
            once(usage, path.size() - at);
            // GPU memory written in strict order, where the host's profile says that route is slower
            Resource strict = d.kind() == TopologyNode.Kind.GPU ? cluster.strictOrderGpuWrites(nic) : null;
            if (strict != null && ordering.strict(h.name(), device, nic.name())) {
                path.add(strict);
                usage.add(ONCE);
            }
        }
    }

    /** {@code d}, the device named {@code device} on {@code h} as found before, which must exist. */
    private static TopologyNode deviceNode(Host h, TopologyNode d, String device) {
        if (d == null) {
            throw new IllegalArgumentException("host " + h.name() + " has no device named " + device);
        }
        return d;
    }

    /**
     * The flow that carries a lane's {@code bytes} now, over {@link #lanePath}, capped at {@link #laneCap}
     * (worked out after the path: a cap may build the source NIC, and resources are numbered in the
     * order they are built). Its
     * usages are left out (read as 1 everywhere, {@link FlowStart}) when the lane crosses every resource
     * once, as all but a staged lane's host memory do: a lane start then keeps no list of ones.
     */
    FlowStart flowStart(TransferSpec spec, Lane lane, Host src, TopologyNode sn, TopologyNode srcDevice, Host dst,
            TopologyNode dn, TopologyNode dstDevice, double oneWay, double ownCap, Supplier<String> label, long bytes,
            FlowListener listener) {
        usageScratch.clear();
        pathScratch.clear();
        appendLanePath(spec, src, sn, srcDevice, dst, dn, dstDevice, pathScratch, usageScratch);
        // Kept as an array of the path's own length: a list with room for the longest path was two objects
        // and ~100 bytes per lane start (~6% of a 65,536-receiver fan-out's garbage in its event loop, JFR).
        Resource[] laneResources = new Resource[pathScratch.size()];
        for (int i = 0; i < laneResources.length; i++) {
            laneResources[i] = pathScratch.get(i);
        }
        List<Resource> path = Arrays.asList(laneResources);
        double cap = Math.min(laneCap(spec, lane, oneWay), ownCap);
        List<Double> usage = null;
        for (int i = 0; i < usageScratch.size(); i++) {
            if (usageScratch.get(i).doubleValue() != 1.0) {
                usage = new ArrayList<>(usageScratch);
                break;
            }
        }
        return new FlowStart(label, path, usage, 1.0, cap, bytes, listener);
    }

    /** Appends usage 1 for the {@code count} resources just appended to the path. */
    private static void once(List<Double> usage, int count) {
        for (int i = 0; i < count; i++) {
            usage.add(ONCE);
        }
    }

    /**
     * Rate limit of one lane by itself, bytes per second, for messages of {@code bytes / descriptors}:
     * <ul>
     *   <li>posting: one descriptor per {@code perDescriptorSeconds} from the initiating thread;</li>
     *   <li>one QP's work-request cost on the NIC: one work request per {@code perFragmentSeconds};</li>
     *   <li>the NIC's message rate over all its QPs ({@code nicMessageRate}); a lane is charged it alone,
     *       so lanes sharing a NIC are bounded, not divided (it binds only for messages of a few hundred
     *       bytes);</li>
     *   <li>WRITE only: at most {@code sendQueueDepth} work requests in flight per QP per round trip, the
     *       round trip being the data's one-way latency and the ACK's way back;</li>
     *   <li>READ only: the calibrated READ rate of one QP where the initiator's profile has one, and at
     *       most {@code maxOutstandingReads} READs in flight per QP per round trip (max_qp_rd_atom). UCX's per-path READ figures (ib_iface.c 38e9/35e9) only rank lanes and
     *       never cap one; a platform's measured READ rate is a calibrated resource on the lane's path
     *       ({@link Cluster#nicReadCalibrated}), not a cap here;</li>
     *   <li>UCX's software RMA emulation, for GPU memory no NIC registered: one fragment per the slower
     *       side's synchronous cuda_copy ({@link RmaEmulation}); an emulated GET has no READ limits;</li>
     *   <li>IOMMU translation when not in passthrough, as a share of the wire rate.</li>
     * </ul>
     */
    public double laneCap(TransferSpec spec, Lane lane) {
        return laneCap(spec, lane, oneWayLatency(spec, lane));
    }

    /** {@link #laneCap(TransferSpec, Lane)} of a lane whose {@link #oneWayLatency} is {@code oneWay}. */
    double laneCap(TransferSpec spec, Lane lane, double oneWay) {
        double cap = Double.POSITIVE_INFINITY;
        if (lane.bytes() == 0) {
            return cap;
        }
        double message = (double) lane.bytes() / spec.descriptors();
        if (params.perDescriptorSeconds() > 0) {
            cap = Math.min(cap, message / params.perDescriptorSeconds());
        }
        if (params.perFragmentSeconds() > 0) {
            cap = Math.min(cap, message / params.perFragmentSeconds());
        }
        cap = Math.min(cap, message * params.nicMessageRate());
        double rtt = 2 * oneWay;
        if (RmaEmulation.applies(spec)) {
            // UCX's software RMA: active messages copied through host memory on both sides, one at a time
            cap = Math.min(cap, RmaEmulation.laneRate(spec));
        } else if (spec.operation() == Operation.READ) {
            cap = Math.min(cap, qpReadRate(spec));
            cap = Math.min(cap, params.maxOutstandingReads() * message / rtt);
        } else if (rtt > 0) {
            cap = Math.min(cap, params.sendQueueDepth() * message / rtt);
        }
        if (spec.iommuPenalty() > 0) {
            Host src = cluster.host(spec.source().host());
            double wire = cluster.nicTx(src.nic(lane.sourceNic())).capacity();
            cap = Math.min(cap, wire * (1 - spec.iommuPenalty()));
        }
        return cap;
    }

    /** The READ initiator's calibrated per-QP READ rate, bytes per second, or infinity. */
    private double qpReadRate(TransferSpec spec) {
        return qpReadRates.computeIfAbsent(cluster.host(spec.sink().host()).profile(), profile -> profile.qpReadRate()
                .map(CalibrationProfile.Parameter::bytesPerSecond).orElse(Double.POSITIVE_INFINITY));
    }

    /** Which of the limits of {@link #laneCap} held a lane back, for reports. */
    Bottleneck capName(TransferSpec spec, Lane lane) {
        double cap = laneCap(spec, lane);
        double message = (double) lane.bytes() / spec.descriptors();
        double tol = 1 + 1e-9;
        if (RmaEmulation.applies(spec) && RmaEmulation.laneRate(spec) <= cap * tol) {
            boolean sinkSlower = RmaEmulation.sinkSeconds(spec) >= RmaEmulation.sourceSeconds(spec);
            return new Bottleneck.RmaEmulation(sinkSlower ? spec.sink().toString() : spec.source().toString(),
                    RmaEmulation.protocol(spec.operation()), sinkSlower ? "host-to-device" : "device-to-host",
                    RmaEmulation.fragmentBytes(spec.operation()));
        }
        if (spec.operation() == Operation.READ && !RmaEmulation.applies(spec)) {
            if (qpReadRate(spec) <= cap * tol) {
                return new Bottleneck.QpReadRate(spec.sink().host(), lane.sinkNic(),
                        cluster.host(spec.sink().host()).profile().name());
            }
            if (params.maxOutstandingReads() * message / (2 * oneWayLatency(spec, lane)) <= cap * tol) {
                return new Bottleneck.OutstandingReads(spec.sink().host(), lane.sinkNic());
            }
        }
        if (params.perDescriptorSeconds() > 0 && message / params.perDescriptorSeconds() <= cap * tol) {
            return new Bottleneck.PostingRate(spec.initiator().toString());
        }
        if (params.perFragmentSeconds() > 0 && message / params.perFragmentSeconds() <= cap * tol) {
            return Bottleneck.Plain.MESSAGE_RATE;
        }
        if (message * params.nicMessageRate() <= cap * tol) {
            return Bottleneck.Plain.NIC_MESSAGE_RATE;
        }
        if (spec.operation() != Operation.READ
                && params.sendQueueDepth() * message / (2 * oneWayLatency(spec, lane)) <= cap * tol) {
            return new Bottleneck.SendQueue(spec.source().host(), lane.sourceNic());
        }
        return Bottleneck.Plain.IOMMU;
    }
}
