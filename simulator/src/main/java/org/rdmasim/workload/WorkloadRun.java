package org.rdmasim.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.function.Consumer;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.Operation;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.Units;
import org.rdmasim.transport.config.NcclPathType;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.GpuDirectDecision;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;

/**
 * Places a list of transfers in time on a cluster, runs the clock to the end, and collects the
 * result.
 */
public final class WorkloadRun {
    /**
     * Per-transfer options that come from the transport configuration.
     *
     * @param gpudirect GPUDirect RDMA available (peer memory module or dma-buf)
     */
    public record PathOptions(boolean gpudirect, boolean acs, double iommuPenalty) {
    }

    private final Cluster cluster;
    private final TransferEngine engine;
    private final LanePolicy lanes;
    private final PathOptions options;
    private final List<TransferResult> results = new ArrayList<>();
    private final Map<String, SeriesBuilder> series = new LinkedHashMap<>();
    private final Map<PlanKey, LanePolicy.Plan> plans = new HashMap<>();
    // Identity: specs of a counted host group are one shared instance; equal copies just get two ids.
    private final Map<HostSpec, Integer> shapes = new IdentityHashMap<>();

    public WorkloadRun(Cluster cluster, TransferEngine engine, LanePolicy lanes, PathOptions options) {
        this.cluster = cluster;
        this.engine = engine;
        this.lanes = lanes;
        this.options = options;
        for (Host h : cluster.hosts()) {
            for (TopologyNode nic : h.nics()) {
                SeriesBuilder b = new SeriesBuilder();
                series.put(h.name() + ":" + nic.name(), b);
            }
        }
        cluster.network().addObserver((r, now, load) -> {
            if (r.kind() == ResourceKind.NIC_TX) {
                series.get(r.name().substring(0, r.name().lastIndexOf(' '))).set(now, load);
            }
        }, java.util.EnumSet.of(ResourceKind.NIC_TX));
    }

    public RunResult run(List<TransferItem> items) {
        SimulationClock clock = cluster.network().clock();
        for (TransferItem item : items) {
            clock.scheduleAt(item.atSeconds(), new TransferPost(this, item));
        }
        clock.run();
        return collect(items.size(), null);
    }

    /** Runs a fan-out plan: transfers are generated as receivers arrive and finish. */
    public RunResult run(FanoutPlan plan, FanoutRun.Timing timing, org.rdmasim.engine.RandomStreams streams) {
        FanoutRun fanout = new FanoutRun(plan, timing, this, streams);
        fanout.start();
        cluster.network().clock().run();
        return collect(fanout.transfersPosted(), fanout.result());
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
    public void post(TransferItem item, Consumer<TransferResult> then) {
        LanePolicy.Plan plan = planFor(item);
        List<String> sourceNics = plan.lanes().stream().map(LaneSplit.Candidate::sourceNic).toList();
        List<String> sinkNics = plan.lanes().stream().map(LaneSplit.Candidate::sinkNic).toList();
        TransferSpec spec = new TransferSpec(item.id(), item.from(), item.to(), item.bytes(), item.operation(),
                item.descriptors(), dataPath(item.from(), sourceNics), dataPath(item.to(), sinkNics), options.acs(),
                options.iommuPenalty());
        engine.post(spec, LaneSplit.split(item.bytes(), plan.lanes(), plan.minChunk()), r -> {
            results.add(r);
            then.accept(r);
        });
    }

    /**
     * The lane plan of a transfer. UCX's choice depends on the two hosts' shapes, the devices and the
     * operation, never on host names or sizes, so a fan-out of thousands of identical hosts resolves it
     * once per shape pair instead of once per transfer.
     */
    private LanePolicy.Plan planFor(TransferItem item) {
        Host from = cluster.host(item.from().host());
        Host to = cluster.host(item.to().host());
        PlanKey key = new PlanKey(shapeId(from), item.from().device(), shapeId(to), item.to().device(),
                item.operation(), item.descriptors());
        LanePolicy.Plan plan = plans.get(key);
        if (plan == null) {
            TransferSpec provisional = new TransferSpec(item.id(), item.from(), item.to(), item.bytes(), item.operation(),
                    item.descriptors(), DataPath.GPUDIRECT, DataPath.GPUDIRECT, options.acs(), options.iommuPenalty());
            plan = lanes.plan(cluster, provisional);
            plans.put(key, plan);
        }
        return plan;
    }

    private int shapeId(Host h) {
        return shapes.computeIfAbsent(h.spec(), s -> shapes.size());
    }

    private record PlanKey(int fromShape, String fromDevice, int toShape, String toDevice, Operation operation,
            int descriptors) {
    }

    private RunResult collect(long flows, FanoutResult fanout) {
        SimulationClock clock = cluster.network().clock();
        results.sort(Comparator.comparing((TransferResult r) -> r.startSeconds()).thenComparing(r -> r.spec().id()));
        return new RunResult(results, nicTraffic(), resourceUsage(), nicSeries(), clock.eventsFired(), flows, fanout);
    }

    private DataPath dataPath(Endpoint e, List<String> nics) {
        return GpuDirectDecision.of(cluster.host(e.host()), e.device(), options.gpudirect());
    }

    private List<RunResult.NicTraffic> nicTraffic() {
        double now = cluster.network().clock().now();
        List<RunResult.NicTraffic> out = new ArrayList<>();
        for (Host h : cluster.hosts()) {
            for (TopologyNode nic : h.nics()) {
                out.add(new RunResult.NicTraffic(h.name(), nic.name(), Math.round(cluster.nicTx(nic).bytesCarried(now)),
                        Math.round(cluster.nicRx(nic).bytesCarried(now))));
            }
        }
        return out;
    }

    private List<RunResult.ResourceUsage> resourceUsage() {
        double now = cluster.network().clock().now();
        double start = Double.POSITIVE_INFINITY;
        for (TransferResult r : results) {
            start = Math.min(start, r.startSeconds());
        }
        double span = results.isEmpty() ? 0 : now - start;
        List<RunResult.ResourceUsage> out = new ArrayList<>();
        for (Resource r : cluster.network().resources()) {
            double carried = r.bytesCarried(now);
            double mean = span > 0 ? carried / span / r.capacity() : 0;
            out.add(new RunResult.ResourceUsage(r.name(), r.kind().name(), r.capacity(), carried,
                    r.peakLoad() / r.capacity(), mean));
        }
        return out;
    }

    private List<RunResult.LoadSeries> nicSeries() {
        List<RunResult.LoadSeries> out = new ArrayList<>();
        for (Map.Entry<String, SeriesBuilder> e : series.entrySet()) {
            if (e.getValue().size() > 0) {
                out.add(e.getValue().build(e.getKey()));
            }
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

        RunResult.LoadSeries build(String name) {
            return new RunResult.LoadSeries(name, java.util.Arrays.copyOf(t, n), java.util.Arrays.copyOf(v, n));
        }
    }
}
