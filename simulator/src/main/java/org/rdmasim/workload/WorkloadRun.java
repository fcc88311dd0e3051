package org.rdmasim.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.Limit;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.GpuDirectDecision;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.RmaEmulation;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.NcclPathType;

/**
 * Places a list of transfers in time on a cluster, runs the clock to the end, and collects the
 * result.
 */
public final class WorkloadRun {
    /**
     * Per-transfer options that come from the transport configuration.
     *
     * @param gpudirect GPUDirect RDMA available (peer memory module or dma-buf)
     * @param rma       transfers are RMA calls ({@code ucp_put_nbx}/{@code ucp_get_nbx}, NIXL's UCX backend)
     *                  rather than rendezvous sends: without GPUDirect they are emulated, not pipelined
     *                  ({@link GpuDirectDecision})
     */
    public record PathOptions(boolean gpudirect, boolean acs, double iommuPenalty, boolean rma) {
        public PathOptions(boolean gpudirect, boolean acs, double iommuPenalty) {
            this(gpudirect, acs, iommuPenalty, false);
        }
    }

    private final Cluster cluster;
    private final TransferEngine engine;
    private final LanePolicy lanes;
    private final PathOptions options;
    private final List<TransferResult> results = new ArrayList<>();
    private final Map<Resource, SeriesBuilder> series = new IdentityHashMap<>();
    private final Map<PlanKey, LanePolicy.Plan> plans = new HashMap<>();
    private PlanKey lastKey;
    private LanePolicy.Plan lastPlan;
    // Identity: specs of a counted host group are one shared instance; equal copies just get two ids.
    private final Map<HostSpec, Integer> shapes = new IdentityHashMap<>();
    private FaultPlan faults = FaultPlan.NONE;
    private final List<RunResult.FaultRecord> faultLog = new ArrayList<>();
    private final Map<Resource, Double> nominalCapacity = new HashMap<>();
    /** The fractions of the degradations active on each resource (a window may overlap another). */
    private final Map<Resource, List<Double>> degradations = new HashMap<>();
    /** The degradation faults active on each resource, in the order they began (to name the one that holds it). */
    private final Map<Resource, List<Fault.Degraded>> degradedBy = new HashMap<>();
    /** One limit per resource and fault holding it, so a lane's seconds under it add up as one. */
    private final Map<List<Object>, Limit> degradedLimits = new HashMap<>();
    /**
     * Per port, the faults holding it down now (nic-down windows and host losses): a port comes back only
     * when the last of them ends, so two overlapping windows on one port end at the later end.
     */
    private final Map<TopologyNode, Integer> downHolds = new IdentityHashMap<>();
    private FanoutRun fanout;
    private int reposts;

    public WorkloadRun(Cluster cluster, TransferEngine engine, LanePolicy lanes, PathOptions options) {
        this.cluster = cluster;
        this.engine = engine;
        this.lanes = lanes;
        this.options = options;
        // A NIC's series is made when its load first changes: most NICs of a large fan-out never send.
        cluster.network().addObserver((r, now, load) -> {
            if (r.kind() == ResourceKind.NIC_TX) {
                series.computeIfAbsent(r, k -> new SeriesBuilder()).set(now, load);
            }
        }, java.util.EnumSet.of(ResourceKind.NIC_TX));
    }

    /**
     * Schedules {@code plan}'s faults on this run. Call before {@code run}. With faults the engine keeps
     * track of lanes per port, which a run without them does not pay for.
     */
    public WorkloadRun withFaults(FaultPlan plan) {
        this.faults = plan;
        if (!plan.isEmpty()) {
            engine.watchPorts();
        }
        return this;
    }

    public RunResult run(List<TransferItem> items) {
        SimulationClock clock = cluster.network().clock();
        scheduleFaults();
        double[] at = new double[items.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = items.get(i).atSeconds();
        }
        // one pending post at a time on the event list, in the order these would fire (see scheduleAllAt)
        clock.scheduleAllAt(at, i -> new TransferPost(this, items.get(i)));
        clock.run();
        return collect(items.size(), null);
    }

    /** Runs a fan-out plan: transfers are generated as receivers arrive and finish. */
    public RunResult run(FanoutPlan plan, FanoutRun.Timing timing, org.rdmasim.engine.RandomStreams streams) {
        FanoutRun fanout = new FanoutRun(plan, timing, this, streams);
        this.fanout = fanout;
        scheduleFaults();
        fanout.start();
        cluster.network().clock().run();
        return collect(fanout.transfersPosted(), fanout.result());
    }

