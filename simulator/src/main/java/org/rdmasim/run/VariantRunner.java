package org.rdmasim.run;

import org.rdmasim.scenario.VariantSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FlowTap;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.transport.ExplicitLanes;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.scenario.TransportSettings;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;
import org.rdmasim.workload.WorkloadRun;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.rdmasim.engine.RandomStreams;
import org.rdmasim.workload.ConfigAudit;
import org.rdmasim.engine.RunWatch;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.FanoutRun;
import org.rdmasim.workload.FaultCost;
import org.rdmasim.workload.Jitter;
import org.rdmasim.workload.ReplicationStats;
import umontreal.ssj.rng.RandomStream;

/**
 * Builds one variant's cluster and runs its workload: once for a list of transfers, or for a fan-out
 * plan once per replication, replications in parallel (one clock and one cluster each, results kept in
 * replication order so the output does not depend on the thread count).
 */
public final class VariantRunner {
    private VariantRunner() {
    }

    public static VariantOutcome run(VariantSpec v, long seed) {
        return run(v, seed, 1, 1);
    }

    /**
     * A refit variant run once, without the reruns that price "what would halve it" (validation needs the
     * refit's own times only, and the reruns would multiply its wall time by the number of changes).
     */
    public static VariantOutcome runRefitOnly(VariantSpec v) {
        if (!v.isRefit()) {
            throw new IllegalArgumentException("variant " + v.name() + " does not run a refit");
        }
        return RefitVariant.run(v, hostsOf(v), false, 1, new RunWatch());
    }

    /**
     * As {@link #runRefitOnly}, with the registrations its lanes are shown over, set up as every run's
     * ({@link #prepare}): a refit's transfers register by its own plan, but the lanes {@code size} shows beside
     * a point are UCX's decision over the variant's registrations, as {@code explain} shows them.
     */
    public static Run runRefitOnlyHeld(VariantSpec v) {
        if (!v.isRefit()) {
            throw new IllegalArgumentException("variant " + v.name() + " does not run a refit");
        }
        Prepared p = prepare(v);
        return new Run(RefitVariant.run(v, p.hosts(), false, 1, new RunWatch()), p.held());
    }

    public static VariantOutcome run(VariantSpec v, long seed, int replications, int threads) {
        return run(v, seed, replications, threads, new RunWatch());
    }

    /** As {@link #run(VariantSpec, long, int, int)}, with every replication's clock shown to {@code watch}. */
    public static VariantOutcome run(VariantSpec v, long seed, int replications, int threads, RunWatch watch) {
        return runHeld(v, seed, replications, threads, watch).outcome();
    }

    /**
     * A variant's run, and what the registrations it made decide for its lanes: those {@code explain} and
     * {@code size} show beside the outcome, taken from the run rather than registered again.
     */
    public record Run(VariantOutcome outcome, Held registrations) {
    }

    /** As {@link #run(VariantSpec, long)}, with the registrations the run made. */
    public static Run runHeld(VariantSpec v, long seed) {
        return runHeld(v, seed, 1, 1, new RunWatch());
    }

    /** As {@link #run(VariantSpec, long, int, int)}, with the registrations the run made. */
    public static Run runHeld(VariantSpec v, long seed, int replications, int threads) {
        return runHeld(v, seed, replications, threads, new RunWatch());
    }

    /** What every run of a variant sets up first: its start time, hosts, registrations and held lanes. */
    private record Prepared(long t0, List<Host> hosts, VariantRegistrations registrations, Held held) {
    }

    /** Registered once: the run, its audit's lane decision and the fault-free rerun all read these. */
    private static Prepared prepare(VariantSpec v) {
        long t0 = System.nanoTime();
        List<Host> hosts = hostsOf(v);
        VariantRegistrations registrations = VariantRegistrations.of(v, hosts);
        return new Prepared(t0, hosts, registrations, heldOrEverywhere(registrations));
    }

