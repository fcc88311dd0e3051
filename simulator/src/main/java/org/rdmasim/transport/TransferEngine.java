package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rdmasim.fluid.Flow;
import org.rdmasim.fluid.FlowListener;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.TopologyNode;

/**
 * Runs transfers on a cluster: each lane becomes one fluid flow over the physical resources of its
 * path (source buffer to source NIC, the fabric, sink NIC to sink buffer), started after the
 * protocol's fixed costs; the transfer completes when its last lane has delivered and the completion
 * has travelled back to the initiator.
 */
public final class TransferEngine {
    private final Cluster cluster;
    private final ProtocolParameters params;

    public TransferEngine(Cluster cluster, ProtocolParameters params) {
        this.cluster = cluster;
        this.params = params;
    }

    public Cluster cluster() {
        return cluster;
    }

    public ProtocolParameters parameters() {
        return params;
    }

    /** Posts {@code spec} now over {@code lanes}; {@code done} receives the result when it completes. */
    public void post(TransferSpec spec, List<Lane> lanes, Consumer<TransferResult> done) {
        long sum = 0;
        for (Lane l : lanes) {
            sum += l.bytes();
        }
        if (sum != spec.bytes()) {
            throw new IllegalArgumentException("lanes of " + spec.id() + " carry " + sum + " bytes, transfer has " + spec.bytes());
        }
        new Running(spec, lanes, done).start();
    }

    /** One-way latency from the source buffer to the sink buffer over one lane, seconds. */
    public double oneWayLatency(TransferSpec spec, Lane lane) {
        Host src = cluster.host(spec.source().host());
        Host dst = cluster.host(spec.sink().host());
        TopologyNode sn = src.nic(lane.sourceNic());
        TopologyNode dn = dst.nic(lane.sinkNic());
        double t = 2 * params.nicLatencySeconds();
        t += cluster.switchHops(src, sn, dst, dn) * cluster.fabric().hopLatencySeconds();
        t += pcieHops(src, spec.source().device(), sn) * params.pcieHopSeconds();
        t += pcieHops(dst, spec.sink().device(), dn) * params.pcieHopSeconds();
        if (spec.sourcePath() == DataPath.STAGED) {
            t += params.stagingCopySeconds();
        }
        if (spec.sinkPath() == DataPath.STAGED) {
            t += params.stagingCopySeconds();
        }
        return t;
    }

    private static int pcieHops(Host h, String device, TopologyNode nic) {
        TopologyNode d = h.find(device).orElse(null);
        if (d == null || d.kind() == TopologyNode.Kind.SOCKET) {
            return 1;
        }
        return h.relation(d, nic) == org.rdmasim.hardware.PathType.PIX ? 1 : 2;
    }

    /** The resources one byte of this lane crosses, with how much of each it uses. */
    public List<Resource> lanePath(TransferSpec spec, Lane lane, List<Double> usage) {
        Host src = cluster.host(spec.source().host());
        Host dst = cluster.host(spec.sink().host());
        TopologyNode sn = src.nic(lane.sourceNic());
        TopologyNode dn = dst.nic(lane.sinkNic());
        List<Resource> path = new ArrayList<>();
        bufferToNic(src, spec.source().device(), spec.sourcePath(), sn, spec.acsRedirect(), path, usage);
        for (Resource r : cluster.across(src, sn, dst, dn)) {
            path.add(r);
            usage.add(1.0);
        }
        nicToBuffer(dst, dn, spec.sink().device(), spec.sinkPath(), spec.acsRedirect(), path, usage);
        return path;
    }

    private void bufferToNic(Host h, String device, DataPath mode, TopologyNode nic, boolean acs,
            List<Resource> path, List<Double> usage) {
        TopologyNode d = deviceNode(h, device);
        if (d.kind() == TopologyNode.Kind.SOCKET || mode == DataPath.HOST_MEMORY) {
            int socket = d.socket();
            add(path, usage, List.of(cluster.hostMemory(h, socket)), 1.0);
            add(path, usage, cluster.fromSocket(h, socket, nic), 1.0);
        } else if (mode == DataPath.STAGED) {
            // Bounce buffer on the NIC's NUMA node: GPU -> host memory (write), host memory -> NIC (read).
            int socket = nic.socket();
            add(path, usage, cluster.toSocket(h, d, socket), 1.0);
            add(path, usage, List.of(cluster.hostMemory(h, socket)), 2.0);
            add(path, usage, cluster.fromSocket(h, socket, nic), 1.0);
        } else {
            add(path, usage, cluster.within(h, d, nic, acs), 1.0);
        }
    }

    private void nicToBuffer(Host h, TopologyNode nic, String device, DataPath mode, boolean acs,
            List<Resource> path, List<Double> usage) {
        TopologyNode d = deviceNode(h, device);
        if (d.kind() == TopologyNode.Kind.SOCKET || mode == DataPath.HOST_MEMORY) {
            int socket = d.socket();
            add(path, usage, cluster.toSocket(h, nic, socket), 1.0);
            add(path, usage, List.of(cluster.hostMemory(h, socket)), 1.0);
        } else if (mode == DataPath.STAGED) {
            int socket = nic.socket();
            add(path, usage, cluster.toSocket(h, nic, socket), 1.0);
            add(path, usage, List.of(cluster.hostMemory(h, socket)), 2.0);
            add(path, usage, cluster.fromSocket(h, socket, d), 1.0);
        } else {
            add(path, usage, cluster.within(h, nic, d, acs), 1.0);
        }
    }

