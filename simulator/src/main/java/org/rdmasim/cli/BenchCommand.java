package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.concurrent.Callable;
import org.rdmasim.engine.RandomStreams;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.crosscheck.FlowProblem;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.crosscheck.RailFanout;
import org.rdmasim.crosscheck.SimgridPeer;
import umontreal.ssj.rng.RandomStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code rdmasim bench}: speed of the event engine against a bare PriorityQueue loop on the same
 * events (the classic hold model), and of the whole fluid model on a synthetic run of many flows.
 * With {@code --peer simgrid}, instead: the same staggered receiver fan-out solved by rdmasim and by
 * SimGrid (tools/simgrid-peer/flowpeer.py) at several sizes, timed and diffed.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measure the speed of the event engine and the fluid model.", "",
                "Measure the engine (events/s, against a bare java.util.PriorityQueue loop on the same events) "
                        + "and the fluid model (a synthetic run of --flows flows between --hosts hosts).",
                "With --peer simgrid: run a Poisson-staggered fan-out (--sources sources, 4 rails) in rdmasim and "
                        + "in SimGrid at each of --receivers, and print times, their ratio and the largest "
                        + "finish-time difference.",
                "With --scenario FILE: time that scenario as `run` runs it (the path users take), phase by phase; "
                        + "with --repeats N also: run it N times in one JVM and set its events per CPU second, cold "
                        + "and warm, beside the bare loop's at the event-list sizes the run kept.",
                "",
                "Exit codes: 0 measured, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--flows", paramLabel = "N", defaultValue = "100000", description = "flows in the fluid run (default ${DEFAULT-VALUE})")
    int flows;

    @Option(names = "--hosts", paramLabel = "N", defaultValue = "512", description = "hosts in the fluid run (default ${DEFAULT-VALUE})")
    int hosts;

    @Option(names = "--pending", paramLabel = "N", defaultValue = "1000,10000,100000", split = ",",
            description = "events pending at once in the hold model, one row each (default ${DEFAULT-VALUE})")
    List<Integer> pendingSizes;

    private int pending;

    /** The largest --events and --pending: at both limits the delays drawn up front take 800 MB. */
    static final int MAX_HOLD_EVENTS = 50_000_000;

    /**
     * The largest fluid run: every flow is held until the run ends (a few hundred bytes each), so 10^7
     * flows need GBs of heap; the bench's default is 10^5.
     */
    static final int MAX_FLOWS = 10_000_000;
    static final int MAX_HOSTS = 100_000;
    static final int MAX_REPEATS = 100;

    @Option(names = "--events", paramLabel = "N", defaultValue = "2000000", description = "events fired in the hold model (default ${DEFAULT-VALUE})")
    int events;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3", description = "timed repetitions of the hold model after a "
            + "warm-up, best kept; the fluid run, longer, has one fewer, at least one (default ${DEFAULT-VALUE}). With "
            + "--scenario: runs of each scenario in this one JVM, 1 to " + MAX_REPEATS + " (without the option, one): "
            + "prints the first run's events per CPU second (cold) and the best and median of the later runs' (warm), and the "
            + "bare loop (the hold model's engine, best of 3 after a warm-up, --events events) at the event-list sizes "
            + "the run kept, its mean at each event taken off the list and its peak, with the ratios")
    int repeats;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "seed of the hold model's delays, the fluid run's "
            + "flows and --peer's arrivals (default ${DEFAULT-VALUE}); refused with --scenario, which keeps the scenario's seed")
    long seed;

    /** Who talks to whom in the fluid run. */
    enum Pattern { pairs, random }

    @Option(names = "--pattern", paramLabel = "pairs|random", defaultValue = "pairs",
            description = "fluid run traffic: 'pairs' (host i sends to host i+1: contention stays local, like rail-"
                    + "aligned lanes) or 'random' (any host to any host: one coupled network, the worst case for "
                    + "incremental max-min) (default ${DEFAULT-VALUE})")
    Pattern pattern;

    /** Peers that can solve the same flow problem. */
    enum Peer { simgrid }

    @Option(names = "--peer", paramLabel = "simgrid", description = "also solve a fan-out with this peer and compare ('simgrid': Debian's python3-simgrid via "
            + "tools/simgrid-peer/flowpeer.py); replaces the hold-model and fluid runs")
    Peer peer;

    @Option(names = "--receivers", paramLabel = "N", split = ",", defaultValue = "1024,4096,16384",
            description = "fan-out sizes for --peer, comma-separated (default ${DEFAULT-VALUE})")
    List<Integer> receivers;

    @Option(names = "--sources", paramLabel = "N", defaultValue = "8", description = "source hosts for --peer (default ${DEFAULT-VALUE})")
    int sources;

    // Default 1.2: the staggered fan-out the speed target describes has SimGrid take ~5 s at 4,096
    // receivers and ~100 s at 16,384 on a 2-core machine; here 1.2 gives 5.7 s and 129 s, while at 1.0
    // (sources exactly keeping up) SimGrid needs only ~1.3 s and ~9 s. Pass --load to see others.
    @Option(names = "--load", paramLabel = "X", defaultValue = "1.2",
            description = "offered load per source for --peer: receivers arrive on average every "
                    + "solo-pull-time / (sources * load) seconds; above 1 a backlog builds (default ${DEFAULT-VALUE})")
    double load;

    @Option(names = "--model-gb", paramLabel = "SIZE", defaultValue = "16", converter = DecimalGigabytes.class,
            description = "model size for --peer: a size such as 16GB or 15GiB, or a bare number of decimal GB "
                    + "(default ${DEFAULT-VALUE})")
    double modelGb;

    @Option(names = "--scenario", paramLabel = "FILE",
            description = "time a scenario the way `run` runs it, phase by phase (load, build, simulate, reports), "
                    + "with peak heap and events by kind; replaces the hold-model and fluid runs. Repeat it for "
                    + "several sizes. With --peer simgrid: also pose each variant's own flow problem (every "
                    + "lane's flow, every resource on its path, caps included) to SimGrid and compare finish "
                    + "times and wall-clock times")
    List<Path> scenarioFiles;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "with --scenario: write the reports here and keep them (default: a scratch folder, removed "
                    + "when the bench ends)")
    Path out;

    @Option(names = "--force", description = "with --out: write the report beside files rdmasim did not write (they "
            + "are kept; only the earlier report's own files are replaced)")
    boolean force;

    @Option(names = {"-q", "--quiet"}, description = "with --scenario: no progress line")
    boolean quiet;

    @Option(names = ThreadsOption.NAME, paramLabel = ThreadsOption.LABEL, description = "with --scenario: threads "
            + "for replications and a refit's 'what would halve it' reruns, as run's --threads" + ThreadsOption.RANGE
            + "; the times depend on it, the figures do not")
    Integer threads;

    /** Options of the synthetic engine run only (the hold model and the fluid run), of --peer's fan-out only. */
    private static final List<String> ENGINE_OPTIONS = List.of("--flows", "--hosts", "--pattern", "--pending");
    private static final List<String> PEER_FANOUT_OPTIONS = List.of("--receivers", "--sources", "--load", "--model-gb");
    private static final List<String> SCENARIO_OPTIONS = List.of("--out", "--force");

    /**
     * bench has three runs: the engine's (no --scenario, no --peer), --peer's synthetic fan-out, and --scenario's
     * (with or without --peer). An option of one given to another would be dropped without a word (--receivers
     * without --peer ran the engine bench, exit 0): refused, naming the option and the run it belongs to.
     */
    private void optionsFitTheMode() {
        picocli.CommandLine.ParseResult given = spec.commandLine().getParseResult();
        if (given == null) {
            return;
        }
        boolean scenario = scenarioFiles != null && !scenarioFiles.isEmpty();
        for (String name : ENGINE_OPTIONS) {
            if (given.hasMatchedOption(name) && (scenario || peer != null)) {
                throw new BadInputException(name + " sizes the engine's own run (bench with neither --scenario nor "
                        + "--peer); with " + (scenario ? "--scenario" : "--peer") + " it would be ignored: leave it out");
            }
        }
        for (String name : PEER_FANOUT_OPTIONS) {
            if (given.hasMatchedOption(name) && (peer == null || scenario)) {
                throw new BadInputException(name + " shapes --peer's own fan-out (bench --peer simgrid without "
                        + "--scenario); " + (scenario ? "with --scenario the scenario says it" : "without --peer it "
                        + "would be ignored") + ": leave it out");
            }
        }
        if (scenario && given.hasMatchedOption("--seed")) {
            throw new BadInputException("--seed draws the engine's and --peer's own runs; --scenario runs each scenario "
                    + "with its own seed (its seed: field) and would ignore it: leave it out, or change seed: in the file");
        }
        if (scenario && given.hasMatchedOption("--events") && !given.hasMatchedOption("--repeats")) {
            throw new BadInputException("--events sizes the bare loop that --scenario runs only with --repeats N "
                    + "(beside the warm runs); without --repeats it would be ignored: add --repeats N or leave it out");
        }
        for (String name : SCENARIO_OPTIONS) {
            if (given.hasMatchedOption(name) && !scenario) {
                throw new BadInputException(name + " is for bench --scenario FILE (its report); without --scenario "
                        + "nothing is written: leave it out");
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        ThreadsOption.count(threads); // a bad value is refused whether or not --scenario uses it
        optionsFitTheMode();
        if (scenarioFiles != null && !scenarioFiles.isEmpty()) {
            // The JVM's start, read before the SimGrid check below starts a Python process to import simgrid
            // (~0.1 s): that is the bench's own step, not part of the run the bench times.
            double jvmStart = ManagementFactory.getRuntimeMXBean().getUptime() / 1e3;
            int n = ThreadsOption.count(threads);
            // --repeats given: each scenario runs that many times, then the bare loop at the sizes its list kept
            boolean repeated = spec.commandLine().getParseResult() != null
                    && spec.commandLine().getParseResult().hasMatchedOption("--repeats");
            int runs = repeated ? repeats : 1;
            if (repeated && (repeats < 1 || repeats > MAX_REPEATS)) {
                throw new BadInputException(String.format(Locale.ROOT, "bench: --repeats must be 1 to %d with --scenario "
                        + "(runs of each scenario in one JVM), got %d", MAX_REPEATS, repeats));
            }
            if (repeated && (events < 1 || events > MAX_HOLD_EVENTS)) {
                throw new BadInputException(String.format(Locale.ROOT, "bench: --events must be 1 to %,d (events fired in "
                        + "the bare loop beside --scenario --repeats), got %,d", MAX_HOLD_EVENTS, events));
            }
            if (out != null && scenarioFiles.size() > 1) {
                throw new BadInputException("--out takes one --scenario (each scenario writes its own report)");
            }
            SimgridPeer simgrid = null;
            if (peer != null) {
                for (Path file : scenarioFiles) {
                    ScenarioBench.refuseFaults(org.rdmasim.scenario.ScenarioLoader.load(file), file);
                }
                simgrid = new SimgridPeer(SimgridPeer.locateRepo());
                String why = simgrid.unavailable().orElse(null);
                if (why != null) {
                    throw new BadInputException("SimGrid peer unavailable: " + why);
                }
            }
            int code = Main.OK;
            boolean cold = true;
            PrintWriter text = spec.commandLine().getOut();
            for (Path file : scenarioFiles) {
                boolean firstOfJvm = cold;
                List<ScenarioBench.LoopFigures> loops = new java.util.ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    ScenarioBench bench = new ScenarioBench(text, spec.commandLine().getErr(), quiet, force).brief(r > 0);
                    if (r > 0) {
                        text.printf(Locale.ROOT, "%s, run %d of %d in this JVM:%n", file, r + 1, runs);
                    }
                    // later runs write their reports to a scratch folder: --out keeps the first run's
                    code = Math.max(code, bench.run(file, r == 0 ? out : null, n,
                            cold ? java.util.OptionalDouble.of(jvmStart) : java.util.OptionalDouble.empty()));
                    cold = false;
                    loops.add(bench.lastLoop());
                    if (r == 0 && simgrid != null) {
                        bench.comparePeer(file, bench.lastTotalSeconds(), simgrid);
                    }
                }
                if (repeated) {
                    compareWithBareLoop(text, file, loops, firstOfJvm);
                }
            }
            return code;
        }
        if (peer != null) {
            return peerTable();
        }
        int maxPending = pendingSizes.stream().mapToInt(Integer::intValue).max().orElse(0);
        int minPending = pendingSizes.stream().mapToInt(Integer::intValue).min().orElse(0);
        // the first option out of range, named with the value given
        String wrong = flows < 1 ? "--flows must be >= 1, got " + flows
                : hosts < 2 ? "--hosts must be >= 2, got " + hosts
                : minPending < 1 ? "--pending must be >= 1, got " + minPending
                : events < maxPending ? "--events must be >= --pending (" + maxPending + "), got " + events
                : repeats < 1 ? "--repeats must be >= 1, got " + repeats : null;
        if (wrong != null) {
            throw new BadInputException("bench: " + wrong);
        }
        if (flows > MAX_FLOWS || hosts > MAX_HOSTS || repeats > MAX_REPEATS) {
            throw new BadInputException(String.format(Locale.ROOT, "--flows goes up to %,d, --hosts to %,d and --repeats "
                    + "to %d (each flow of the fluid run is held to its end), got %,d, %,d and %d", MAX_FLOWS, MAX_HOSTS,
                    MAX_REPEATS, flows, hosts, repeats));
        }
        // The hold model draws every delay up front, events + pending of them (8 bytes each).
        if (events > MAX_HOLD_EVENTS || maxPending > MAX_HOLD_EVENTS) {
            throw new BadInputException(String.format(Locale.ROOT, "--events and --pending go up to %,d (the hold model "
                    + "draws events + pending delays up front, 8 bytes each), got --events %,d and --pending up to %,d",
                    MAX_HOLD_EVENTS, events, maxPending));
        }
        PrintWriter out = spec.commandLine().getOut();
        double[] delays = new double[events + maxPending];
        RandomStream rng = new RandomStreams(seed, 0).stream("bench-hold");
        for (int i = 0; i < delays.length; i++) {
            delays[i] = -Math.log(1 - rng.nextDouble());
        }
        out.printf(Locale.ROOT, "hold model: %,d events fired per run, exponential delays, the same for both loops "
                + "(best of %d after a warm-up)%n", events, repeats);
        out.printf(Locale.ROOT, "  %10s %12s %14s %16s %12s %14s %12s %14s %7s %7s%n", "pending", "engine s", "engine ev/s",
                "engine CPU ev/s", "Henriksen s", "Henriksen ev/s", "PQ s", "PQ ev/s", "ratio", "ratio H");
        for (int size : pendingSizes) {
            pending = size;
            double bestEngine = Double.MAX_VALUE;
            double bestEngineCpu = Double.MAX_VALUE;
            double bestHenriksen = Double.MAX_VALUE;
            double bestQueue = Double.MAX_VALUE;
            for (int r = 0; r <= repeats; r++) {
                org.rdmasim.engine.RunWatch cpu = new org.rdmasim.engine.RunWatch();
                cpu.measureCpu();
                org.rdmasim.engine.RunWatch.LoopStart mark = cpu.loopStart();
                double e = holdEngine(delays, SimulationClock.EventListKind.HEAP);
                // the engine's own CPU and its collectors', as `bench --scenario` counts a user-path loop
                cpu.simulated(mark);
                double eCpu = cpu.simulatingCpuSeconds() > 0 ? cpu.simulatingCpuSeconds() + cpu.loopCollectingSeconds()
                        : Double.NaN;
                double h = holdEngine(delays, SimulationClock.EventListKind.HENRIKSEN);
                double q = holdQueue(delays);
                if (r > 0) { // the first round warms the JIT up
                    bestEngine = Math.min(bestEngine, e);
                    bestEngineCpu = Math.min(bestEngineCpu, eCpu);
                    bestHenriksen = Math.min(bestHenriksen, h);
                    bestQueue = Math.min(bestQueue, q);
                }
            }
            out.printf(Locale.ROOT, "  %,10d %12.3f %14.0f %16.0f %12.3f %14.0f %12.3f %14.0f %7.2f %7.2f%n", size, bestEngine,
                    events / bestEngine, events / bestEngineCpu, bestHenriksen, events / bestHenriksen, bestQueue, events / bestQueue,
                    bestEngine / bestQueue, bestHenriksen / bestQueue);
            out.flush();
        }
        out.println("  engine CPU ev/s = the engine's events over its thread's CPU time and its collectors', as `bench"
                + " --scenario` reports a scenario's loop (what a shared machine's wait for a core leaves out)");
        out.println("  engine = rdmasim's SimulationClock (SSJ simulator, heap event list); Henriksen = the same clock on SSJ's"
                + " Henriksen list; PQ = a bare java.util.PriorityQueue loop; ratio = engine / PQ time, target <= 2.0");
        out.flush();

        out.printf(Locale.ROOT, "fluid model: %,d flows between %d hosts, pattern %s (Poisson arrivals, NIC tx/rx per host)%n",
                flows, hosts, pattern);
        FluidRun best = null;
        for (int r = 0; r < Math.max(1, repeats - 1) + 1; r++) {
            FluidRun f = fluid();
            if (r > 0 && (best == null || f.seconds < best.seconds)) {
                best = f;
            }
        }
        out.printf(Locale.ROOT, "  wall %.3f s, %,d events, %.0f events/s, %,d component solves covering %,d flows "
                + "(%.1f flows per solve)%n", best.seconds, best.events, best.events / best.seconds, best.solves,
                best.flowsSolved, (double) best.flowsSolved / Math.max(1, best.solves));
        out.printf(Locale.ROOT, "  simulated %.3f s; heap used after run %.0f MB%n", best.simulated, best.heapMb);
        out.flush();
        return Main.OK;
    }

    /** Timed rounds of the bare loop beside {@code --scenario --repeats}, after one round of warm-up. */
    static final int BARE_LOOP_ROUNDS = 3;

    /**
     * After a scenario's {@code --repeats} runs: its first run's events per CPU second (cold when it was the
     * JVM's first scenario) and the best of the later runs' (warm), and the hold model's engine, in this JVM,
     * at the event list's mean size over the run's events and at its peak, with how far below it each is.
     */
    private void compareWithBareLoop(PrintWriter text, Path file, List<ScenarioBench.LoopFigures> loops, boolean firstOfJvm) {
        ScenarioBench.LoopFigures first = loops.get(0);
        double cold = first.eventsPerCpuSecond();
        double warm = Double.NaN;
        StringBuilder later = new StringBuilder();
        for (int r = 1; r < loops.size(); r++) {
            double e = loops.get(r).eventsPerCpuSecond();
            warm = Double.isNaN(warm) || e > warm ? e : warm;
            later.append(r > 1 ? " / " : "").append(String.format(Locale.ROOT, "%,.0f", e));
        }
        text.printf(Locale.ROOT, "%s, %d run(s) in one JVM: events per CPU second of the event loops (their thread's CPU "
                + "and the collector's), %,d events each%n", file, loops.size(), first.events());
        text.printf(Locale.ROOT, "  %-54s %,12.0f%n", firstOfJvm ? "run 1 (cold: the JVM's first scenario)"
                : "run 1 (after earlier scenarios in this JVM)", cold);
        double median = Double.NaN;
        if (loops.size() > 1) {
            // the median beside the best: on a shared machine one process's loop runs at two speeds by turns
            double[] warmRuns = new double[loops.size() - 1];
            for (int r = 1; r < loops.size(); r++) {
                warmRuns[r - 1] = loops.get(r).eventsPerCpuSecond();
            }
            java.util.Arrays.sort(warmRuns);
            int m = warmRuns.length;
            median = m % 2 == 1 ? warmRuns[m / 2] : (warmRuns[m / 2 - 1] + warmRuns[m / 2]) / 2;
            if (loops.size() == 2) {
                text.printf(Locale.ROOT, "  %-54s %,12.0f%n", "run 2 (warm)", warm);
            } else {
                text.printf(Locale.ROOT, "  %-54s %,12.0f   (runs 2-%d: %s; median %,.0f)%n", "best of runs 2-" + loops.size()
                        + " (warm)", warm, loops.size(), later, median);
            }
        }
        if (first.peakPending() == 0) {
            text.println("  no bare loop beside it: the run's event list does not count its size");
            text.flush();
            return;
        }
        text.printf(Locale.ROOT, "  bare loop beside it (the hold model's engine, best of %d after a warm-up, %,d events; "
                + "engine CPU ev/s as `bench` without --scenario prints it):%n", BARE_LOOP_ROUNDS, events);
        int mean = (int) Math.max(1, Math.round(first.meanPending()));
        int[] sizes = mean == first.peakPending() ? new int[] {mean} : new int[] {mean, first.peakPending()};
        for (int size : sizes) {
            double bare = bareLoopCpuEventsPerSecond(size);
            String at = String.format(Locale.ROOT, "at %,d pending (%s)", size, size == mean
                    ? String.format(Locale.ROOT, "the run's mean list size, %.1f", first.meanPending()) : "the run's peak");
            text.printf(Locale.ROOT, "    %-52s %,12.0f   run 1 is %.1fx below it%s%n", at, bare, bare / cold,
                    loops.size() > 2 ? String.format(Locale.ROOT, ", warm %.1fx (median %.1fx)", bare / warm, bare / median)
                            : loops.size() == 2 ? String.format(Locale.ROOT, ", warm %.1fx", bare / warm) : "");
        }
        text.println("  (the target of issue 24: a scenario's events per CPU second within 10x of the bare loop's)");
        text.flush();
    }

    /** The hold model's engine at {@code size} pending: the best events per CPU second (collector's included). */
    private double bareLoopCpuEventsPerSecond(int size) {
        pending = size;
        int fired = Math.max(events, size);
        int savedEvents = events;
        events = fired;
        try {
            double[] delays = new double[fired + size];
            RandomStream rng = new RandomStreams(seed, 0).stream("bench-hold");
            for (int i = 0; i < delays.length; i++) {
                delays[i] = -Math.log(1 - rng.nextDouble());
            }
            double best = 0;
            for (int r = 0; r <= BARE_LOOP_ROUNDS; r++) {
                org.rdmasim.engine.RunWatch cpu = new org.rdmasim.engine.RunWatch();
                cpu.measureCpu();
                org.rdmasim.engine.RunWatch.LoopStart mark = cpu.loopStart();
                holdEngine(delays, SimulationClock.EventListKind.HEAP);
                cpu.simulated(mark);
                double seconds = cpu.simulatingCpuSeconds() + Math.max(0, cpu.loopCollectingSeconds());
                if (r > 0 && seconds > 0) { // the first round warms the JIT up
                    best = Math.max(best, fired / seconds);
                }
            }
            return best > 0 ? best : Double.NaN;
        } finally {
            events = savedEvents;
        }
    }

    private double holdEngine(double[] delays, SimulationClock.EventListKind kind) {
        SimulationClock clock = new SimulationClock(kind);
        int[] next = {pending};
        long[] fired = {0};
        Runnable[] action = new Runnable[1];
        action[0] = () -> {
            if (++fired[0] + pending <= events) {
                clock.schedule(delays[next[0]++], action[0]);
            }
        };
        long t0 = System.nanoTime();
        for (int i = 0; i < pending; i++) {
            clock.schedule(delays[i], action[0]);
        }
        clock.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    private record Pending(double time, long seq) implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private double holdQueue(double[] delays) {
        long t0 = System.nanoTime();
        PriorityQueue<Pending> q = new PriorityQueue<>();
        long seq = 0;
        for (int i = 0; i < pending; i++) {
            q.add(new Pending(delays[i], seq++));
        }
        int next = pending;
        long fired = 0;
        while (!q.isEmpty()) {
            Pending p = q.poll();
            if (++fired + pending <= events) {
                q.add(new Pending(p.time() + delays[next++], seq++));
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private record FluidRun(double seconds, long events, long solves, long flowsSolved, double simulated, double heapMb) {
    }

    private FluidRun fluid() {
        System.gc();
        RandomStream rng = new RandomStreams(seed, 0).stream("bench-fluid");
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource[] tx = new Resource[hosts];
        Resource[] rx = new Resource[hosts];
        double nic = 400e9 / 8 * 0.989;
        for (int h = 0; h < hosts; h++) {
            tx[h] = net.addResource("h" + h + " tx", ResourceKind.NIC_TX, nic);
            rx[h] = net.addResource("h" + h + " rx", ResourceKind.NIC_RX, nic);
        }
        // Offered load ~60% of the NICs: mean flow 64 MB, arrivals spread so each host sees ~0.6 load.
        double meanBytes = 64e6;
        double rate = 0.6 * hosts * nic / meanBytes;
        double t = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < flows; i++) {
            t += -Math.log(1 - rng.nextDouble()) / rate;
            int a = rng.nextInt(0, hosts - 1);
            int b;
            if (pattern == Pattern.pairs) {
                b = (a + 1) % hosts;
            } else {
                b = rng.nextInt(0, hosts - 2);
                if (b >= a) {
                    b++;
                }
            }
            long bytes = (long) (-Math.log(1 - rng.nextDouble()) * meanBytes) + 1;
            List<Resource> path = List.of(tx[a], rx[b]);
            clock.scheduleAt(t, () -> net.start("f", path, 1.0, Double.POSITIVE_INFINITY, bytes, f -> { }));
        }
        clock.run();
        double secs = (System.nanoTime() - t0) / 1e9;
        Runtime rt = Runtime.getRuntime();
        double heap = (rt.totalMemory() - rt.freeMemory()) / 1e6;
        return new FluidRun(secs, clock.eventsFired(), net.solves(), net.flowsSolved(), clock.now(), heap);
    }

    private RailFanout peerFanout(int receiverCount) {
        RailFanout probe = new RailFanout(RailFanout.fourRailHost(), sources, receiverCount, 4, (long) (modelGb * 1e9),
                RailFanout.Arrival.ALL_AT_ONCE, 0, RailFanout.Sizes.EQUAL, FabricSpec.nonBlocking(), true, seed);
        double gap = probe.soloPullSeconds() / (sources * load);
        return new RailFanout(probe.host(), sources, receiverCount, 4, probe.modelBytes(), RailFanout.Arrival.POISSON, gap,
                RailFanout.Sizes.EQUAL, FabricSpec.nonBlocking(), true, seed);
    }

    private int peerTable() {
        // each rule named with the option and value that break it, not the whole list of rules
        if (sources < 1) {
            throw new BadInputException("--sources must be >= 1 with --peer, got " + sources);
        }
        if (!(load > 0)) {
            throw new BadInputException("--load must be > 0 with --peer, got " + load);
        }
        if (!(modelGb > 0)) {
            throw new BadInputException("--model-gb must be > 0 with --peer, got " + modelGb);
        }
        if (receivers.isEmpty()) {
            throw new BadInputException("--receivers with --peer needs at least one fan-out size");
        }
        for (int r : receivers) {
            if (r < 1) {
                throw new BadInputException("--receivers must be >= 1 with --peer, got " + r
                        + (receivers.size() > 1 ? " (in " + receivers.stream().map(String::valueOf)
                                .collect(java.util.stream.Collectors.joining(",")) + ")" : ""));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        SimgridPeer simgrid = new SimgridPeer(SimgridPeer.locateRepo());
        String why = simgrid.unavailable().orElse(null);
        if (why != null) {
            throw new BadInputException("SimGrid peer unavailable: " + why);
        }
        RailFanout first = peerFanout(receivers.get(0));
        out.printf(Locale.ROOT, "fan-out: %d sources, 4 rails (4 GPU/NIC pairs per host, ConnectX-7 400G, PIX), GPUDirect READ "
                + "with per-QP caps, %.3g GB model, Poisson arrivals every %.3f ms on average (load %.2f per source), "
                + "non-blocking fabric, seed %d%n", sources, modelGb, first.meanGapSeconds() * 1e3, load, seed);
        out.printf(Locale.ROOT, "rdmasim: solve of the flow problem, after one unmeasured warm-up run at %d receivers; "
                + "SimGrid: flowpeer.py's own build+solve, and the whole python process%n", receivers.get(0));
        out.flush();
        first.build().solveInRdmasim();
        out.printf(Locale.ROOT, "%9s %7s %10s %10s %10s %8s %8s %11s %9s %11s %8s%n", "receivers", "flows", "rdmasim s",
                "simgrid s", "sg solve s", "ratio", "ratio*", "max diff", "events", "events/s", "heap MB");
        out.flush();
        for (int r : receivers) {
            FlowProblem problem = peerFanout(r).build();
            System.gc();
            List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
            pools.forEach(MemoryPoolMXBean::resetPeakUsage);
            long t0 = System.nanoTime();
            FlowProblem.Solution ours = problem.solveInRdmasim();
            double secs = (System.nanoTime() - t0) / 1e9;
            long peak = 0;
            for (MemoryPoolMXBean pool : pools) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            SimgridPeer.Result theirs;
            try {
                theirs = simgrid.solve(problem);
            } catch (IOException e) {
                throw new IllegalStateException("SimGrid peer failed at " + r + " receivers: " + e.getMessage(), e);
            }
            double maxDiff = 0;
            for (Map.Entry<String, Double> e : ours.finishById().entrySet()) {
                double b = theirs.finishById().get(e.getKey());
                maxDiff = Math.max(maxDiff, Math.abs(e.getValue() - b) / Math.max(Math.abs(b), 1e-12));
            }
            out.printf(Locale.ROOT, "%9d %7d %10.3f %10.3f %10.3f %7.1fx %7.1fx %11.2e %9d %11.0f %8.0f%n", r,
                    problem.flows().size(), secs, theirs.processSeconds(), theirs.peerSeconds(),
                    theirs.processSeconds() / secs, theirs.peerSeconds() / secs, maxDiff, ours.events(),
                    ours.events() / secs, peak / 1e6);
            out.flush();
        }
        out.println("ratio = SimGrid process s / rdmasim s; ratio* = flowpeer's own build+solve s / rdmasim s; max diff = "
                + "largest relative finish-time difference over all flows; heap MB = peak heap in use during the rdmasim "
                + "solve (all heap pools, garbage included)");
        out.flush();
        return Main.OK;
    }

    /**
     * The --peer model size in decimal GB: a bare number is GB, as the option has always read; a number with
     * a unit is read by {@link org.rdmasim.hardware.QuantityText#bytes} as a scenario's sizes are.
     */
    static final class DecimalGigabytes implements picocli.CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                return Double.parseDouble(text.strip());
            } catch (NumberFormatException bare) {
                return ByteSize.parse(text) / 1e9;
            }
        }
    }
}