    private static Run runHeld(VariantSpec v, long seed, int replications, int threads, RunWatch watch) {
        Prepared prepared = prepare(v);
        List<Host> hosts = prepared.hosts();
        VariantRegistrations registrations = prepared.registrations();
        Held held = prepared.held();
        VariantOutcome outcome = audited(v, held, runAsWritten(v, hosts, registrations, held, prepared.t0(), seed, 0,
                replications, threads, watch, null));
        if (v.faults().isEmpty() || outcome.status() != VariantOutcome.Status.OK) {
            return new Run(outcome, held);
        }
        // The cost of the faults: the same variant, same seed, without them. Faults change no buffer, host or
        // setting a registration reads, so the rerun registers as the run did.
        VariantOutcome clean = runAsWritten(v.withFaults(v.faults().withoutFaults()), hosts, registrations, held,
                System.nanoTime(), seed, 0, 1, 1, new RunWatch(), null);
        FaultCost cost = FaultCost.of(v.faults(), outcome.result(), clean.result());
        VariantOutcome costed = outcome.withFaultCost(cost);
        if (cost.gaveUp() > 0 && Double.isNaN(cost.maxPullWith())) {
            // Nothing arrived: a run with no successful pull has no pull time to report, and its makespan
            // (up to the last give-up) is not a time to compare with the others.
            String what = v.isFanout() ? "receiver" : "transfer";
            double lastGaveUp = 0;
            if (outcome.result().fanout() != null) {
                for (var p : outcome.result().fanout().pulls()) {
                    lastGaveUp = Math.max(lastGaveUp, p.finishSeconds());
                }
            }
            for (var t : outcome.result().transfers()) {
                lastGaveUp = Math.max(lastGaveUp, t.finishSeconds());
            }
            return new Run(costed.asFailed(String.format(java.util.Locale.ROOT,
                    "every %s gave up (%d of %d; %d attempt(s) failed), the last at %s s of simulated time; without "
                            + "the faults the run takes %s s", what, cost.gaveUp(), cost.gaveUp(), cost.failedAttempts(),
                    org.rdmasim.hardware.Units.number(lastGaveUp),
                    org.rdmasim.hardware.Units.number(cost.makespanWithout()))), held);
        }
        return new Run(costed, held);
    }

    /**
     * Replication {@code replication} alone (its own seeded streams, as in a run of many), without the
     * fault-free rerun: one row of a study. A list of transfers has one replication, whatever the index.
     */
    public static VariantOutcome runReplication(VariantSpec v, long seed, int replication) {
        if (replication < 0) {
            throw new IllegalArgumentException("a replication index is at least 0, got " + replication);
        }
        Prepared p = prepare(v);
        return audited(v, p.held(), runAsWritten(v, p.hosts(), p.registrations(), p.held(), p.t0(), seed, replication,
                1, 1, new RunWatch(), null));
    }

    /**
     * Runs the variant as written (first replication, no fault-free rerun) and shows every flow it
     * starts to {@code tap}, to pose the run again for another solver.
     */
    public static void runTapped(VariantSpec v, long seed, FlowTap tap) {
        Prepared p = prepare(v);
        VariantOutcome outcome = runAsWritten(v, p.hosts(), p.registrations(), p.held(), p.t0(), seed, 0, 1, 1,
                new RunWatch(), tap);
        if (outcome.status() != VariantOutcome.Status.OK) {
            throw new IllegalStateException("variant " + v.name() + " failed: " + outcome.error());
        }
    }