    /**
     * What the run has produced so far (transfers posted through it, NIC traffic and load series, resource
     * use): for a driver that schedules its own work on this run's clock, such as a refit, once the clock
     * has run.
     */
    public RunResult snapshot() {
        return collect(results.size(), null);
    }

    /** The clock this run schedules on. */
    public SimulationClock clock() {
        return cluster.network().clock();
    }

    public Cluster cluster() {
        return cluster;
    }

    /**
     * Posts one transfer now: lanes from the policy, data path from the options, the result recorded
     * for the report and then handed to {@code then}.
     */
    public TransferEngine.Posted post(TransferItem item, Consumer<TransferResult> then) {
        return post(item, null, then);
    }

    /**
     * Posts one transfer now on {@code lanes} instead of the policy's: for an engine that opens one NIC a side
     * itself (Mooncake's Transfer Engine as checkpoint-engine initialises it, one device per rank). Null: the
     * policy's lanes, as {@link #post(TransferItem, Consumer)}.
     */
    public TransferEngine.Posted post(TransferItem item, List<LaneSplit.Candidate> lanes, Consumer<TransferResult> then) {
        String regFailure = faults.isEmpty() ? null : registrationFailure(item);
        if (regFailure != null) {
            double now = clock().now();
            TransferSpec spec = new TransferSpec(item.id(), item.from(), item.to(), item.bytes(), item.operation(),
                    item.descriptors(), DataPath.GPUDIRECT, DataPath.GPUDIRECT, options.acs(), options.iommuPenalty());
            TransferResult r = new TransferResult(spec, now, now, List.of(), new Bottleneck.Failed(regFailure), regFailure);
            results.add(r);
            then.accept(r);
            return reason -> { };
        }
        // Each host found once (a lookup among all the cluster's hosts) for the plan and both data paths.
        Host from = cluster.host(item.from().host());
        Host to = cluster.host(item.to().host());
        LanePolicy.Plan plan = lanes == null ? planFor(item, from, to)
                : new LanePolicy.Plan(lanes, LaneSplit.MinChunk.PROPORTIONAL_SHARES);
        TransferSpec spec = new TransferSpec(item.id(), item.from(), item.to(), item.bytes(), item.operation(),
                item.descriptors(), dataPath(from, item.from()), dataPath(to, item.to()), options.acs(),
                options.iommuPenalty());
        List<LaneSplit.Candidate> lanesUsed = RmaEmulation.lanes(spec, plan.lanes());
        return engine.post(spec, LaneSplit.split(item.bytes(), lanesUsed, plan.minChunk()), new Recorded(then));
    }

    /**
     * A transfer's end: its result is kept, then {@code then} told. A class, not a lambda: the launcher's
     * C1 compiler makes a capturing lambda through a native Unsafe.allocateInstance call, one per transfer.
     */
    private final class Recorded implements Consumer<TransferResult> {
        private final Consumer<TransferResult> then;

        Recorded(Consumer<TransferResult> then) {
            this.then = then;
        }

        @Override
        public void accept(TransferResult r) {
            results.add(r);
            then.accept(r);
        }
    }

    /**
     * Posts a transfer of the scenario's list. When it fails and the fault plan re-posts, it is posted
     * again, whole, after the retry delay, as {@code ID#2}, {@code ID#3}, ... (up to the same number of
     * attempts a fan-out receiver gets). A new endpoint takes the same lanes: UCX checks a port's state
     * only when it lists its devices at ucp_init (openucx/ucx src/uct/ib/base/ib_device.c L580 caches
     * the port attributes, L744-748 rejects a port that is not active), not when it wires up an endpoint.
     */
    void postListed(TransferItem item) {
        postAttempt(item, 1);
    }

    private void postAttempt(TransferItem item, int attempt) {
        post(item, r -> {
            if (r.failed() && faults.repost() && attempt < FaultPlan.MAX_SOURCE_ATTEMPTS
                    && registrationFailure(item) == null) {
                String base = item.id().contains("#") ? item.id().substring(0, item.id().indexOf('#')) : item.id();
                TransferItem again = new TransferItem(base + "#" + (attempt + 1), item.from(), item.to(), item.bytes(),
                        clock().now() + faults.retryDelaySeconds(), item.operation(), item.descriptors());
                logFault(clock().now(), item.id() + " failed (" + r.failure() + "); re-posted as " + again.id() + " at "
                        + org.rdmasim.hardware.Units.number(again.atSeconds()) + " s");
                reposts++;
                clock().scheduleAt(again.atSeconds(), () -> postAttempt(again, attempt + 1));
            } else if (r.failed()) {
                logFault(clock().now(), item.id() + " failed: " + r.failure());
            }
        });
    }

