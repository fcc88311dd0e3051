package org.rdmasim.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.refit.RefitSetup;
import org.rdmasim.refit.method.RefitResult;
import org.rdmasim.refit.method.RefitRun;
import org.rdmasim.refit.method.RefitStage;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.workload.RefitMethodKind;
import org.rdmasim.workload.RefitRegistrationMode;
import org.rdmasim.workload.RefitSpec;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.StageParameter;
import org.rdmasim.workload.Senders;
import org.rdmasim.workload.VariantOutcome;
import org.rdmasim.workload.WorkloadRun;

/**
 * Runs a refit variant: the plan {@link RefitSetup} builds from the scenario, on the variant's hosts, fabric
 * and transport backend ({@link RefitRun}); then the same variant again with each of the changes most likely
 * to shorten it, so the answer can say what each would buy.
 */
final class RefitVariant {
    /** Where the change reruns get their bucket when the method had none: checkpoint-engine's 8 GiB default. */
    private static final long DEFAULT_BUCKET = org.rdmasim.refit.method.Buckets.CHECKPOINT_ENGINE_MAX_BUCKET;

    private RefitVariant() {
    }

    static VariantOutcome run(VariantSpec v, List<Host> hosts, boolean withChanges, int threads,
            org.rdmasim.engine.RunWatch watch) {
        long t0 = System.nanoTime();
        Map<String, Host> byName = new HashMap<>();
        hosts.forEach(h -> byName.put(h.name(), h));
        RefitSpec spec = v.refitSpec();
        Ran ran;
        if (withChanges && threads > 1) {
            resetHeapPeak();
        }
        try {
            ran = once(v, hosts, byName, spec, watch);
        } catch (org.rdmasim.transport.config.ConfigValueException e) {
            // a configuration value that leaves the refit's transfers no lane (UCX_MAX_RMA_RAILS=0), found only where
            // the refit picks its lanes: bad input, placed at the line and field the user wrote it in (exit 2), as the
            // loader places the same value under a fan-out or a transfer list. A value no scenario line set (NIXL's,
            // ModelExpress's) fails the variant, the other variants still run.
            v.transport().atUserLine(e).ifPresent(located -> {
                throw located;
            });
            return VariantOutcome.failed(v.name(), v.description(), e.getMessage(), v.claim(), RegistrationTotals.ZERO);
        } catch (IllegalArgumentException e) {
            // a plan the method cannot carry on these hosts (RefitRun's documented refusals)
            return VariantOutcome.failed(v.name(), v.description(), e.getMessage(), v.claim(), RegistrationTotals.ZERO);
        }
        RefitSummary summary = ran.summary();
        if (withChanges) {
            int workers = threads > 1 ? rerunThreads(threads, heapPeak()) : 1;
            long r0 = System.nanoTime();
            summary = summary.withChanges(changes(v, hosts, byName, spec, workers, watch, summary));
            if (watch != null) {
                watch.reran(System.nanoTime() - r0);
            }
        }
        RunResult result = new RunResult(ran.result().transfers(), ran.nics(), ran.resources(), ran.series(), ran.events(),
                ran.result().transfers().size(), null, List.of(), summary);
        double wall = (System.nanoTime() - t0) / 1e9;
        return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", result, wall, v.claim(),
                RegistrationTotals.ZERO);
    }

    private record Ran(RefitResult result, RefitSummary summary, List<RunResult.NicTraffic> nics,
            List<RunResult.ResourceUsage> resources, List<RunResult.LoadSeries> series, long events) {
    }

    private static Ran once(VariantSpec v, List<Host> hosts, Map<String, Host> byName, RefitSpec spec,
            org.rdmasim.engine.RunWatch watch) {
        boolean usage = watch != null;
        RefitSetup setup = RefitSetup.of(spec, byName::get, v.transport().stack());
        // a GPU buffer's key covers only the HCAs UCX_MAX_HCA_PER_GPU leaves (every selected HCA when it is inf)
        LanePolicy lanes = v.transport().backend().lanes(v.transport().stack(),
                new org.rdmasim.memory.MemMapHcas(v.transport().stack(), byName::get));
        RefitRun.Transport transport = new RefitRun.Transport(lanes, v.protocol(), new WorkloadRun.PathOptions(
                v.transport().gpudirect(), v.transport().acs(), v.transport().iommuPenalty(),
                v.transport().backend().ucxRma()), v.registration().parameters(), v.transport().backend().sliceThread());
        List<RunResult.NicTraffic> nics = new ArrayList<>();
        List<RunResult.ResourceUsage> resources = new ArrayList<>();
        List<RunResult.LoadSeries> series = new ArrayList<>();
        long[] events = new long[1];
        if (watch != null) {
            // the bench's count: inference ranks refitted, each cycle (no one event marks one finished: the
            // cycle's end counts them all)
            watch.expect((long) setup.inference().worldSize() * spec.cycles(), null, 1);
        }
        org.rdmasim.engine.RunWatch.LoopStart t0 = watch == null ? null : watch.loopStart();
        RefitResult r = RefitRun.run(hosts, v.fabric(), setup.plan(), transport, VariantRunner::network, clock -> {
            if (watch != null) {
                watch.attach(clock);
            }
        }, run -> {
            events[0] = run.clock().eventsFired();
            if (watch != null) {
                VariantRunner.countWork(watch, run.cluster().network());
            }
            if (usage) {
                RunResult whole = run.snapshot();
                nics.addAll(whole.nics().stream().filter(n -> n.txBytes() > 0 || n.rxBytes() > 0).toList());
                series.addAll(whole.nicSeries());
                collect(run.cluster(), resources);
            }
        }, cycle -> {
            if (watch != null) {
                // every inference rank has its weights once the cycle ends
                watch.finished(setup.inference().worldSize());
            }
        });
        if (watch != null) {
            watch.simulated(t0);
        }
        return new Ran(r, summary(setup, r), nics, resources, series, events[0]);
    }

    /**
     * Resource use over the whole refit, from its start: a broadcast posts no transfer, so the span the
     * transfer tables measure from would be empty.
     */
    private static void collect(Cluster cluster, List<RunResult.ResourceUsage> out) {
        double now = cluster.network().clock().now();
        for (Resource r : cluster.network().resources()) {
            double carried = r.bytesCarried(now);
            if (carried <= 0) {
                continue;
            }
            double mean = now > 0 ? carried / now / r.capacity() : 0;
            out.add(new RunResult.ResourceUsage(r.limit(), r.kind().name(), r.capacity(), carried,
                    r.peakLoad() / r.capacity(), mean));
        }
    }

    static RefitSummary summary(RefitSetup setup, RefitResult r) {
        List<RefitSummary.Cycle> cycles = new ArrayList<>();
        for (RefitResult.Cycle c : r.cycles()) {
            Map<String, Double> stages = new LinkedHashMap<>();
            for (RefitStage s : RefitStage.values()) {
                Double sec = c.stageSeconds().get(s);
                stages.put(s.name().toLowerCase(Locale.ROOT), sec == null ? 0.0 : sec);
            }
            cycles.add(new RefitSummary.Cycle(c.index(), c.seconds(), stages, c.wireBytes(), c.bound()));
        }
        long runs = 0;
        for (var route : setup.map().routes()) {
            runs += route.runs();
        }
        return new RefitSummary(r.method(), setup.modelName(), r.minimumBytes(), setup.trainer().worldSize(),
                setup.inference().worldSize(), setup.map().routes().size(), runs, cycles, r.restsOn(), setup.describe(),
                List.of(), setup.conserved() && received(setup, r));
    }

    /**
     * Every inference rank received, in every cycle, what its layout needs (broadcasts: at least that; NCCL
     * send/recv with its misc parameters apart: exactly its FFN share plus every misc byte).
     */
    private static boolean received(RefitSetup setup, RefitResult r) {
        boolean broadcast = setup.plan().broadcastBytes() > 0;
        long[] exact = null;
        if (setup.plan().method() instanceof org.rdmasim.refit.method.NcclP2p p && p.bulk() != null) {
            // its own routes and replica fills, then the misc broadcast whole to every rank
            exact = new long[setup.inference().worldSize()];
            for (int rank = 0; rank < exact.length; rank++) {
                exact[rank] = p.shardToShardBytes(rank) + setup.plan().broadcastBytes();
            }
        }
        // checkpoint-engine's P2P update reaches the ranks it names only: the others must receive nothing
        int updated = setup.plan().method() instanceof org.rdmasim.refit.method.CheckpointEngine ce && ce.p2p()
                ? ce.p2pRanks() : setup.inference().worldSize();
        for (RefitResult.Cycle c : r.cycles()) {
            for (int rank = 0; rank < setup.inference().worldSize(); rank++) {
                long got = c.received().getOrDefault(rank, 0L);
                long need = setup.map().neededBytes(rank);
                boolean ok = rank >= updated ? got == 0 : exact != null ? got == exact[rank] && got >= need
                        : broadcast ? got >= need : got == need;
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Threads for the reruns: as many as asked, but no more than the heap holds side by side. Each rerun
     * builds a cluster about the size of the variant's own, so the heap's peak during the variant's run
     * (every pool's peak added up, garbage and what was live before included: an overestimate) is the
     * measure of one; a refit of a few thousand flows never comes near the limit.
     */
    private static int rerunThreads(int threads, long peakBytes) {
        if (threads <= 1 || peakBytes <= 0) {
            return Math.max(1, threads);
        }
        return (int) Math.max(1, Math.min(threads, Runtime.getRuntime().maxMemory() / peakBytes));
    }

    /** Starts measuring the heap's peak afresh. */
    private static void resetHeapPeak() {
        for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == java.lang.management.MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** The heap pools' peaks since {@link #resetHeapPeak}, added up. */
    private static long heapPeak() {
        long sum = 0;
        for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == java.lang.management.MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /**
     * The same variant rerun with one change each: more senders (a broadcast from every trainer rank),
     * striping over every compute NIC of a host (storage and management cards left out) (UCX_NET_DEVICES listing all, as many rails, registration on each),
     * a bucket four times as large, one arena registration, and each other method. Fastest first; a change
     * the variant already has is left out.
     */
    private static List<RefitSummary.Change> changes(VariantSpec v, List<Host> hosts, Map<String, Host> byName,
            RefitSpec spec, int threads, org.rdmasim.engine.RunWatch watch, RefitSummary ran) {
        Map<String, VariantSpec> tries = new LinkedHashMap<>();
        // the stage parameter each try takes away, by the try's words (none for a change of the deployment)
        Map<String, String> takenAway = new HashMap<>();
        // a calibrated stage cost that bounds the steady cycle, taken away: how much the answer hangs on a figure
        // measured elsewhere (another engine, another model), as a profile parameter's "without it" shows; one the
        // scenario states is the scenario's own figure, not a calibration
        for (StageParameter p : ran.calibratedBound()) {
            if (!spec.stageSeconds().containsKey(p.key())) {
                String change = "without the calibrated " + p.key() + " (0 s), which bounds the steady cycle";
                tries.put(change, v.withRefit(spec.withStage(p.key(), 0.0)));
                takenAway.put(change, p.key());
            }
        }
        RefitSpec.Knobs k = spec.knobs();
        RefitMethodKind method = spec.method();
        if (method == RefitMethodKind.NCCL_BROADCAST && !k.allSenders()) {
            tries.put("more senders: broadcast striped over every trainer rank (senders: all)",
                    v.withRefit(spec.withMethod(method, k.withSenders(Senders.ALL))));
        }
        // UCX_NET_DEVICES and UCX_MAX_RMA_RAILS stripe only what rides UCX's lanes (not a host replica's writes,
        // which take Mooncake's HCAs for the memory's socket)
        if (method.ridesUcxLanes(k.hostReplica())) {
            Host first = byName.get(spec.inferenceHosts().get(0));
            List<TopologyNode> compute = first.computeNics();
            int nics = compute.size();
            int registered = RefitSetup.registrationHcas(spec, RefitSetup.ucxMappedHcas(v.transport().stack(),
                    byName.get(spec.trainerHosts().get(0))));
            boolean already = registered >= nics && v.transport().stack().env().stream()
                    .anyMatch(e -> e.name().equals("UCX_MAX_RMA_RAILS") && e.value().strip().matches("[0-9]+")
                            && Integer.parseInt(e.value().strip()) >= nics);
            if (nics > 1 && !already) {
                String devices = String.join(",", compute.stream().map(n -> n.name() + ":1").toList());
                List<EnvEntry> env = new ArrayList<>(v.transport().stack().env());
                env.removeIf(e -> e.name().equals("UCX_NET_DEVICES") || e.name().equals("UCX_MAX_RMA_RAILS")
                        || e.name().equals("MX_RDMA_NIC_PIN"));
                env.add(new EnvEntry("MX_RDMA_NIC_PIN", "stripe", "what would halve it", 0));
                env.add(new EnvEntry("UCX_NET_DEVICES", devices, "what would halve it", 0));
                env.add(new EnvEntry("UCX_MAX_RMA_RAILS", String.valueOf(nics), "what would halve it", 0));
                VariantSpec striped = v.withTransport(v.transport().withStack(v.transport().stack().withEnv(env)));
                tries.put("striping over all " + nics + " compute NICs (UCX_NET_DEVICES=" + devices + ", UCX_MAX_RMA_RAILS="
                        + nics + ", registered on each)", striped.withRefit(spec.withRegistration(spec.registration(),
                                Math.max(registered, nics))));
            }
        }
        if (k.bucketBytes() > 0) {
            tries.put("a bucket of " + Units.sizeAsWritten(4 * k.bucketBytes(), "") + " (4x)", v.withRefit(
                    spec.withMethod(method, k.withBucket(4 * k.bucketBytes()))));
        }
        // a colocated refit registers nothing (no NIC touches its bytes); NCCL send/recv nothing of its own per
        // refit (its staging buffers come with the communicator)
        if (spec.registration() != RefitRegistrationMode.ARENA && method != RefitMethodKind.COLOCATED_IPC
                && method != RefitMethodKind.NCCL_P2P) {
            tries.put("one arena registration (MX_VMM_ARENA=1)", v.withRefit(spec.withRegistration(
                    RefitRegistrationMode.ARENA, spec.registrationHcas())));
        }
        if (method == RefitMethodKind.COLOCATED_IPC) {
            // the other methods move weights between GPUs of their own: not a change on colocated GPUs
            tries.put(k.hostBounce() ? "no host bounce (tensors kept on the GPU end to end)"
                    : "a host bounce (D2H then H2D) on every bucket", v.withRefit(spec.withMethod(method,
                            k.withHostBounce(!k.hostBounce()))));
        }
        long bucket = k.bucketBytes() > 0 ? k.bucketBytes() : DEFAULT_BUCKET;
        for (RefitMethodKind m : RefitMethodKind.comparedKinds()) {
            // a colocated refit's trainer and engine share GPUs: swapping in a method that crosses NICs is
            // another deployment, not an alternative for it
            if (m == method || method == RefitMethodKind.COLOCATED_IPC) {
                continue;
            }
            boolean bucketed = m.bucketed();
            boolean all = m == RefitMethodKind.NCCL_BROADCAST;
            tries.put("method " + m.spelling() + (bucketed ? " (bucket " + Units.sizeAsWritten(bucket, "") + ")" : "")
                    + (all ? ", all trainer ranks sending" : ""), v.withRefit(spec.withMethod(m,
                            RefitSpec.Knobs.of(all ? Senders.ALL : Senders.RANK_ZERO, 0, bucketed ? bucket : 0, true)
                                    .withVerlManager(k.verlManager() && m.verlEngine()))));
        }
        List<Map.Entry<String, VariantSpec>> each = List.copyOf(tries.entrySet());
        AtomicInteger begun = new AtomicInteger();
        // Each try is a refit of its own on its own cluster (the hosts are only read), so they run side by
        // side as replications do; the list comes back in the tries' order whatever the thread count.
        List<RefitSummary.Change> out = new ArrayList<>(VariantRunner.replicate(each.size(), threads, i -> {
            Map.Entry<String, VariantSpec> e = each.get(i);
            VariantSpec changed = e.getValue();
            if (watch != null) {
                // each try is a whole refit of its own, which the variant's own counts do not show
                watch.doing("what would halve it: " + begun.incrementAndGet() + " of " + each.size() + ", " + e.getKey());
            }
            try {
                RefitSummary s = once(changed, hosts, byName, changed.refitSpec(), null).summary();
                return new RefitSummary.Change(e.getKey(), s.firstCycleSeconds(), s.steadyCycleSeconds(), "",
                        takenAway.getOrDefault(e.getKey(), ""));
            } catch (IllegalArgumentException | org.rdmasim.transport.config.ConfigValueException ex) {
                // a method this variant's NCCL_IB_HCA cannot carry is a change that does not apply
                return new RefitSummary.Change(e.getKey(), Double.NaN, Double.NaN, ex.getMessage(),
                        takenAway.getOrDefault(e.getKey(), ""));
            }
        }));
        if (watch != null) {
            watch.doing(null);
        }
        // By steady cycle to the nanosecond: changes whose cycles agree to rounding (two that leave the same
        // NICs bound) keep the order they are tried in, not the order their last bits happen to fall in.
        out.sort(Comparator.comparingLong((RefitSummary.Change c) -> Double.isNaN(c.steadyCycleSeconds())
                ? Long.MAX_VALUE : Math.round(c.steadyCycleSeconds() * 1e9)));
        return out;
    }
}
