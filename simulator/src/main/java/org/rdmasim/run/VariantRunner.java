package org.rdmasim.run;

import org.rdmasim.scenario.VariantSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.memory.MemoryRegion;
import org.rdmasim.memory.RegistrationModel;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FlowTap;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.transport.ExplicitLanes;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.config.NcclPathType;
import org.rdmasim.transport.WriteOrdering;
import org.rdmasim.scenario.TransportSettings;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.transport.config.EnvEntry;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;
import org.rdmasim.workload.WorkloadRun;
import java.util.HashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.rdmasim.engine.RandomStreams;
import org.rdmasim.transport.Operation;
import org.rdmasim.hardware.Units;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.transport.config.NetDevices;
import org.rdmasim.transport.config.EffectiveConfig;
import org.rdmasim.transport.config.ConfigOverride;
import org.rdmasim.workload.ConfigAudit;
import org.rdmasim.engine.RunWatch;
import org.rdmasim.memory.RegistrationTotals;
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

    public static VariantOutcome run(VariantSpec v, long seed, int replications, int threads) {
        return run(v, seed, replications, threads, new RunWatch());
    }

    /** As {@link #run(VariantSpec, long, int, int)}, with every replication's clock shown to {@code watch}. */
    public static VariantOutcome run(VariantSpec v, long seed, int replications, int threads, RunWatch watch) {
        VariantOutcome outcome = audited(v, runAsWritten(v, seed, replications, threads, watch));
        if (v.faults().isEmpty() || outcome.status() != VariantOutcome.Status.OK) {
            return outcome;
        }
        // The cost of the faults: the same variant, same seed, without them.
        VariantOutcome clean = runAsWritten(v.withFaults(v.faults().withoutFaults()), seed, 1, 1, new RunWatch());
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
            return costed.asFailed(String.format(java.util.Locale.ROOT,
                    "every %s gave up (%d of %d; %d attempt(s) failed), the last at %s s of simulated time; without "
                            + "the faults the run takes %s s", what, cost.gaveUp(), cost.gaveUp(), cost.failedAttempts(),
                    org.rdmasim.hardware.Units.number(lastGaveUp),
                    org.rdmasim.hardware.Units.number(cost.makespanWithout())));
        }
        return costed;
    }

    /**
     * Replication {@code replication} alone (its own seeded streams, as in a run of many), without the
     * fault-free rerun: one row of a study. A list of transfers has one replication, whatever the index.
     */
    public static VariantOutcome runReplication(VariantSpec v, long seed, int replication) {
        if (replication < 0) {
            throw new IllegalArgumentException("a replication index is at least 0, got " + replication);
        }
        return audited(v, runAsWritten(v, seed, replication, 1, 1, new RunWatch(), null));
    }

    /**
     * Runs the variant as written (first replication, no fault-free rerun) and shows every flow it
     * starts to {@code tap}, to pose the run again for another solver.
     */
    public static void runTapped(VariantSpec v, long seed, FlowTap tap) {
        VariantOutcome outcome = runAsWritten(v, seed, 0, 1, 1, new RunWatch(), tap);
        if (outcome.status() != VariantOutcome.Status.OK) {
            throw new IllegalStateException("variant " + v.name() + " failed: " + outcome.error());
        }
    }

    private static VariantOutcome runAsWritten(VariantSpec v, long seed, int replications, int threads, RunWatch watch) {
        return runAsWritten(v, seed, 0, replications, threads, watch, null);
    }

    /** Replications {@code first} to {@code first + replications - 1}. */
    private static VariantOutcome runAsWritten(VariantSpec v, long seed, int first, int replications, int threads,
            RunWatch watch, FlowTap log) {
        if (v.isRefit()) {
            return RefitVariant.run(v, hostsOf(v), true, threads, watch);
        }
        long t0 = System.nanoTime();
        List<Host> hosts = hostsOf(v);
        Map<String, String> representativeOf = new HashMap<>();
        VariantRegistration.Outcome registration = v.isFanout() ? registerFanout(v, hosts, representativeOf)
                : register(v, hosts, representativeOf);
        if (!registration.passed()) {
            return VariantOutcome.failed(v.name(), v.description(), registration.error(), v.claim(), registration.totals());
        }
        if (!v.isFanout()) {
            RunResult result = runOnce(v, hosts, seed, 0, FanoutRun.Timing.NONE, held(registration, representativeOf),
                    watch, log);
            double wall = (System.nanoTime() - t0) / 1e9;
            return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", result, wall, v.claim(),
                    registration.totals());
        }
        // Hosts register in parallel, so a cycle waits for the slowest host's registration.
        double perCycle = 0;
        for (VariantRegistration.HostOutcome h : registration.hosts()) {
            perCycle = Math.max(perCycle, h.totals().registrationSeconds());
        }
        FanoutRun.Timing timing = new FanoutRun.Timing(perCycle);
        Held held = held(registration, representativeOf);
        List<RunResult> results = replicate(replications, threads, i -> runOnce(v, hosts, seed, first + i, timing, held,
                watch, i == 0 ? log : null));
        double wall = (System.nanoTime() - t0) / 1e9;
        return new VariantOutcome(v.name(), v.description(), VariantOutcome.Status.OK, "", results.get(0), wall, v.claim(),
                registration.totals(), ReplicationStats.of(results));
    }

    /** {@code outcome} with its audit, and why its lanes left out NICs the user listed when they did. */
    private static VariantOutcome audited(VariantSpec v, VariantOutcome outcome) {
        ConfigAudit a = audit(v);
        return outcome.withAudit(a.withUnusedWhy(ListedNicsLeftOut.why(v, a, outcome.result())));
    }

    /**
     * What the variant's initiating processes run with that its scenario does not say: every value a layer
     * replaced or the library ignored (once each), and the NICs the first initiator's user-set
     * UCX_NET_DEVICES lists. Explicit lanes bypass UCX's choice, so they have nothing to audit.
     */
    static ConfigAudit audit(VariantSpec v) {
        List<ConfigAudit.Assumption> restsOn = restsOn(v);
        if (!v.transport().lanes().isEmpty()) {
            return new ConfigAudit(List.of(), "", List.of(), restsOn);
        }
        List<TransferItem> items = v.isFanout() ? v.fanoutPlan().firstPull() : v.transfers();
        Map<String, ConfigOverride> seen = new LinkedHashMap<>();
        // A process's configuration depends on its host's shape (StackProfile caches it per spec): one host
        // is built per shape (a counted group shares its spec instance), not one per initiating host.
        Map<HostSpec, Host> shapes = new java.util.IdentityHashMap<>();
        java.util.Set<String> processes = new java.util.HashSet<>();
        String first = "";
        Host firstHost = null;
        List<String> listed = List.of();
        for (TransferItem t : items) {
            Endpoint init = t.operation() == Operation.READ ? t.to() : t.from();
            if (!processes.add(init.toString())) {
                continue;
            }
            HostSpec spec = v.hosts().get(init.host());
            if (spec == null) {
                continue;
            }
            Host h = shapes.computeIfAbsent(spec, s -> new Host(init.host(), s));
            TopologyNode d = h.find(init.device()).orElse(null);
            if (d == null) {
                continue;
            }
            EffectiveConfig c = v.transport().stack().configFor(h, d);
            for (ConfigOverride o : c.overrides()) {
                seen.putIfAbsent(o.variable() + '\0' + o.userValue() + '\0' + o.effectiveValue(), o);
            }
            if (first.isEmpty()) {
                first = init.toString();
                firstHost = h;
                listed = listedNics(v.transport().stack(), c, h);
            }
        }
        if (!v.transport().stack().installStated() && firstHost != null) {
            if (v.transport().stack().installMatters(firstHost)) {
                var install = v.transport().stack().install();
                restsOn.add(0, new ConfigAudit.Assumption("UCX install: " + install.yamlName()
                        + " (not stated by the scenario: the common install for this stack)", "assumed",
                        install.description() + "; `explain` shows the answer under ucxInstall: "
                                + install.other().yamlName()));
            }
        }
        return new ConfigAudit(new ArrayList<>(seen.values()), first, listed, restsOn);
    }

    /**
     * What the variant's answer rests on beyond mechanisms: the calibrated and assumed parameters of its
     * hosts' profiles, and the defaults an importer filled in for what a host file did not say.
     */
    private static List<ConfigAudit.Assumption> restsOn(VariantSpec v) {
        List<ConfigAudit.Assumption> out = new ArrayList<>();
        java.util.Set<String> profiles = new java.util.LinkedHashSet<>();
        java.util.Set<HostSpec> shapes = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (HostSpec spec : v.hosts().values()) {
            if (shapes.add(spec)) {
                profiles.add(CalibrationProfile.forHost(spec).name());
            }
        }
        for (String name : profiles) {
            for (var p : CalibrationProfile.named(name).assumptions()) {
                out.add(new ConfigAudit.Assumption("profile " + name + ": " + p.key() + " = "
                        + Units.number(p.value()) + " " + p.unit(),
                        p.kind().name().toLowerCase(java.util.Locale.ROOT),
                        p.source() + (p.assumption().isEmpty() ? "" : ". " + p.assumption())));
            }
        }
        // Registration time rests on calibrated and assumed terms by memory type (RegistrationParameters.terms).
        boolean gpu = false;
        boolean hostMemory = false;
        // Whether a device is a GPU is a fact about the host's shape: one host is built per shape (a
        // counted group shares its spec instance), not one per endpoint of a 4,096-transfer list.
        Map<HostSpec, Host> built = new java.util.IdentityHashMap<>();
        for (TransferItem t : v.isFanout() ? v.fanoutPlan().firstPull() : v.transfers()) {
            for (Endpoint e : List.of(t.from(), t.to())) {
                HostSpec spec = v.hosts().get(e.host());
                if (spec == null) {
                    continue;
                }
                Host h = built.computeIfAbsent(spec, s -> new Host(e.host(), s));
                boolean onGpu = h.find(e.device()).map(n -> n.kind() == TopologyNode.Kind.GPU).orElse(false);
                gpu |= onGpu;
                hostMemory |= !onGpu;
            }
        }
        for (var term : v.registration().parameters().terms(gpu, hostMemory)) {
            out.add(new ConfigAudit.Assumption(term.what(), term.kind(), term.source()));
        }
        for (String w : new java.util.LinkedHashSet<>(v.warnings())) {
            if (w.contains(" taken as ")) {
                out.add(new ConfigAudit.Assumption(w.replaceAll("^.*/([^/]+:[0-9]+): ", "$1: "),
                        "assumed", "an importer default for what the host file does not say"));
            }
        }
        return out;
    }

    /** The NICs the user's own UCX_NET_DEVICES names on {@code h} (before any layer replaced it), or none. */
    private static List<String> listedNics(StackProfile stack, EffectiveConfig c, Host h) {
        String raw = null;
        for (EnvEntry e : stack.env()) {
            if (e.name().equals("UCX_NET_DEVICES")) {
                raw = e.value(); // the last one set wins, as in a shell
            }
        }
        if (raw == null) {
            return List.of();
        }
        List<String> names = h.nics().stream().map(TopologyNode::name).toList();
        try {
            return NetDevices.parse(raw).resolve(names, h.listedOnlyNics(), c.ucxVersion()).devices().stream()
                    .map(dev -> dev.replaceFirst(":[0-9]+$", "")).distinct().toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** The variant's hosts; a counted host group shares one spec instance, and its hosts one shape. */
    private static List<Host> hostsOf(VariantSpec v) {
        return Host.all(v.hosts());
    }

    /** The variant's registrations as its run makes them (fan-outs through one host per group). */
    public static VariantRegistration.Outcome registrationOutcome(VariantSpec v, List<Host> hosts) {
        return v.isFanout() ? registerFanout(v, hosts, new HashMap<>()) : register(v, hosts, new HashMap<>());
    }

    /**
     * Which HCAs hold each buffer once the variant has registered, the same answer its run's lane
     * choice reads ({@code explain} shows lanes from it); everywhere when registration fails.
     */
    public static Held registrationsOf(VariantSpec v) {
        List<Host> hosts = hostsOf(v);
        Map<String, String> representativeOf = new HashMap<>();
        VariantRegistration.Outcome registration = v.isFanout() ? registerFanout(v, hosts, representativeOf)
                : register(v, hosts, representativeOf);
        return registration.passed() ? held(registration, representativeOf)
                : new Held(UcxLaneSelection.Registrations.EVERYWHERE, WriteOrdering.RELAXED);
    }

    /**
     * What the variant's registrations decide for its run.
     *
     * @param lanes    which HCAs hold each buffer, for lane choice: UCX skips a lane whose memory domain
     *                 is not in the buffer's registration (rkey) (openucx/ucx src/ucp/proto/proto_common.c
     *                 L92-97, v1.20.0)
     * @param ordering which HCAs write into each buffer in strict PCIe order: its MR there lacks relaxed
     *                 ordering
     */
    public record Held(UcxLaneSelection.Registrations lanes, WriteOrdering ordering) {
    }

    /**
     * A fan-out host registered through the representative of its group (same shape, same buffers)
     * holds what its representative holds; buffers not registered here are taken as registered
     * everywhere, in relaxed order.
     */
    static Held held(VariantRegistration.Outcome outcome, Map<String, String> representativeOf) {
        Map<String, Map<String, java.util.Set<String>>> held = new java.util.HashMap<>();
        Map<String, Map<String, java.util.Set<String>>> strict = new java.util.HashMap<>();
        for (VariantRegistration.HostOutcome h : outcome.hosts()) {
            for (org.rdmasim.memory.RegistrationPlan p : h.plans()) {
                held.computeIfAbsent(h.host(), k -> new java.util.HashMap<>())
                        .computeIfAbsent(p.region().deviceName(), k -> new java.util.HashSet<>()).addAll(p.hcaNames());
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
            Map<String, java.util.Set<String>> byDevice = held.get(representativeOf.getOrDefault(host, host));
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

    /** One replication: its own clock, network and cluster, NIC rates jittered from its own streams. */
    static RunResult runOnce(VariantSpec v, List<Host> hosts, long seed, int replication, FanoutRun.Timing timing,
            Held registrations, RunWatch watch, FlowTap log) {
        RandomStreams streams = new RandomStreams(seed, replication);
        SimulationClock clock = new SimulationClock();
        watch.attach(clock);
        // Flows held together at one resource share a rate (same max-min rates, finish times to rounding).
        FluidNetwork network = new FluidNetwork(clock).grouping(RunChecks.reference() ? 0 : FluidNetwork.DEFAULT_GROUP_MIN)
                .verifying(RunChecks.verifying());
        if (log != null) {
            network.logging(log);
        }
        watch.count("rate solves", network::solves);
        watch.count("flows solved", network::flowsSolved);
        watch.count("groups dissolved", network::groupFallbacks);
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
        TransferEngine engine = new TransferEngine(cluster, v.protocol(), v.faults().qpRetry(), registrations.ordering());
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
        long t0 = System.nanoTime();
        try {
            return v.isFanout() ? run.run(v.fanoutPlan(), timing, streams) : run.run(v.transfers());
        } finally {
            watch.simulated(System.nanoTime() - t0);
        }
    }

    /**
     * Registration for a fan-out: each receiver GPU registers the bytes it pulls, each source GPU what
     * it serves. Hosts of one shape with the same buffers register identically, so one host per group
     * is registered and its totals counted once per member (16k identical receivers cost one plan).
     */
    static VariantRegistration.Outcome registerFanout(VariantSpec v, List<Host> hosts, Map<String, String> representativeOf) {
        FanoutPlan plan = v.fanoutPlan();
        Map<String, Host> byName = new HashMap<>();
        hosts.forEach(h -> byName.put(h.name(), h));
        Map<List<Object>, List<String>> groups = new LinkedHashMap<>();
        // A counted host group shares one spec instance: identity is enough and avoids deep hashing.
        Map<HostSpec, Integer> shapes = new java.util.IdentityHashMap<>();
        Map<String, List<VariantRegistration.Buffer>> buffers = new HashMap<>();
        List<FanoutPlan.Member> members = new ArrayList<>(plan.sources());
        members.addAll(plan.receivers());
        int gpusPerReceiver = plan.receivers().get(0).gpus().size();
        for (int m = 0; m < members.size(); m++) {
            FanoutPlan.Member member = members.get(m);
            boolean source = m < plan.sources().size();
            int n = member.gpus().size();
            List<Long> sizes = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                sizes.add(source ? plan.bytesForGpu(Math.min(k, gpusPerReceiver - 1), gpusPerReceiver)
                        : plan.bytesForGpu(k, n));
            }
            HostSpec spec = v.hosts().get(member.host());
            List<Object> key = List.of(shapes.computeIfAbsent(spec, x -> shapes.size()), member.gpus(), sizes);
            List<String> names = groups.computeIfAbsent(key, k -> new ArrayList<>());
            if (names.isEmpty()) {
                List<VariantRegistration.Buffer> list = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    list.add(VariantRegistration.Buffer.gpu(member.host(), member.gpus().get(k), sizes.get(k)));
                }
                buffers.put(member.host(), list);
            }
            names.add(member.host());
        }
        List<Host> representatives = new ArrayList<>();
        List<VariantRegistration.Buffer> all = new ArrayList<>();
        for (List<String> names : groups.values()) {
            for (String member : names) {
                representativeOf.put(member, names.get(0));
            }
            representatives.add(byName.get(names.get(0)));
            all.addAll(buffers.get(names.get(0)));
        }
        VariantRegistration.Outcome reps = VariantRegistration.registerOnSites(representatives, sites(v), all,
                new RegistrationModel(v.registration().parameters()), v.registration().caps());
        RegistrationTotals totals = RegistrationTotals.ZERO;
        int g = 0;
        List<List<String>> names = new ArrayList<>(groups.values());
        for (VariantRegistration.HostOutcome h : reps.hosts()) {
            while (!names.get(g).get(0).equals(h.host())) {
                g++;
            }
            RegistrationTotals t = h.totals();
            long count = names.get(g).size();
            totals = totals.plus(new RegistrationTotals(t.mrCount() * count, t.translationBytes() * count,
                    t.firmwareBytes() * count, t.pinnedHostBytes() * count, t.registrationSeconds() * count));
        }
        return new VariantRegistration.Outcome(totals, reps.hosts());
    }

    /**
     * Registers every buffer the workload touches (each endpoint once, at the largest size it moves)
     * where the variant's transfer backend places it, against the variant's caps; the outcome lists one
     * host per group of identical ones (below).
     */
    static VariantRegistration.Outcome register(VariantSpec v, List<Host> hostList) {
        return register(v, hostList, new HashMap<>());
    }

    /**
     * As {@link #register(VariantSpec, List)}, with hosts grouped as for a fan-out: hosts of one shape
     * holding the same buffers register identically, so one host per group is registered (a list of
     * 4,096 transfers to receivers of one counted group registers one receiver, not 4,096) and
     * {@code representativeOf} maps each host to the one registered for it. The totals still add every
     * host's own in cluster order, the same sums to the last bit as registering each host. The first
     * host of a group in cluster order registers for it, so a failure names the same host, with the
     * same text, as registering every host would.
     */
    static VariantRegistration.Outcome register(VariantSpec v, List<Host> hostList, Map<String, String> representativeOf) {
        Hosts cluster = Hosts.of(hostList);
        // Each endpoint once, in the order the transfers first name it, with the most bytes it moves.
        Map<String, Endpoint> endpoints = new LinkedHashMap<>();
        Map<String, Long> sizes = new HashMap<>();
        for (TransferItem t : v.transfers()) {
            for (Endpoint e : List.of(t.from(), t.to())) {
                String name = e.toString();
                endpoints.putIfAbsent(name, e);
                sizes.merge(name, t.bufferBytes(), Math::max);
            }
        }
        Map<String, VariantRegistration.Buffer> buffers = new LinkedHashMap<>();
        for (Map.Entry<String, Endpoint> en : endpoints.entrySet()) {
            Endpoint e = en.getValue();
            long bytes = sizes.get(en.getKey());
            boolean gpu = cluster.host(e.host()).find(e.device()).map(n -> n.kind() == TopologyNode.Kind.GPU).orElse(false);
            buffers.put(en.getKey(), gpu ? VariantRegistration.Buffer.gpu(e.host(), e.device(), bytes)
                    : new VariantRegistration.Buffer(e.host(), MemoryRegion.host(e.device(), bytes)));
        }
        // bounce fragments the backend registers in host memory for a GPU buffer it cannot register
        TransportSettings ts = v.transport();
        for (Map.Entry<String, Endpoint> en : endpoints.entrySet()) {
            Endpoint e = en.getValue();
            Host h = cluster.host(e.host());
            TopologyNode gpu = h.find(e.device()).filter(n -> n.kind() == TopologyNode.Kind.GPU).orElse(null);
            long bytes = gpu == null ? 0 : ts.backend().hostBounceBytes(ts.stack(), h, gpu, ts.gpudirect());
            if (bytes > 0) {
                buffers.put(en.getKey() + " bounce fragments", new VariantRegistration.Buffer(e.host(),
                        MemoryRegion.host(socketOf(h, gpu), bytes)));
            }
        }
        Map<String, List<VariantRegistration.Buffer>> perHost = new HashMap<>();
        for (VariantRegistration.Buffer b : buffers.values()) {
            perHost.computeIfAbsent(b.host(), k -> new ArrayList<>()).add(b);
        }
        // A counted host group shares one spec instance: identity is enough and avoids deep hashing.
        Map<HostSpec, Integer> shapes = new java.util.IdentityHashMap<>();
        Map<List<Object>, String> groups = new HashMap<>();
        List<Host> representatives = new ArrayList<>();
        List<VariantRegistration.Buffer> registered = new ArrayList<>();
        for (Host h : hostList) {
            List<VariantRegistration.Buffer> mine = perHost.get(h.name());
            if (mine == null) {
                continue;
            }
            List<Object> key = List.of(shapes.computeIfAbsent(h.spec(), x -> shapes.size()),
                    mine.stream().map(VariantRegistration.Buffer::region).toList());
            String first = groups.putIfAbsent(key, h.name());
            if (first == null) {
                representatives.add(h);
                registered.addAll(mine);
            }
            representativeOf.put(h.name(), first == null ? h.name() : first);
        }
        VariantRegistration.Outcome reps = VariantRegistration.registerOnSites(representatives, sites(v), registered,
                new RegistrationModel(v.registration().parameters()), v.registration().caps());
        Map<String, RegistrationTotals> totalsOf = new HashMap<>();
        reps.hosts().forEach(h -> totalsOf.put(h.host(), h.totals()));
        RegistrationTotals totals = RegistrationTotals.ZERO;
        for (Host h : hostList) {
            String representative = representativeOf.get(h.name());
            if (representative != null) { // a host without buffers registers nothing
                totals = totals.plus(totalsOf.get(representative));
            }
        }
        return new VariantRegistration.Outcome(totals, reps.hosts());
    }

    private static String socketOf(Host h, TopologyNode gpu) {
        return h.sockets().stream().filter(s -> s.socket() == gpu.socket()).map(TopologyNode::name).findFirst()
                .orElseThrow(() -> new IllegalStateException("host " + h.name() + " has no socket for " + gpu.name()));
    }

    /** Where each process registers a buffer: its transfer backend says, the registration model prices it. */
    static VariantRegistration.Sites sites(VariantSpec v) {
        TransportSettings t = v.transport();
        return (host, device) -> t.backend().registration(t.stack(), host, host.find(device).orElseThrow(),
                t.gpudirect());
    }
}
