package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.Flow;
import org.rdmasim.fluid.FlowListener;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
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
    private final QpRetry qpRetry;
    /**
     * Null until ports are watched: a run without faults keeps no per-lane bookkeeping. Insertion-ordered
     * sets: a port going down stalls its lanes in the order they started, so runs are reproducible.
     */
    private Map<TopologyNode, Set<LaneRun>> lanesByPort;
    private final Set<TopologyNode> downPorts = new HashSet<>();

    public TransferEngine(Cluster cluster, ProtocolParameters params) {
        this(cluster, params, QpRetry.UCX_DEFAULT);
    }

    public TransferEngine(Cluster cluster, ProtocolParameters params, QpRetry qpRetry) {
        this.cluster = cluster;
        this.params = params;
        this.qpRetry = qpRetry;
    }

    public QpRetry qpRetry() {
        return qpRetry;
    }

    /** Keeps track of which lanes use which NIC port, so ports can go down and up ({@link #portDown}). */
    public void watchPorts() {
        if (lanesByPort == null) {
            lanesByPort = new HashMap<>();
        }
    }

    /**
     * A NIC port stops passing traffic now. Every lane through it stalls where it is: its QP keeps
     * retransmitting on its ACK timer and, unless the port answers again in time, fails after
     * {@link QpRetry#errorAfterSeconds()}, which fails the whole transfer (UCX does not move a posted
     * operation to another lane; with NIXL's UCP_ERR_HANDLING_MODE_PEER the endpoint fails, see
     * {@link QpRetry}).
     */
    public void portDown(Host host, TopologyNode nic) {
        requireWatched();
        if (!downPorts.add(nic)) {
            return;
        }
        for (LaneRun lr : List.copyOf(lanesByPort.getOrDefault(nic, Set.of()))) {
            lr.stall();
        }
    }

    /** A port that was down passes traffic again: stalled lanes resume at their QP's next retransmission. */
    public void portUp(Host host, TopologyNode nic) {
        requireWatched();
        if (!downPorts.remove(nic)) {
            return;
        }
        for (LaneRun lr : List.copyOf(lanesByPort.getOrDefault(nic, Set.of()))) {
            lr.portAnswers();
        }
    }

    public boolean isDown(TopologyNode nic) {
        return downPorts.contains(nic);
    }

    private void requireWatched() {
        if (lanesByPort == null) {
            throw new IllegalStateException("ports are not watched: call watchPorts() before the run");
        }
    }

    public Cluster cluster() {
        return cluster;
    }

    public ProtocolParameters parameters() {
        return params;
    }

    /**
     * Posts {@code spec} now over {@code lanes}; {@code done} receives the result when it completes or
     * fails. The handle can fail it from outside (an application's timeout).
     */
    public Posted post(TransferSpec spec, List<Lane> lanes, Consumer<TransferResult> done) {
        long sum = 0;
        for (Lane l : lanes) {
            sum += l.bytes();
        }
        if (sum != spec.bytes()) {
            throw new IllegalArgumentException("lanes of " + spec.id() + " carry " + sum + " bytes, transfer has " + spec.bytes());
        }
        Running r = new Running(spec, lanes, done);
        r.start();
        return r;
    }

    /** A posted transfer, as its initiator holds it. */
    public interface Posted {
        /** Fails the transfer now with {@code reason} unless it has already ended. */
        void fail(String reason);
    }

    /** Fails a transfer now: what the initiator sees when it gives up (the reason is its own). */
    public static String failureText(String nixlStatus, String cause) {
        return nixlStatus + ": " + cause;
    }

    /** One-way latency from the source buffer to the sink buffer over one lane, seconds. */
    public double oneWayLatency(TransferSpec spec, Lane lane) {
        Host src = cluster.host(spec.source().host());
        Host dst = cluster.host(spec.sink().host());
        TopologyNode sn = src.nic(lane.sourceNic());
        TopologyNode dn = dst.nic(lane.sinkNic());
        double t = 2 * params.nicLatencySeconds();
        t += cluster.switchHops(src, sn, dst, dn) * cluster.fabric().hopLatencySeconds();
        t += pcieHops(src, spec.source().device(), sn, spec.acsRedirect()) * params.pcieHopSeconds();
        t += pcieHops(dst, spec.sink().device(), dn, spec.acsRedirect()) * params.pcieHopSeconds();
        if (spec.sourcePath() == DataPath.STAGED) {
            t += params.stagingCopySeconds();
        }
        if (spec.sinkPath() == DataPath.STAGED) {
            t += params.stagingCopySeconds();
        }
        return t;
    }

    /**
     * PCIe switch traversals between a buffer's device and its NIC: one under a shared switch, two
     * through the root complex; with ACS redirecting peer requests, a shared switch sends them up to
     * the root complex and back down (three traversals).
     */
    private static int pcieHops(Host h, String device, TopologyNode nic, boolean acs) {
        TopologyNode d = h.find(device).orElse(null);
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
        List<Resource> path = new ArrayList<>();
        bufferToNic(src, spec.source().device(), spec.sourcePath(), sn, spec.acsRedirect(), path, usage);
        for (Resource r : cluster.across(src, sn, dst, dn)) {
            path.add(r);
            usage.add(1.0);
        }
        if (spec.operation() == Operation.READ) {
            // the READ initiator is the sink; its NIC's calibrated READ rate, if its profile has one
            Resource read = cluster.nicReadCalibrated(dn);
            if (read != null) {
                path.add(read);
                usage.add(1.0);
            }
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
     * Rate limit of one lane by itself, bytes per second, for messages of {@code bytes / descriptors}:
     * <ul>
     *   <li>posting: one descriptor per {@code perDescriptorSeconds} from the initiating thread;</li>
     *   <li>the NIC's message rate: one work request per {@code perFragmentSeconds};</li>
     *   <li>READ only: the calibrated READ rate of one QP where the initiator's profile has one, and at
     *       most {@code maxOutstandingReads} READs in flight per QP per round trip (max_qp_rd_atom). UCX's per-path READ figures (ib_iface.c 38e9/35e9) only rank lanes and
     *       never cap one; a platform's measured READ rate is a calibrated resource on the lane's path
     *       ({@link Cluster#nicReadCalibrated}), not a cap here;</li>
     *   <li>IOMMU translation when not in passthrough, as a share of the wire rate.</li>
     * </ul>
     */
    public double laneCap(TransferSpec spec, Lane lane) {
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
        if (spec.operation() == Operation.READ) {
            cap = Math.min(cap, qpReadRate(spec));
            double rtt = 2 * oneWayLatency(spec, lane);
            cap = Math.min(cap, params.maxOutstandingReads() * message / rtt);
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
        return cluster.host(spec.sink().host()).profile().qpReadRate()
                .map(p -> org.rdmasim.hardware.Units.gbpsToBytesPerSecond(p.value())).orElse(Double.POSITIVE_INFINITY);
    }

    /** Names a lane's own cap for reports: which of the limits of {@link #laneCap} held it back. */
    String capName(TransferSpec spec, Lane lane) {
        double cap = laneCap(spec, lane);
        double message = (double) lane.bytes() / spec.descriptors();
        double tol = 1 + 1e-9;
        if (spec.operation() == Operation.READ) {
            if (qpReadRate(spec) <= cap * tol) {
                var profile = cluster.host(spec.sink().host()).profile();
                // "assumed in" when the profile assumes the rate rather than fitting it to a measurement
                boolean assumed = profile.qpReadRate().map(p -> p.kind() == org.rdmasim.hardware.CalibrationProfile.Kind.ASSUMED)
                        .orElse(false);
                return spec.sink().host() + ":" + lane.sinkNic() + " READ rate of one QP, "
                        + (assumed ? "assumed in " : "calibrated to ") + profile.name();
            }
            if (params.maxOutstandingReads() * message / (2 * oneWayLatency(spec, lane)) <= cap * tol) {
                return spec.sink().host() + ":" + lane.sinkNic() + " outstanding READs per QP";
            }
        }
        if (params.perDescriptorSeconds() > 0 && message / params.perDescriptorSeconds() <= cap * tol) {
            return "descriptor posting rate (" + spec.initiator() + ")";
        }
        if (params.perFragmentSeconds() > 0 && message / params.perFragmentSeconds() <= cap * tol) {
            return "NIC message rate";
        }
        return "IOMMU translation (not passthrough)";
    }

    private final class Running implements Posted {
        private final TransferSpec spec;
        private final List<Lane> lanes;
        private final Consumer<TransferResult> done;
        private final double postedAt;
        private final LaneResult[] results;
        private final LaneRun[] runs;
        private int pending;
        private double maxOneWay;
        private boolean ended;
        private int stalled;
        private SimulationClock.ScheduledAction qpError;
        private String stalledOn;

        Running(TransferSpec spec, List<Lane> lanes, Consumer<TransferResult> done) {
            this.spec = spec;
            this.lanes = lanes;
            this.done = done;
            this.postedAt = cluster.network().clock().now();
            this.results = new LaneResult[lanes.size()];
            this.runs = new LaneRun[lanes.size()];
        }

        void start() {
            pending = lanes.size();
            // Descriptors are posted while earlier ones move; only the first one's cost delays data.
            double posting = params.perDescriptorSeconds();
            for (int i = 0; i < lanes.size(); i++) {
                Lane lane = lanes.get(i);
                double oneWay = oneWayLatency(spec, lane);
                maxOneWay = Math.max(maxOneWay, oneWay);
                // A READ's data starts after its request has crossed to the source; a WRITE's at once.
                double requestDelay = spec.operation() == Operation.READ ? oneWay : 0.0;
                double delay = posting + requestDelay + params.perFragmentSeconds();
                runs[i] = new LaneRun(this, i, lane);
                cluster.network().clock().schedule(delay, new LaneStart(runs[i]));
            }
        }

        private void laneDone(LaneRun run, Flow f) {
            if (ended) {
                return;
            }
            run.unwatch();
            Lane lane = run.lane;
            double finish = f.finishTime();
            String limiter = f.bytes() == 0 ? "none" : f.dominantLimiter();
            if (FlowListener.OWN_CAP.equals(limiter)) {
                limiter = capName(spec, lane);
            }
            results[run.index] = new LaneResult(lane.sourceNic(), lane.sinkNic(), lane.bytes(), run.started, finish,
                    limiter, lane.path());
            if (--pending == 0) {
                ended = true;
                cancelQpError();
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
                cluster.network().clock().schedule(tail, new TransferNotice(this, bottleneck));
            }
        }

        void notifyDone(String bottleneck) {
            done.accept(new TransferResult(spec, postedAt, cluster.network().clock().now(), List.of(results), bottleneck));
        }

        void laneStalled(LaneRun run) {
            if (stalled++ == 0 && qpError == null) {
                stalledOn = run.stalledPort;
                qpError = cluster.network().clock().schedule(qpRetry.errorAfterSeconds(), new QpError(this));
            }
        }

        void laneResumed() {
            if (--stalled == 0) {
                cancelQpError();
            }
        }

        private void cancelQpError() {
            if (qpError != null) {
                qpError.cancel();
                qpError = null;
            }
        }

        void qpFailed() {
            qpError = null;
            fail(failureText("NIXL_ERR_REMOTE_DISCONNECT", "UCS_ERR_ENDPOINT_TIMEOUT, QP retries exhausted on "
                    + stalledOn + " (" + (qpRetry.retryCount() + 1) + " x " + org.rdmasim.hardware.Units.number(qpRetry.tickSeconds()) + " s"
                    + " ACK timeouts)"));
        }

        @Override
        public void fail(String reason) {
            if (ended) {
                return;
            }
            ended = true;
            cancelQpError();
            double now = cluster.network().clock().now();
            for (LaneRun run : runs) {
                if (results[run.index] != null) {
                    continue;
                }
                long delivered = run.stop();
                Lane lane = run.lane;
                results[run.index] = new LaneResult(lane.sourceNic(), lane.sinkNic(), delivered,
                        Double.isNaN(run.started) ? now : run.started, now, "failed", lane.path());
            }
            done.accept(new TransferResult(spec, postedAt, now, List.of(results), "failed: " + reason, reason));
        }
    }

    /**
     * One lane of a running transfer: its QP, its current flow, and, while a port on its path is down,
     * the bytes it still has to move.
     */
    private final class LaneRun {
        private final Running transfer;
        private final int index;
        private final Lane lane;
        private double started = Double.NaN;
        private Flow flow;
        /** Bytes still to move; whole lane until it starts, then updated when its flow is stopped. */
        private double remaining;
        private double stalledAt = Double.NaN;
        private String stalledPort;
        private SimulationClock.ScheduledAction resume;
        private TopologyNode sourcePort;
        private TopologyNode sinkPort;

        LaneRun(Running transfer, int index, Lane lane) {
            this.transfer = transfer;
            this.index = index;
            this.lane = lane;
            this.remaining = lane.bytes();
        }

        void start() {
            if (transfer.ended) {
                return;
            }
            started = cluster.network().clock().now();
            if (lanesByPort != null) {
                sourcePort = cluster.host(transfer.spec.source().host()).nic(lane.sourceNic());
                sinkPort = cluster.host(transfer.spec.sink().host()).nic(lane.sinkNic());
                lanesByPort.computeIfAbsent(sourcePort, k -> new LinkedHashSet<>()).add(this);
                lanesByPort.computeIfAbsent(sinkPort, k -> new LinkedHashSet<>()).add(this);
                if (downPorts.contains(sourcePort) || downPorts.contains(sinkPort)) {
                    stall();
                    return;
                }
            }
            startFlow();
        }

        private void startFlow() {
            List<Double> usage = new ArrayList<>();
            List<Resource> path = lanePath(transfer.spec, lane, usage);
            double cap = laneCap(transfer.spec, lane);
            String label = transfer.spec.id() + " " + lane.label();
            flow = cluster.network().start(label, path, usage, 1.0, cap, Math.round(remaining),
                    f -> transfer.laneDone(this, f));
        }

        /** A port on the path went down: the flow stops where it is and the QP starts retrying. */
        void stall() {
            if (!Double.isNaN(stalledAt) || transfer.ended) {
                return;
            }
            if (flow != null) {
                if (flow.isFinished()) {
                    return;
                }
                remaining = cluster.network().abort(flow);
                flow = null;
            }
            if (resume != null) {
                resume.cancel();
                resume = null;
            }
            stalledAt = cluster.network().clock().now();
            stalledPort = downPorts.contains(sinkPort) ? transfer.spec.sink().host() + ":" + lane.sinkNic()
                    : transfer.spec.source().host() + ":" + lane.sourceNic();
            transfer.laneStalled(this);
        }

        /** A port came back: resume at the next retransmission if both ends are up and retries remain. */
        void portAnswers() {
            if (Double.isNaN(stalledAt) || transfer.ended || resume != null || downPorts.contains(sourcePort)
                    || downPorts.contains(sinkPort)) {
                return;
            }
            double now = cluster.network().clock().now();
            double at = qpRetry.resumesAt(stalledAt, now);
            if (!Double.isNaN(at)) {
                resume = cluster.network().clock().scheduleAt(at, new LaneResume(this));
            }
        }

        void resumeNow() {
            resume = null;
            if (transfer.ended || Double.isNaN(stalledAt)) {
                return;
            }
            if (downPorts.contains(sourcePort) || downPorts.contains(sinkPort)) {
                return;
            }
            stalledAt = Double.NaN;
            startFlow();
            transfer.laneResumed();
        }

        /** Stops the lane for good; returns the bytes it delivered. */
        long stop() {
            if (resume != null) {
                resume.cancel();
                resume = null;
            }
            if (flow != null && !flow.isFinished()) {
                remaining = cluster.network().abort(flow);
            }
            flow = null;
            unwatch();
            return Math.max(0, lane.bytes() - Math.round(remaining));
        }

        void unwatch() {
            if (lanesByPort != null && sourcePort != null) {
                Set<LaneRun> a = lanesByPort.get(sourcePort);
                if (a != null) {
                    a.remove(this);
                }
                Set<LaneRun> b = lanesByPort.get(sinkPort);
                if (b != null) {
                    b.remove(this);
                }
            }
        }
    }

    /** A lane's first fragment is on the wire: its flow starts. */
    private static final class LaneStart implements Runnable {
        private final LaneRun lane;

        LaneStart(LaneRun lane) {
            this.lane = lane;
        }

        @Override
        public void run() {
            lane.start();
        }
    }

    /** A stalled lane's QP retransmits after its port answered again: the lane moves data again. */
    private static final class LaneResume implements Runnable {
        private final LaneRun lane;

        LaneResume(LaneRun lane) {
            this.lane = lane;
        }

        @Override
        public void run() {
            lane.resumeNow();
        }
    }

    /** A stalled lane's QP has spent its retries: the endpoint fails and with it the transfer. */
    public static final class QpError implements Runnable {
        private final Running transfer;

        QpError(Running transfer) {
            this.transfer = transfer;
        }

        @Override
        public void run() {
            transfer.qpFailed();
        }
    }

    /** The initiator learns that every lane of a transfer is done (one way-latency after the last byte). */
    public static final class TransferNotice implements Runnable {
        private final Running transfer;
        private final String bottleneck;

        TransferNotice(Running transfer, String bottleneck) {
            this.transfer = transfer;
            this.bottleneck = bottleneck;
        }

        @Override
        public void run() {
            transfer.notifyDone(bottleneck);
        }
    }
}
