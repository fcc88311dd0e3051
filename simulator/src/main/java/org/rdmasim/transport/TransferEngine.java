package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.Flow;
import org.rdmasim.fluid.FlowListener;
import org.rdmasim.fluid.FlowStart;
import org.rdmasim.fluid.Limit;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * Runs transfers on a cluster: each lane becomes one fluid flow over the physical resources of its
 * path (source buffer to source NIC, the fabric, sink NIC to sink buffer), started after the
 * protocol's fixed costs; the transfer completes when its last lane has delivered and the completion
 * has travelled back to the initiator.
 *
 * <p>Why one class of this size: the running transfer, its lanes and their QPs (stall on a port that is
 * down, resume at a retransmission, fail after the retries) share the engine's port state and the
 * clock; the physics of one lane is {@link LanePhysics}.
 */
public final class TransferEngine {
    private final Cluster cluster;
    private final ProtocolParameters params;
    private final QpRetry qpRetry;
    private final LanePhysics physics;
    /** The engine's thread through which every slice of a NIC context passes, if it has one. */
    private SliceThread sliceThread = SliceThread.NONE;
    /**
     * Null until ports are watched: a run without faults keeps no per-lane bookkeeping. Insertion-ordered
     * sets: a port going down stalls its lanes in the order they started, so runs are reproducible.
     */
    private Map<TopologyNode, Set<LaneRun>> lanesByPort;
    private final Set<TopologyNode> downPorts = new HashSet<>();
    /** When each port that went down did, and when each that came back did (the last time of each). */
    private final Map<TopologyNode, Double> downSince = new HashMap<>();
    private final Map<TopologyNode, Double> upAt = new HashMap<>();

    public TransferEngine(Cluster cluster, ProtocolParameters params) {
        this(cluster, params, QpRetry.UCX_DEFAULT);
    }

    public TransferEngine(Cluster cluster, ProtocolParameters params, QpRetry qpRetry) {
        this(cluster, params, qpRetry, WriteOrdering.RELAXED);
    }

    /** @param ordering which NICs write into which buffers in strict PCIe order (from the registrations) */
    public TransferEngine(Cluster cluster, ProtocolParameters params, QpRetry qpRetry, WriteOrdering ordering) {
        this.cluster = cluster;
        this.params = params;
        this.qpRetry = qpRetry;
        this.physics = new LanePhysics(cluster, params, ordering);
    }

    public QpRetry qpRetry() {
        return qpRetry;
    }

    /**
     * The engine's thread per NIC context ({@link SliceThread#NONE}: none); set before the first post. The lanes
     * of one transfer on the initiator's same NIC share it, each in proportion to its bytes.
     */
    public TransferEngine withSliceThread(SliceThread thread) {
        this.sliceThread = java.util.Objects.requireNonNull(thread);
        return this;
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
        downSince.put(nic, cluster.network().clock().now());
        for (LaneRun lr : List.copyOf(lanesByPort.getOrDefault(nic, Set.of()))) {
            lr.stall(nic);
        }
    }

    /** A port that was down passes traffic again: stalled lanes resume at their QP's next retransmission. */
    public void portUp(Host host, TopologyNode nic) {
        requireWatched();
        if (!downPorts.remove(nic)) {
            return;
        }
        upAt.put(nic, cluster.network().clock().now());
        for (LaneRun lr : List.copyOf(lanesByPort.getOrDefault(nic, Set.of()))) {
            lr.portAnswers();
        }
    }

    private double portDownSince(TopologyNode nic) {
        return downSince.getOrDefault(nic, Double.NaN);
    }

    private double portUpAt(TopologyNode nic) {
        return upAt.getOrDefault(nic, Double.NaN);
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
        return physics.oneWayLatency(spec, lane);
    }

    /** The resources one byte of this lane crosses, with how much of each it uses. */
    public List<Resource> lanePath(TransferSpec spec, Lane lane, List<Double> usage) {
        return physics.lanePath(spec, lane, usage);
    }

    /** Rate limit of one lane by itself, bytes per second ({@link LanePhysics#laneCap}). */
    public double laneCap(TransferSpec spec, Lane lane) {
        return physics.laneCap(spec, lane);
    }

