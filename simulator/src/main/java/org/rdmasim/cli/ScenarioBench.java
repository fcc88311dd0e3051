package org.rdmasim.cli;

import org.rdmasim.crosscheck.SimgridPeer;
import org.rdmasim.crosscheck.FlowLog;
import org.rdmasim.crosscheck.FlowProblem;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rdmasim.engine.RunWatch;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.VariantOutcome;

/**
 * {@code rdmasim bench --scenario FILE}: the path a user takes ({@code run}), timed phase by phase.
 * Load is reading and checking the YAML; build is registration and the clusters of every replication;
 * simulate is the event loops; a refit's "what would halve it" reruns (whole refits of their own, on
 * {@code --threads}) are a phase apart; reports is writing summary.json, the CSVs, charts and index.html.
 */
final class ScenarioBench {
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean quiet;
    private final boolean force;
    private double lastTotalSeconds;
    private LoopFigures lastLoop;
    /** One line per run instead of the phase table: a later run of {@code bench --repeats}. */
    private boolean brief;

    /**
     * What one run's event loops did, for {@code bench --repeats}: events fired, the loops' own CPU plus their
     * collectors' (seconds; 0 where the JVM does not tell a thread's CPU), and the event list's mean size at
     * each event taken off it and its largest size.
     */
    record LoopFigures(long events, double cpuSeconds, double meanPending, int peakPending) {
        /** Events per CPU second of the loops, collection included; NaN where CPU was not measured. */
        double eventsPerCpuSecond() {
            return cpuSeconds > 0 ? events / cpuSeconds : Double.NaN;
        }
    }

    ScenarioBench(PrintWriter out, PrintWriter err, boolean quiet) {
        this(out, err, quiet, false);
    }

    /** @param force an existing {@code --out} may hold the user's files, which are kept beside the report */
    ScenarioBench(PrintWriter out, PrintWriter err, boolean quiet, boolean force) {
        this.out = out;
        this.err = err;
        this.quiet = quiet;
        this.force = force;
    }

    /** With {@code true}, {@link #run} prints one line of the loop's figures rather than the phase table. */
    ScenarioBench brief(boolean oneLine) {
        this.brief = oneLine;
        return this;
    }

    /** The event loops' figures of the last {@link #run}. */
    LoopFigures lastLoop() {
        return lastLoop;
    }

    /**
     * @param jvmStart for the first scenario of the process, the JVM's uptime when the command started
     *                 (its row "JVM start to command"); empty for a later scenario of the same process,
     *                 which runs in a warm JVM and counts none
     */
    int run(Path file, Path reports, int threads, java.util.OptionalDouble jvmStart) throws IOException {
        boolean coldJvm = jvmStart.isPresent();
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        LiveHeap live = new LiveHeap();
        // as run does: a spare core pays the first chart's start-up while the scenario loads and runs
        org.rdmasim.report.ReportWriter.warmUp();
        long t0 = System.nanoTime();
        Scenario scenario = ScenarioLoader.load(file);
        org.rdmasim.run.RunBudget.of(scenario).check(Runtime.getRuntime().maxMemory());
        long tLoad = System.nanoTime();
        // Without --out the reports are written only to time their writing: into a scratch folder that is
        // removed when the bench ends, so repeated benches leave nothing behind.
        boolean scratch = reports == null;
        Path dir = scratch ? Files.createTempDirectory("rdmasim-bench-")
                : org.rdmasim.report.ReportFolder.claim(reports, RunCommand.inputs(scenario), force);
        try {
            return timed(scenario, dir, scratch, threads, new Start(t0, tLoad, coldJvm, jvmStart.orElse(0), pools, live));
        } finally {
            if (scratch) {
                org.rdmasim.report.ReportFolder.removeScratch(dir);
            }
        }
    }

    /** What the bench read before the run: clock marks, the JVM's start, the heap pools and the live-heap watch. */
    private record Start(long t0, long tLoad, boolean coldJvm, double jvmStart, List<MemoryPoolMXBean> pools,
            LiveHeap live) {
    }