    /**
     * Replications {@code first} to {@code first + replications - 1} on {@code hosts}, registered as
     * {@code registrations} say, lanes and write order as {@code held} (from them) says (a refit registers by
     * its own plan); wall time from {@code t0}.
     */
    private static VariantOutcome runAsWritten(VariantSpec v, List<Host> hosts, VariantRegistrations registrations,
            Held held, long t0, long seed, int first, int replications, int threads, RunWatch watch, FlowTap log) {
        if (v.isRefit()) {
            return RefitVariant.run(v, hosts, true, threads, watch);
        }
        VariantRegistration.Outcome registration = registrations.outcome();
        if (!registration.passed()) {
            return VariantOutcome.failed(v.name(), v.description(), registration.error(), v.claim(), registration.totals())
                    .withRegistrationParts(registrations.parts());
        }
        if (!v.isFanout()) {
            RunResult result = runOnce(v, hosts, seed, 0, FanoutRun.Timing.NONE, held, watch, log);
            double wall = (System.nanoTime() - t0) / 1e9;
            return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", result, wall, v.claim(),
                    registration.totals()).withRegistrationParts(registrations.parts());
        }
        FanoutRun.Timing timing = new FanoutRun.Timing(registrations.cycleSeconds(true), registrations.cycleSeconds(false));
        List<RunResult> results = replicate(replications, threads, i -> runOnce(v, hosts, seed, first + i, timing, held,
                watch, i == 0 ? log : null));
        double wall = (System.nanoTime() - t0) / 1e9;
        return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", results.get(0), wall, v.claim(),
                registration.totals(), ReplicationStats.of(results)).withRegistrationParts(registrations.parts());
    }

    /**
     * {@code outcome} with its audit, and why its lanes left out NICs the user listed when they did, in the lane
     * decision over {@code held}, the registrations of the run.
     */
    private static VariantOutcome audited(VariantSpec v, Held held, VariantOutcome outcome) {
        ConfigAudit a = VariantAudit.audit(v);
        return outcome.withAudit(a.withUnusedWhy(ListedNicsLeftOut.why(v, a, outcome.result(), held))
                .withWhatIf(v.whatIf().orElse(null)).withWarnings(v.warnings()));
    }

    /** The variant's hosts; a counted host group shares one spec instance, and its hosts one shape. */
    static List<Host> hostsOf(VariantSpec v) {
        return Host.all(v.hosts());
    }

    /** The variant's registrations as its run makes them (fan-outs through one host per group). */
    public static VariantRegistration.Outcome registrationOutcome(VariantSpec v, List<Host> hosts) {
        return VariantRegistrations.of(v, hosts).outcome();
    }

    /**
     * Which HCAs hold each buffer once the variant has registered, the same answer its run's lane
     * choice reads ({@code explain} shows lanes from it); everywhere when registration fails.
     */
    public static Held registrationsOf(VariantSpec v) {
        return heldOrEverywhere(VariantRegistrations.of(v, hostsOf(v)));
    }

    private static Held heldOrEverywhere(VariantRegistrations registrations) {
        return registrations.outcome().passed() ? held(registrations)
                : new Held(UcxLaneSelection.Registrations.EVERYWHERE, WriteOrdering.RELAXED);
    }

    /**
     * What the variant's registrations decide for its run.
     *
     * @param lanes    which HCAs hold each buffer as its rkey says, for lane choice: UCX skips a lane whose
     *                 remote memory domain is not in the rkey (openucx/ucx src/ucp/proto/proto_common.c,
     *                 {@code ucp_proto_common_find_lanes}, v1.20.0 L658-667)
     * @param ordering which HCAs write into each buffer in strict PCIe order: its MR there lacks relaxed
     *                 ordering
     */
    public record Held(UcxLaneSelection.Registrations lanes, WriteOrdering ordering) {
    }

    /**
     * A host registered through the representative of its group (same shape, same buffers)
     * holds what its representative holds; buffers not registered here are taken as registered
     * everywhere, in relaxed order.
     */
    static Held held(VariantRegistrations registrations) {
        Map<String, String> representativeOf = registrations.representativeOf();
        Map<String, String> rkeyRepresentativeOf = registrations.byMemMap().representativeOf();
        Map<String, Map<String, java.util.Set<String>>> held = new java.util.HashMap<>();
        Map<String, Map<String, java.util.Set<String>>> strict = new java.util.HashMap<>();
        // lanes go by the rkeys the peers were given, before any first-use registration
        for (VariantRegistration.HostOutcome h : registrations.byMemMap().outcome().hosts()) {
            for (org.rdmasim.memory.RegistrationPlan p : h.plans()) {
                held.computeIfAbsent(h.host(), k -> new java.util.HashMap<>())
                        .computeIfAbsent(p.region().deviceName(), k -> new java.util.HashSet<>()).addAll(p.hcaNames());
            }
        }
        // write order by every MR the buffer has once the lanes have used it
        for (VariantRegistration.HostOutcome h : registrations.outcome().hosts()) {
            for (org.rdmasim.memory.RegistrationPlan p : h.plans()) {
                for (org.rdmasim.memory.HcaRegistration r : p.perHca()) {
                    if (!r.relaxedOrdering()) {
                        strict.computeIfAbsent(h.host(), k -> new java.util.HashMap<>())
                                .computeIfAbsent(p.region().deviceName(), k -> new java.util.HashSet<>())
                                .add(r.hca().name());
                    }
                }
            }
        }
        UcxLaneSelection.Registrations lanes = (host, device, nic) -> {
            Map<String, java.util.Set<String>> byDevice = held.get(rkeyRepresentativeOf.getOrDefault(host, host));
            java.util.Set<String> nics = byDevice == null ? null : byDevice.get(device);
            return nics == null || nics.contains(nic);
        };
        WriteOrdering ordering = (host, device, nic) -> {
            Map<String, java.util.Set<String>> byDevice = strict.get(representativeOf.getOrDefault(host, host));
            java.util.Set<String> nics = byDevice == null ? null : byDevice.get(device);
            return nics != null && nics.contains(nic);
        };
        return new Held(lanes, ordering);
    }

    /**
     * Runs {@code n} independent runs (replications, or a refit's reruns) on up to {@code threads} threads;
     * results in index order, whatever the thread count.
     */
    static <T> List<T> replicate(int n, int threads, IntFunction<T> one) {
        int workers = Math.max(1, Math.min(threads, n));
        if (workers == 1) {
            List<T> out = new ArrayList<>(n);
            for (int r = 0; r < n; r++) {
                out.add(one.apply(r));
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(workers, task -> {
            Thread t = new Thread(task, "rdmasim-replication");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> futures = new ArrayList<>(n);
            for (int r = 0; r < n; r++) {
                int rep = r;
                futures.add(pool.submit(() -> one.apply(rep)));
            }
            List<T> out = new ArrayList<>(n);
            for (Future<T> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running in parallel", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** The bench's work counters of a run's network: its rate solves, the flows they re-rated, groups dissolved. */
    static void countWork(RunWatch watch, FluidNetwork network) {
        watch.count("rate solves", network::solves);
        watch.count("flows solved", network::flowsSolved);
        watch.count("groups dissolved", network::groupFallbacks);
    }

    /**
     * The fluid network of one run on {@code clock}, as {@link RunChecks} asks: flows held together at one
     * resource share a rate (same max-min rates, finish times to rounding) except on the reference path, and
     * every event is verified under {@code run --check}. Fan-outs, transfer lists and refits all take theirs here.
     */
    static FluidNetwork network(SimulationClock clock) {
        return new FluidNetwork(clock).grouping(RunChecks.reference() ? 0 : FluidNetwork.DEFAULT_GROUP_MIN)
                .verifying(RunChecks.verifying());
    }

    /** One replication: its own clock, network and cluster, NIC rates jittered from its own streams. */
    static RunResult runOnce(VariantSpec v, List<Host> hosts, long seed, int replication, FanoutRun.Timing timing,
            Held registrations, RunWatch watch, FlowTap log) {
        RandomStreams streams = new RandomStreams(seed, replication);
        SimulationClock clock = new SimulationClock();
        watch.attach(clock);
        FluidNetwork network = network(clock);
        if (log != null) {
            network.logging(log);
        }
        countWork(watch, network);
        Jitter jitter = v.isFanout() ? v.fanoutPlan().jitter() : Jitter.NONE;
        Cluster cluster;
        if (jitter.nicRateFraction() > 0) {
            RandomStream rates = streams.stream("nic-rate");
            double f = jitter.nicRateFraction();
            cluster = new Cluster(hosts, v.fabric(), network, (h, nic) -> 1 + f * (2 * rates.nextDouble() - 1));
        } else {
            cluster = new Cluster(hosts, v.fabric(), network);
        }
        if (RunChecks.reference()) {
            cluster.allResources();
        }
        TransferEngine engine = new TransferEngine(cluster, v.protocol(), v.faults().qpRetry(), registrations.ordering())
                .withSliceThread(v.transport().backend().sliceThread());
        LanePolicy lanes = !v.transport().lanes().isEmpty() ? new ExplicitLanes(v.transport().lanes())
                : v.transport().backend().lanes(v.transport().stack(), registrations.lanes());
        WorkloadRun run = new WorkloadRun(cluster, engine, lanes, new WorkloadRun.PathOptions(v.transport().gpudirect(),
                v.transport().acs(), v.transport().iommuPenalty(), v.transport().backend().ucxRma())).withFaults(v.faults());
        // A transfer is done when the initiator's notice fires; a receiver when all its GPUs' are.
        if (!v.isFanout()) {
            watch.expect(v.transfers().size(), TransferEngine.TransferNotice.class, 1);
        } else {
            FanoutPlan plan = v.fanoutPlan();
            watch.expect((long) plan.receivers().size() * plan.cycles().count(), TransferEngine.TransferNotice.class,
                    plan.receivers().get(0).gpus().size());
        }
        RunWatch.LoopStart t0 = watch.loopStart();
        try {
            return v.isFanout() ? run.run(v.fanoutPlan(), timing, streams) : run.run(v.transfers());
        } finally {
            watch.simulated(t0);
        }
    }

    /** Where each process registers a buffer: its transfer backend says, the registration model prices it. */
    static VariantRegistration.Sites sites(VariantSpec v) {
        TransportSettings t = v.transport();
        return (host, device) -> t.backend().registration(t.stack(), host, host.find(device).orElseThrow(),
                t.gpudirect());
    }
}