    /** Which of the limits of {@link #laneCap} held a lane back, for reports. */
    Bottleneck capName(TransferSpec spec, Lane lane) {
        return physics.capName(spec, lane);
    }


    private final class Running implements Posted {
        private final TransferSpec spec;
        private final List<Lane> lanes;
        private final Consumer<TransferResult> done;
        private final double postedAt;
        private final LaneResult[] results;
        private final LaneRun[] runs;
        /** The source and sink hosts, found once for every lane (a lookup among all the cluster's hosts). */
        private final Host sourceHost;
        private final Host sinkHost;
        /** The buffers' devices, found once for every lane; null where the host has none of that name. */
        private final TopologyNode sourceDevice;
        private final TopologyNode sinkDevice;
        private int pending;
        private double maxOneWay;
        private boolean ended;
        private int stalled;
        private SimulationClock.ScheduledAction qpError;
        private String stalledOn;
        /** Each lane's share of its initiator NIC's slice thread, bytes a second; null without such a thread. */
        private final double[] threadCaps;

        Running(TransferSpec spec, List<Lane> lanes, Consumer<TransferResult> done) {
            this.spec = spec;
            this.lanes = lanes;
            this.done = done;
            this.postedAt = cluster.network().clock().now();
            this.results = new LaneResult[lanes.size()];
            this.runs = new LaneRun[lanes.size()];
            this.sourceHost = cluster.host(spec.source().host());
            this.sinkHost = cluster.host(spec.sink().host());
            this.sourceDevice = sourceHost.device(spec.source().device());
            this.sinkDevice = sinkHost.device(spec.sink().device());
            this.threadCaps = sliceThread.present() ? threadShares(spec, lanes) : null;
        }

        /**
         * The slice thread's rate for this transfer's requests, split over the lanes that share an initiator NIC
         * in proportion to their bytes (so they end together, as the engine's even spread of slices does).
         */
        private double[] threadShares(TransferSpec spec, List<Lane> lanes) {
            double rate = sliceThread.bytesPerSecond((double) spec.bytes() / spec.descriptors());
            boolean read = spec.operation() == Operation.READ;
            Map<String, Long> bytesByNic = new HashMap<>();
            for (Lane l : lanes) {
                bytesByNic.merge(read ? l.sinkNic() : l.sourceNic(), l.bytes(), Long::sum);
            }
            double[] caps = new double[lanes.size()];
            for (int i = 0; i < caps.length; i++) {
                Lane l = lanes.get(i);
                long total = bytesByNic.get(read ? l.sinkNic() : l.sourceNic());
                caps[i] = total == 0 ? Double.POSITIVE_INFINITY : rate * l.bytes() / total;
            }
            return caps;
        }

        /** Its own cap on lane {@code index}: the physics' with the slice thread's share, infinity without one. */
        double threadCap(int index) {
            return threadCaps == null ? Double.POSITIVE_INFINITY : threadCaps[index];
        }

        /** What lane {@code index}'s own cap was: its share of the slice thread where that is lower than the physics' cap. */
        Bottleneck capName(int index) {
            Lane lane = lanes.get(index);
            if (threadCaps != null && threadCaps[index] <= physics.laneCap(spec, lane) * (1 + 1e-9)) {
                boolean read = spec.operation() == Operation.READ;
                return new Bottleneck.SliceThread(read ? spec.sink().host() + ":" + lane.sinkNic()
                        : spec.source().host() + ":" + lane.sourceNic(), sliceThread.basis());
            }
            return TransferEngine.this.capName(spec, lane);
        }