    private int timed(Scenario scenario, Path dir, boolean scratch, int threads, Start start) throws IOException {
        long t0 = start.t0();
        long tLoad = start.tLoad();
        boolean coldJvm = start.coldJvm();
        double jvmStart = start.jvmStart();
        List<MemoryPoolMXBean> pools = start.pools();
        LiveHeap live = start.live();
        RunWatch watch = new RunWatch();
        watch.measureCpu();
        List<VariantOutcome> outcomes = RunCommand.runVariants(scenario, threads, quiet, err, watch);
        long tVariants = System.nanoTime();
        RunCommand.writeReport(dir, scenario, outcomes);
        long tReports = System.nanoTime();
        // Settles what the run still holds (its results, as after the simulation) for the live figure.
        System.gc();
        live.close();
        long peak = 0;
        for (MemoryPoolMXBean pool : pools) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        double load = (tLoad - t0) / 1e9;
        double variants = (tVariants - tLoad) / 1e9;
        // Replications may overlap on several threads: their summed loop time is capped at the phase's wall.
        double simulate = Math.min(variants, watch.simulatingSeconds());
        // a refit's "what would halve it" reruns are whole refits of their own, timed apart
        double reruns = Math.min(variants - simulate, watch.rerunSeconds());
        double build = variants - simulate - reruns;
        double reportsSeconds = (tReports - tVariants) / 1e9;
        double total = (tReports - t0) / 1e9;
        long receivers = watch.expectedUnits();
        double loopCpu = watch.simulatingCpuSeconds() > 0 ? watch.simulatingCpuSeconds() + watch.loopCollectingSeconds() : 0;
        lastLoop = new LoopFigures(watch.events(), loopCpu, watch.meanPending(), watch.peakPending());
        lastTotalSeconds = total + jvmStart;
        boolean failed = outcomes.stream().anyMatch(v -> v.status() == VariantOutcome.Status.FAILED);
        if (brief) {
            out.printf(Locale.ROOT, "  %,d events, simulate %.3f s wall, %.3f s CPU (%.3f s loop + %.3f s collector, %d "
                    + "collections): %.0f events per CPU second; whole run %.3f s%n", watch.events(), simulate, loopCpu,
                    watch.simulatingCpuSeconds(), loopCpu - watch.simulatingCpuSeconds(), watch.loopCollections(),
                    lastLoop.eventsPerCpuSecond(), total);
            out.flush();
            return failed ? Main.VARIANT_FAILED : Main.OK;
        }
        out.printf(Locale.ROOT, "%s: %d variant(s), %,d receivers or transfers, %,d events, simulated %.3f s, %s%n",
                scenario.name(), outcomes.size(), receivers, watch.events(), watch.simulatedSeconds(),
                scratch ? "reports written to a scratch folder and removed (--out DIR keeps them)" : "reports in " + dir);
        out.printf(Locale.ROOT, "  %-30s %10s %8s%n", "phase", "wall s", "share");
        row(coldJvm ? "JVM start to command" : "JVM start (already warm)", jvmStart, total + jvmStart);
        row("load (YAML, checks)", load, total + jvmStart);
        row("build (registration, clusters)", build, total + jvmStart);
        row("simulate (event loops)", simulate, total + jvmStart);
        if (reruns > 0) {
            row("what would halve it (reruns)", reruns, total + jvmStart);
        }
        row("reports (json, csv, charts)", reportsSeconds, total + jvmStart);
        row("total", total + jvmStart, total + jvmStart);
        out.printf(Locale.ROOT, "  peak heap in use %.0f MB (all heap pools, garbage included; max heap %.0f MB)%n",
                peak / 1e6, Runtime.getRuntime().maxMemory() / 1e6);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            // On a shared machine wall time includes waiting for a core; CPU time is the work done.
            out.printf(Locale.ROOT, "  process CPU time %.3f s (all threads, JVM start included); load average %.1f on %d cores%n",
                    os.getProcessCpuTime() / 1e9, os.getSystemLoadAverage(), os.getAvailableProcessors());
        }
        if (live.collections() == 0) {
            out.printf(Locale.ROOT, "  peak live heap not measured: no garbage collection ran (the heap never filled; "
                    + "the peak in use above bounds it)%n");
        } else {
            out.printf(Locale.ROOT, "  peak live heap %.0f MB (the most left in use after a garbage collection)%n",
                    live.peakBytes() / 1e6);
        }
        out.printf(Locale.ROOT, "  %.1f us of simulate per receiver or transfer; %.0f events/s%n",
                simulate * 1e6 / Math.max(1, receivers), watch.events() / Math.max(simulate, 1e-9));
        if (watch.simulatingCpuSeconds() > 0) {
            // What a shared machine does not stretch (wall time includes the wait for a core): the same
            // events over the loops' own CPU and their collectors' (pause time where that is not known);
            // `bench`'s hold model reports its engine the same way ("engine CPU ev/s").
            boolean collectorKnown = watch.collectorCpuKnown();
            double collecting = watch.loopCollectingSeconds();
            out.printf(Locale.ROOT, "  simulate CPU %.3f s on the simulating thread(s) + %.3f s %s (%d collections, "
                    + "%.3f s of pauses): %.0f events per CPU second%n", watch.simulatingCpuSeconds(), collecting,
                    collectorKnown ? "on the collector's threads" : "of collection pauses", watch.loopCollections(),
                    watch.loopCollectionSeconds(), watch.events() / Math.max(watch.simulatingCpuSeconds() + collecting, 1e-9));
        }
        if (watch.peakPending() > 0) {
            // the scale to hold the hold model's bare loop to (`bench --pending`)
            out.printf(Locale.ROOT, "  at most %,d events pending at once; %.1f on average when an event was taken off the "
                    + "list%n", watch.peakPending(), watch.meanPending());
        }
        Map<String, Long> counts = watch.counts();
        long solves = counts.getOrDefault("rate solves", 0L);
        if (solves > 0) {
            // Flows per solve: near a constant when each event touches a bounded region,
            // growing with the run when events re-rate flows in proportion to all active ones.
            out.printf(Locale.ROOT, "  %,d rate solves took in %,d flows (%.1f per solve)%n", solves,
                    counts.getOrDefault("flows solved", 0L), counts.getOrDefault("flows solved", 0L) / (double) solves);
            // A dissolved group sends its members back to be solved one by one: many of them mean the
            // groups keep forming where a second constraint ties with their bottleneck.
            out.printf(Locale.ROOT, "  %,d groups dissolved%n", counts.getOrDefault("groups dissolved", 0L));
        }
        out.printf(Locale.ROOT, "  %-30s %12s%n", "events by kind", "count");
        for (Map.Entry<String, Long> e : watch.eventsByKind().entrySet()) {
            out.printf(Locale.ROOT, "  %-30s %,12d%n", e.getKey(), e.getValue());
        }
        out.flush();
        return failed ? Main.VARIANT_FAILED : Main.OK;
    }

    /** The whole run of the last {@link #run}, JVM start included, seconds. */
    double lastTotalSeconds() {
        return lastTotalSeconds;
    }

    /**
     * Poses each variant of the scenario, as its first replication ran, as a flow problem (every lane's
     * flow with every resource on its path at that resource's capacity, and the lane's own rate cap) and
     * solves it with SimGrid; prints one row per variant: sizes, the whole rdmasim run against SimGrid's
     * whole process on that problem, and the largest finish-time difference over all flows.
     */
    /**
     * Refuses a scenario whose variant schedules faults: the flow problem SimGrid solves has fixed links and
     * no stopped flows. Checked before the run and before SimGrid is looked for, so the input's fault is said
     * whether or not SimGrid is installed.
     */
    static void refuseFaults(Scenario scenario, Path file) {
        for (VariantSpec v : scenario.variants()) {
            if (!v.faults().isEmpty()) {
                throw new BadInputException(file + ": variant '" + v.name() + "' schedules faults; the flow problem "
                        + "SimGrid solves has fixed links and no stopped flows");
            }
        }
    }

    void comparePeer(Path file, double rdmasimSeconds, SimgridPeer simgrid) throws IOException {
        Scenario scenario = ScenarioLoader.load(file);
        org.rdmasim.run.RunBudget.of(scenario).check(Runtime.getRuntime().maxMemory());
        out.printf(Locale.ROOT, "%s posed to SimGrid as its own flow problem, per variant:%n", scenario.name());
        out.printf(Locale.ROOT, "  %-24s %10s %8s %7s %11s %11s %11s %8s %10s%n", "variant", "receivers", "flows",
                "links", "rdmasim s", "simgrid s", "sg solve s", "ratio", "max diff");
        refuseFaults(scenario, file);
        for (VariantSpec v : scenario.variants()) {
            FlowLog log = new FlowLog();
            VariantRunner.runTapped(v, scenario.seed(), log);
            if (log.refusal() != null) {
                throw new BadInputException(file + ": variant '" + v.name() + "' cannot be posed to SimGrid: " + log.refusal());
            }
            FlowProblem problem = log.problem();
            Map<String, Double> ours = log.finishById();
            SimgridPeer.Result theirs = simgrid.solve(problem);
            double maxDiff = 0;
            for (Map.Entry<String, Double> e : ours.entrySet()) {
                double b = theirs.finishById().get(e.getKey());
                maxDiff = Math.max(maxDiff, Math.abs(e.getValue() - b) / Math.max(Math.abs(b), 1e-12));
            }
            long receivers = v.isFanout() ? v.fanoutPlan().receivers().size() : v.transfers().size();
            out.printf(Locale.ROOT, "  %-24s %,10d %,8d %,7d %11.3f %11.3f %11.3f %7.1fx %10.2e%n",
                    abbreviate(v.name(), 24), receivers, problem.flows().size(),
                    problem.links().size(), rdmasimSeconds, theirs.processSeconds(), theirs.peerSeconds(),
                    theirs.processSeconds() / rdmasimSeconds, maxDiff);
            out.flush();
        }
        out.println("rdmasim s = the whole `run` as timed above (JVM start, load, build, simulate, reports); simgrid s = "
                + "SimGrid's whole process on the scenario's flow problem (" + SimgridPeer.PYTHON + " flowpeer.py); sg solve s"
                + " = its own build+solve; ratio = simgrid s / rdmasim s; max diff = largest relative finish-time "
                + "difference over all flows");
        out.flush();
    }

    private static String abbreviate(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "~";
    }

    private void row(String phase, double seconds, double total) {
        out.printf(Locale.ROOT, "  %-30s %10.3f %7.1f%%%n", phase, seconds, 100 * seconds / total);
    }
}