    /** The registration failure that stops {@code item}, or null. */
    String registrationFailure(TransferItem item) {
        String a = faults.registrationFailure(item.from().host());
        return a != null ? a : faults.registrationFailure(item.to().host());
    }

    FaultPlan faults() {
        return faults;
    }

    /** Records the stack's reaction to a fault at {@code at}. */
    void logFault(double at, String what) {
        faultLog.add(new RunResult.FaultRecord(at, what, false));
    }

    /** Records a scheduled fault starting or ending. */
    private void logScheduled(double at, String what) {
        faultLog.add(new RunResult.FaultRecord(at, what, true));
    }

    /** Puts every fault of the plan on the clock (registration failures act when buffers are registered). */
    private void scheduleFaults() {
        SimulationClock clock = cluster.network().clock();
        for (Fault f : faults.faults()) {
            if (f instanceof Fault.PortDown d) {
                    Host h = cluster.host(d.host());
                    TopologyNode nic = h.nic(d.nic());
                    clock.scheduleAt(d.atSeconds(), new FaultEvent(() -> {
                        if (holdDown(h, nic)) {
                            logScheduled(clock.now(), d.host() + ":" + d.nic() + " port down");
                        }
                    }));
                    if (Double.isFinite(d.untilSeconds())) {
                        clock.scheduleAt(d.untilSeconds(), new FaultEvent(() -> {
                            if (release(h, nic)) {
                                logScheduled(clock.now(), d.host() + ":" + d.nic() + " port up");
                            } else {
                                logScheduled(clock.now(), d.host() + ":" + d.nic()
                                        + " stays down (another fault still holds it)");
                            }
                        }));
                    }
            } else if (f instanceof Fault.Degraded d) {
                    List<Resource> targets = degradedResources(d);
                    clock.scheduleAt(d.atSeconds(), new FaultEvent(() -> {
                        logScheduled(clock.now(), d.describe().replaceAll(" until .*", ""));
                        for (Resource r : targets) {
                            nominalCapacity.computeIfAbsent(r, Resource::capacity);
                            degradations.computeIfAbsent(r, x -> new ArrayList<>()).add(d.fraction());
                            degradedBy.computeIfAbsent(r, x -> new ArrayList<>()).add(d);
                            applyDegradation(r);
                        }
                    }));
                    if (Double.isFinite(d.untilSeconds())) {
                        clock.scheduleAt(d.untilSeconds(), new FaultEvent(() -> {
                            String what = d.nic() != null ? d.host() + ":" + d.nic() : d.resource();
                            for (Resource r : targets) {
                                degradations.get(r).remove(d.fraction());
                                degradedBy.get(r).remove(d);
                                applyDegradation(r);
                            }
                            List<Double> left = degradations.get(targets.get(0));
                            logScheduled(clock.now(), what + (left.isEmpty() ? " back to its full rate"
                                    : " stays degraded (another fault still holds it at " + Collections.min(left)
                                            + " of its rate)"));
                        }));
                    }
            } else if (f instanceof Fault.SourceLoss l) {
                    Host h = cluster.host(l.host());
                    clock.scheduleAt(l.atSeconds(), new FaultEvent(() -> {
                        logScheduled(clock.now(), l.host() + " leaves: its ports stop answering");
                        for (TopologyNode nic : h.nics()) {
                            holdDown(h, nic); // never released: the host is gone
                        }
                        if (fanout != null) {
                            fanout.sourceLost(l.host());
                        }
                    }));
            } else if (f instanceof Fault.RegistrationFailure r) {
                logScheduled(0, faults.registrationFailure(r.host()));
            }
        }
    }

    /**
     * Sets {@code r} to its nominal rate times the lowest fraction a degradation active on it allows:
     * overlapping windows hold a link at the slowest rate any of them trained it down to, and only the
     * last window's end restores the full rate.
     */
    private void applyDegradation(Resource r) {
        List<Double> active = degradations.get(r);
        double fraction = active.isEmpty() ? 1.0 : Collections.min(active);
        double nominal = nominalCapacity.get(r);
        cluster.network().setCapacity(r, fraction == 1.0 ? nominal : nominal * fraction, degradedLimit(r, fraction));
    }