        void start() {
            pending = lanes.size();
            // Descriptors are posted while earlier ones move; only the first one's cost delays data.
            double posting = params.perDescriptorSeconds();
            // Lanes next to each other that start at the same instant start in one event, their flows
            // with one re-solve (they would have fired one after the other with nothing between).
            int first = 0;
            double firstDelay = Double.NaN;
            for (int i = 0; i < lanes.size(); i++) {
                Lane lane = lanes.get(i);
                TopologyNode sn = sourceHost.nic(lane.sourceNic());
                TopologyNode dn = sinkHost.nic(lane.sinkNic());
                double oneWay = physics.oneWayLatency(spec, sourceHost, sn, sourceDevice, sinkHost, dn, sinkDevice);
                maxOneWay = Math.max(maxOneWay, oneWay);
                // A READ's data starts after its request has crossed to the source; a WRITE's at once.
                double requestDelay = spec.operation() == Operation.READ ? oneWay : 0.0;
                double delay = posting + requestDelay + params.perFragmentSeconds();
                runs[i] = new LaneRun(this, i, lane, oneWay, sn, dn);
                if (i > first && delay != firstDelay) {
                    scheduleStart(firstDelay, runs(first, i));
                    first = i;
                }
                firstDelay = delay;
            }
            if (!lanes.isEmpty()) {
                scheduleStart(firstDelay, runs(first, lanes.size()));
            }
        }

        /**
         * Lanes {@code from} (inclusive) to {@code to} (exclusive). Copied by hand: Arrays.copyOfRange of a
         * typed array reaches java.lang.reflect.Array.newInstance, a native call the launcher's C1 compiler
         * does not replace, on every transfer posted.
         */
        private LaneRun[] runs(int from, int to) {
            LaneRun[] out = new LaneRun[to - from];
            System.arraycopy(runs, from, out, 0, out.length);
            return out;
        }

        private void laneDone(LaneRun run, Flow f) {
            if (ended) {
                return;
            }
            run.unwatch();
            Lane lane = run.lane;
            double finish = f.finishTime();
            Limit only = f.bytes() == 0 ? Limit.NONE : f.limiter();
            Bottleneck limiter;
            List<LaneResult.Held> overTime = List.of();
            if (run.earlier == null && (f.bytes() == 0 || f.limitsMet() <= 1)) {
                // one limit all its life, as most lanes: no list kept
                limiter = only == Limit.OWN_CAP ? capName(run.index) : Bottleneck.of(only);
            } else {
                // several limits, or a stall: each with its seconds, before the stall and after
                List<LaneResult.Held> met = run.earlier == null ? new ArrayList<>(f.limitsMet()) : run.earlier;
                run.keepHolds(f, met);
                overTime = HeldLongest.merged(met);
                limiter = HeldLongest.ofLane(overTime, Bottleneck.of(only));
                if (overTime.size() == 1) {
                    overTime = List.of();
                }
            }
            results[run.index] = new LaneResult(lane.sourceNic(), lane.sinkNic(), lane.bytes(), run.started, finish,
                    limiter, lane.path(), overTime);
            if (--pending == 0) {
                ended = true;
                cancelQpError();
                // Data is in place one way-latency after it left; the initiator learns of it then (READ)
                // or after the completion travels back (WRITE).
                double tail = maxOneWay;
                Bottleneck bottleneck = HeldLongest.ofTransfer(java.util.Arrays.asList(results));
                cluster.network().clock().schedule(tail, new TransferNotice(this, bottleneck));
            }
        }

        void notifyDone(Bottleneck bottleneck) {
            done.accept(new TransferResult(spec, postedAt, cluster.network().clock().now(), List.of(results), bottleneck));
        }