    private static TopologyNode deviceNode(Host h, String device) {
        return h.find(device).orElseThrow(() -> new IllegalArgumentException(
                "host " + h.name() + " has no device named " + device));
    }

    private static void add(List<Resource> path, List<Double> usage, List<Resource> rs, double u) {
        for (Resource r : rs) {
            path.add(r);
            usage.add(u);
        }
    }

    /**
     * Rate limit of one lane by itself, bytes per second: for a READ, the initiator NIC's READ
     * throughput per QP, and the bound from outstanding READs (max_qp_rd_atom requests of one fragment
     * each per round trip); slowed by IOMMU translation when not in passthrough; infinite otherwise.
     */
    public double laneCap(TransferSpec spec, Lane lane) {
        double cap = Double.POSITIVE_INFINITY;
        if (spec.operation() == Operation.READ && lane.bytes() > 0) {
            Host initiator = cluster.host(spec.sink().host());
            NicModel model = initiator.nic(lane.sinkNic()).nic().model();
            cap = model.readBytesPerSecondPerPath();
            double perDescriptor = (double) lane.bytes() / spec.descriptors();
            double rtt = 2 * oneWayLatency(spec, lane);
            cap = Math.min(cap, params.maxOutstandingReads() * perDescriptor / rtt);
        }
        if (spec.iommuPenalty() > 0) {
            // Translation misses slow every side; modelled as a cap at the path's share of line rate.
            Host src = cluster.host(spec.source().host());
            double wire = cluster.nicTx(src.nic(lane.sourceNic())).capacity();
            cap = Math.min(cap, wire * (1 - spec.iommuPenalty()));
        }
        return cap;
    }

    /** Names a lane's own cap for reports: which per-QP READ limit (or the IOMMU) held it back. */
    String capName(TransferSpec spec, Lane lane) {
        if (spec.operation() == Operation.READ) {
            Host initiator = cluster.host(spec.sink().host());
            NicModel model = initiator.nic(lane.sinkNic()).nic().model();
            double perPath = model.readBytesPerSecondPerPath();
            double cap = laneCap(spec, lane);
            if (cap >= perPath * (1 - 1e-9)) {
                return spec.sink().host() + ":" + lane.sinkNic() + " READ rate of one QP (" + model.product() + ")";
            }
            if (spec.iommuPenalty() == 0) {
                return spec.sink().host() + ":" + lane.sinkNic() + " outstanding READs per QP";
            }
        }
        return "IOMMU translation (not passthrough)";
    }

    private final class Running {
        private final TransferSpec spec;
        private final List<Lane> lanes;
        private final Consumer<TransferResult> done;
        private final double postedAt;
        private final LaneResult[] results;
        private int pending;
        private double maxOneWay;

        Running(TransferSpec spec, List<Lane> lanes, Consumer<TransferResult> done) {
            this.spec = spec;
            this.lanes = lanes;
            this.done = done;
            this.postedAt = cluster.network().clock().now();
            this.results = new LaneResult[lanes.size()];
        }

        void start() {
            pending = lanes.size();
            double posting = spec.descriptors() * params.perDescriptorSeconds();
            for (int i = 0; i < lanes.size(); i++) {
                Lane lane = lanes.get(i);
                int index = i;
                double oneWay = oneWayLatency(spec, lane);
                maxOneWay = Math.max(maxOneWay, oneWay);
                // A READ's data starts after its request has crossed to the source; a WRITE's at once.
                double requestDelay = spec.operation() == Operation.READ ? oneWay : 0.0;
                long fragments = Math.max(1, spec.descriptors());
                double delay = posting + requestDelay + fragments * params.perFragmentSeconds();
                cluster.network().clock().schedule(delay, () -> startLane(index, lane));
            }
        }

        private void startLane(int index, Lane lane) {
            double started = cluster.network().clock().now();
            List<Double> usage = new ArrayList<>();
            List<Resource> path = lanePath(spec, lane, usage);
            double cap = laneCap(spec, lane);
            String label = spec.id() + " " + lane.sourceNic() + "->" + lane.sinkNic();
            cluster.network().start(label, path, usage, 1.0, cap, lane.bytes(), f -> laneDone(index, lane, started, f));
        }

        private void laneDone(int index, Lane lane, double started, Flow f) {
            double finish = f.finishTime();
            String limiter = f.bytes() == 0 ? "none" : f.dominantLimiter();
            if (FlowListener.OWN_CAP.equals(limiter)) {
                limiter = capName(spec, lane);
            }
            results[index] = new LaneResult(lane.sourceNic(), lane.sinkNic(), lane.bytes(), started, finish, limiter);
            if (--pending == 0) {
                LaneResult last = results[0];
                for (LaneResult r : results) {
                    if (r.finishSeconds() > last.finishSeconds()) {
                        last = r;
                    }
                }
                // Data is in place one way-latency after it left; the initiator learns of it then (READ)
                // or after the completion travels back (WRITE).
                double tail = maxOneWay;
                String bottleneck = last.limiter();
                cluster.network().clock().schedule(tail, () -> done.accept(new TransferResult(spec, postedAt,
                        cluster.network().clock().now(), List.of(results), bottleneck)));
            }
        }
    }
}