    /**
     * What a lane this resource holds at {@code fraction} of its rate is held by: the resource's own limit at
     * its full rate, else that limit degraded by the fault (the first active one at that fraction), so a
     * report names the fault rather than the line rate or calibration it cut.
     */
    private Limit degradedLimit(Resource r, double fraction) {
        if (fraction == 1.0 || !(r.limit() instanceof Bottleneck nominal)) {
            return r.limit();
        }
        Fault.Degraded by = null;
        for (Fault.Degraded d : degradedBy.get(r)) {
            if (d.fraction() == fraction) {
                by = d;
                break;
            }
        }
        Fault.Degraded f = by;
        return degradedLimits.computeIfAbsent(List.of(r.index(), f),
                k -> new Bottleneck.Degraded(nominal, fraction, f.atSeconds(), f.untilSeconds()));
    }

    /** One more fault holds {@code nic} down; true when that took the port down. */
    private boolean holdDown(Host h, TopologyNode nic) {
        if (downHolds.merge(nic, 1, Integer::sum) == 1) {
            engine.portDown(h, nic);
            return true;
        }
        return false;
    }

    /** One fault on {@code nic} ends; true when that was the last and the port is up again. */
    private boolean release(Host h, TopologyNode nic) {
        int left = downHolds.merge(nic, -1, Integer::sum);
        if (left <= 0) {
            downHolds.remove(nic);
            engine.portUp(h, nic);
            return true;
        }
        return false;
    }

    private List<Resource> degradedResources(Fault.Degraded d) {
        if (d.nic() != null) {
            TopologyNode nic = cluster.host(d.host()).nic(d.nic());
            return List.of(cluster.nicTx(nic), cluster.nicRx(nic));
        }
        for (Resource r : cluster.allResources()) {
            if (r.name().equals(d.resource())) {
                return List.of(r);
            }
        }
        throw new IllegalArgumentException("no resource named '" + d.resource() + "' (names as in resources.csv)");
    }

    /**
     * The lane plan of a transfer. UCX's choice depends on the two hosts' shapes, the devices and the
     * operation, never on host names or sizes, so a fan-out of thousands of identical hosts resolves it
     * once per shape pair instead of once per transfer.
     */
    private LanePolicy.Plan planFor(TransferItem item, Host from, Host to) {
        int fromShape = shapeId(from);
        int toShape = shapeId(to);
        long size = lanes.dependsOnSize() ? item.bytes() : -1;
        // The last key is asked again first: a fan-out's or a refit's posts mostly repeat one shape pair,
        // and a key made per post was ~2% of a fan-out's garbage in its event loop (JFR).
        if (lastKey != null && lastKey.is(fromShape, item.from().device(), toShape, item.to().device(),
                item.operation(), item.descriptors(), size)) {
            return lastPlan;
        }
        PlanKey key = new PlanKey(fromShape, item.from().device(), toShape, item.to().device(),
                item.operation(), item.descriptors(), size);
        LanePolicy.Plan plan = plans.get(key);
        if (plan == null) {
            TransferSpec provisional = new TransferSpec(item.id(), item.from(), item.to(), item.bytes(), item.operation(),
                    item.descriptors(), DataPath.GPUDIRECT, DataPath.GPUDIRECT, options.acs(), options.iommuPenalty());
            plan = lanes.plan(cluster, provisional);
            plans.put(key, plan);
        }
        lastKey = key;
        lastPlan = plan;
        return plan;
    }

    private int shapeId(Host h) {
        // get, then put: a lambda capturing the map, made on each of a post's two calls, was garbage
        Integer id = shapes.get(h.spec());
        if (id == null) {
            id = shapes.size();
            shapes.put(h.spec(), id);
        }
        return id;
    }