        void laneStalled(LaneRun run) {
            if (stalled++ == 0 && qpError == null) {
                stalledOn = run.stalledPorts.get(0);
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
                        Double.isNaN(run.started) ? now : run.started, now, new Bottleneck.Failed(null), lane.path());
            }
            done.accept(new TransferResult(spec, postedAt, now, List.of(results), new Bottleneck.Failed(reason), reason));
        }
    }

    /**
     * One lane of a running transfer: its QP, its current flow, and, while a port on its path is down,
     * the bytes it still has to move.
     */
    private final class LaneRun implements FlowListener, Supplier<String> {
        private final Running transfer;
        private final int index;
        private final Lane lane;
        /** Its one-way latency, worked out at the post (a pure function of the spec and lane) and kept for its cap. */
        private final double oneWay;
        private double started = Double.NaN;
        private Flow flow;
        /** Bytes still to move; whole lane until it starts, then updated when its flow is stopped. */
        private double remaining;
        private double stalledAt = Double.NaN;
        /**
         * The ports that went down while it waited, in the order they did, each once; null until it first
         * stalls. Made then, not with the lane: two lists per lane were ~48 bytes of every lane of a
         * 65,536-receiver fan-out's backlog (~72,000 lanes in flight), copied by each young collection.
         */
        private List<TopologyNode> stalledNodes;
        private List<String> stalledPorts;
        /** How many times a port of its path went down while it waited (a flap counts each time). */
        private int outages;
        /**
         * What held the lane before its last stall, with the seconds (each flow it ran before and each wait
         * for a port), in the order met; null until it first stalls.
         */
        private List<LaneResult.Held> earlier;
        private SimulationClock.ScheduledAction resume;
        private final TopologyNode sourcePort;
        private final TopologyNode sinkPort;

        /** @param sourcePort its source NIC, {@code sinkPort} its sink NIC: found once, at the post */
        LaneRun(Running transfer, int index, Lane lane, double oneWay, TopologyNode sourcePort, TopologyNode sinkPort) {
            this.transfer = transfer;
            this.index = index;
            this.lane = lane;
            this.oneWay = oneWay;
            this.remaining = lane.bytes();
            this.sourcePort = sourcePort;
            this.sinkPort = sinkPort;
        }

        /** The lane's first fragment is on the wire: what its flow is, or null when it cannot start now. */
        FlowStart begin() {
            if (transfer.ended) {
                return null;
            }
            started = cluster.network().clock().now();
            if (lanesByPort != null) {
                lanesByPort.computeIfAbsent(sourcePort, k -> new LinkedHashSet<>()).add(this);
                lanesByPort.computeIfAbsent(sinkPort, k -> new LinkedHashSet<>()).add(this);
                if (downPorts.contains(sourcePort) || downPorts.contains(sinkPort)) {
                    // a port of its path is already down: it waits for it (for both, when both are)
                    if (downPorts.contains(sinkPort)) {
                        stall(sinkPort);
                    }
                    if (downPorts.contains(sourcePort)) {
                        stall(sourcePort);
                    }
                    return null;
                }
            }
            return flowStart();
        }

        private FlowStart flowStart() {
            // The lane names its flow and hears its end: no label string nor listener per lane start.
            return physics.flowStart(transfer.spec, lane, transfer.sourceHost, sourcePort, transfer.sourceDevice,
                    transfer.sinkHost, sinkPort, transfer.sinkDevice, oneWay, transfer.threadCap(index), this,
                    Math.round(remaining), this);
        }

        /** Its flow's name, as messages and logs of the run show it: the transfer's id and the lane's. */
        @Override
        public String get() {
            return transfer.spec.id() + " " + lane.label();
        }

        /** Its flow delivered its last byte (the lane is its flow's listener). */
        @Override
        public void finished(Flow f) {
            transfer.laneDone(this, f);
        }

        private void startFlow() {
            flow = cluster.network().start(List.of(flowStart())).get(0);
        }

        /** Port {@code nic} on the path went down: the flow stops where it is and the QP starts retrying. */
        void stall(TopologyNode nic) {
            if (transfer.ended) {
                return;
            }
            if (!Double.isNaN(stalledAt)) {
                // already waiting: another port of its path, or the same one again, went down; the wait is theirs too
                notePortDown(nic);
                return;
            }
            if (flow != null) {
                if (flow.isFinished()) {
                    return;
                }
                remaining = cluster.network().abort(flow);
                keepHolds(flow, earlierHolds());
                flow = null;
            }
            if (resume != null) {
                resume.cancel();
                resume = null;
            }
            stalledAt = cluster.network().clock().now();
            if (stalledNodes == null) {
                stalledNodes = new ArrayList<>();
                stalledPorts = new ArrayList<>();
            } else {
                stalledNodes.clear();
                stalledPorts.clear();
            }
            outages = 0;
            notePortDown(nic);
            transfer.laneStalled(this);
        }

        /** Records port {@code nic} (its sink's or its source's) going down as one outage of this wait. */
        private void notePortDown(TopologyNode nic) {
            outages++;
            if (!stalledNodes.contains(nic)) {
                stalledNodes.add(nic);
                stalledPorts.add(nic == sinkPort ? transfer.spec.sink().host() + ":" + lane.sinkNic()
                        : transfer.spec.source().host() + ":" + lane.sourceNic());
            }
        }

        private List<LaneResult.Held> earlierHolds() {
            if (earlier == null) {
                earlier = new ArrayList<>();
            }
            return earlier;
        }

        /** Adds what held {@code f}, with its seconds, to {@code into} (its own cap named as the transport knows it). */
        void keepHolds(Flow f, List<LaneResult.Held> into) {
            f.secondsByLimiter().forEach((limit, seconds) -> into.add(new LaneResult.Held(
                    limit == Limit.OWN_CAP ? transfer.capName(index) : Bottleneck.of(limit), seconds)));
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
            double now = cluster.network().clock().now();
            // the wait is the fault's: from the stall to this retransmission, nothing moved
            // from the stall (a port went down then) to when the last port that went down came back
            double up = Double.NEGATIVE_INFINITY;
            for (TopologyNode n : stalledNodes) {
                up = Math.max(up, portUpAt(n));
            }
            earlierHolds().add(new LaneResult.Held(new Bottleneck.PortStall(String.join(", ", stalledPorts),
                    outages <= 1 ? portDownSince(stalledNodes.get(0)) : stalledAt, up, qpRetry.tickSeconds(),
                    Math.max(1, outages)), now - stalledAt));
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

    /**
     * Starts {@code lanes} after {@code delay}. When a lane start of this engine is already due at that
     * same time and nothing else has been scheduled on the clock since it was (transfers posted together,
     * as a refit's many-to-many list at one instant: each posting schedules only its lane starts), the
     * lanes join it: no event lies between the two at that instant, so they would have fired right after
     * it, and one event starts all their flows with one re-solve instead of one per transfer.
     */
    private void scheduleStart(double delay, LaneRun[] lanes) {
        SimulationClock clock = cluster.network().clock();
        long others = clock.eventsScheduled() - startsScheduled;
        if (others != othersAtOpen) {
            openStarts.clear();
            othersAtOpen = others;
        }
        double at = clock.now() + delay;
        LaneStart open = openStarts.get(at);
        if (open != null && !open.fired) {
            open.lanes.addAll(java.util.Arrays.asList(lanes));
            return;
        }
        open = new LaneStart(lanes);
        clock.schedule(delay, open);
        startsScheduled++;
        openStarts.put(at, open);
    }

    /** Lane starts that later lanes due at the same time may join ({@link #scheduleStart}), by due time. */
    private final Map<Double, LaneStart> openStarts = new HashMap<>();
    /** Lane starts this engine scheduled. */
    private long startsScheduled;
    /** Events others scheduled on the clock, as counted when {@link #openStarts} was last emptied. */
    private long othersAtOpen = -1;

    /** The first fragments of lanes (of one transfer, or of several posted together) are on the wire: their flows start together. */
    private final class LaneStart implements Runnable {
        private final List<LaneRun> lanes;
        private boolean fired;

        LaneStart(LaneRun[] lanes) {
            this.lanes = new ArrayList<>(lanes.length);
            for (LaneRun lane : lanes) {
                this.lanes.add(lane);
            }
        }

        @Override
        public void run() {
            fired = true;
            List<FlowStart> starts = new ArrayList<>(lanes.size());
            List<LaneRun> starting = new ArrayList<>(lanes.size());
            // By index: an iterator per lane start is garbage the C1 compiler keeps.
            for (int i = 0; i < lanes.size(); i++) {
                LaneRun lane = lanes.get(i);
                FlowStart s = lane.begin();
                if (s != null) {
                    starts.add(s);
                    starting.add(lane);
                }
            }
            if (starts.isEmpty()) {
                return;
            }
            List<Flow> flows = cluster.network().start(starts);
            for (int i = 0; i < flows.size(); i++) {
                starting.get(i).flow = flows.get(i);
            }
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
        private final Bottleneck bottleneck;

        TransferNotice(Running transfer, Bottleneck bottleneck) {
            this.transfer = transfer;
            this.bottleneck = bottleneck;
        }

        @Override
        public void run() {
            transfer.notifyDone(bottleneck);
        }
    }
}