    /**
     * What a lane plan depends on. Equality and hash written out: looked up on every post, and a record's
     * generated ones run through method handles the launcher's C1 compiler does not inline, bootstrapped
     * on first use (~4% of a 4,096-transfer list's simulate time, JFR).
     */
    private record PlanKey(int fromShape, String fromDevice, int toShape, String toDevice, Operation operation,
            int descriptors, long bytes) {
        boolean is(int fromShape, String fromDevice, int toShape, String toDevice, Operation operation,
                int descriptors, long bytes) {
            return this.fromShape == fromShape && this.toShape == toShape && this.descriptors == descriptors
                    && this.bytes == bytes && this.operation == operation
                    && Objects.equals(this.fromDevice, fromDevice) && Objects.equals(this.toDevice, toDevice);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PlanKey k && k.fromShape == fromShape && k.toShape == toShape
                    && k.descriptors == descriptors && k.bytes == bytes && k.operation == operation
                    && Objects.equals(k.fromDevice, fromDevice) && Objects.equals(k.toDevice, toDevice);
        }

        @Override
        public int hashCode() {
            int h = 31 * fromShape + Objects.hashCode(fromDevice);
            h = 31 * h + toShape;
            h = 31 * h + Objects.hashCode(toDevice);
            h = 31 * h + operation.hashCode();
            h = 31 * h + descriptors;
            return 31 * h + Long.hashCode(bytes);
        }
    }

    private RunResult collect(long flows, FanoutResult fanout) {
        SimulationClock clock = cluster.network().clock();
        // Start time, then id: written out, as comparing boxed keys cost two Doubles per comparison.
        results.sort((a, b) -> {
            int c = Double.compare(a.startSeconds(), b.startSeconds());
            return c != 0 ? c : a.spec().id().compareTo(b.spec().id());
        });
        List<RunResult.FaultRecord> log = new ArrayList<>(faultLog);
        log.sort(Comparator.comparingDouble(RunResult.FaultRecord::atSeconds));
        double now = clock.now();
        List<RunResult.NicTraffic> traffic = new ArrayList<>();
        List<RunResult.LoadSeries> loads = new ArrayList<>();
        // One walk over every port for both tables, in host and NIC order, as the report lists them.
        cluster.forEachNic((h, nic, tx, rx) -> {
            traffic.add(new RunResult.NicTraffic(h.name(), nic.name(), tx == null ? 0 : Math.round(tx.bytesCarried(now)),
                    rx == null ? 0 : Math.round(rx.bytesCarried(now))));
            SeriesBuilder b = tx == null || series.isEmpty() ? null : series.get(tx);
            if (b != null && b.size() > 0) {
                loads.add(b.build(h.name(), nic.name()));
            }
        });
        return new RunResult(results, traffic, resourceUsage(now), loads, clock.eventsFired(), flows, fanout, log);
    }

    /** The data path at endpoint {@code e}, on host {@code h} (its host). */
    private DataPath dataPath(Host h, Endpoint e) {
        return GpuDirectDecision.of(h, e.device(), options.gpudirect(), options.rma());
    }

    private List<RunResult.ResourceUsage> resourceUsage(double now) {
        double start = Double.POSITIVE_INFINITY;
        for (TransferResult r : results) {
            start = Math.min(start, r.startSeconds());
        }
        double span = results.isEmpty() ? 0 : now - start;
        List<RunResult.ResourceUsage> out = new ArrayList<>();
        for (Resource r : cluster.network().resources()) {
            double carried = r.bytesCarried(now);
            // Against its nominal capacity: a fault may have left it degraded at the end of the run.
            // (the map is empty without degradations: no lookup then, which would hash every resource)
            double capacity = nominalCapacity.isEmpty() ? r.capacity() : nominalCapacity.getOrDefault(r, r.capacity());
            double mean = span > 0 ? carried / span / capacity : 0;
            out.add(new RunResult.ResourceUsage(r.limit(), r.kind().name(), capacity, carried, r.peakLoad() / capacity,
                    mean));
        }
        return out;
    }

    /** Collects a NIC's transmit load as steps, merging changes at the same instant. */
    private static final class SeriesBuilder {
        private double[] t = new double[16];
        private double[] v = new double[16];
        private int n;

        void set(double now, double load) {
            double gbps = Units.bytesPerSecondToGbps(load);
            if (n > 0 && t[n - 1] == now) {
                v[n - 1] = gbps;
                return;
            }
            if (n == t.length) {
                t = java.util.Arrays.copyOf(t, n * 2);
                v = java.util.Arrays.copyOf(v, n * 2);
            }
            t[n] = now;
            v[n] = gbps;
            n++;
        }

        int size() {
            return n;
        }

        RunResult.LoadSeries build(String host, String nic) {
            return new RunResult.LoadSeries(host, nic, java.util.Arrays.copyOf(t, n), java.util.Arrays.copyOf(v, n));
        }
    }
}
