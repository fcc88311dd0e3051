package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.RefitSizing;
import org.rdmasim.scenario.Sizing;
import org.rdmasim.scenario.SizingSearch;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.VariantOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim size SCENARIO --target-p99 SECONDS --vary sources|nics|rails|tree-degree [--max N]}, and for a
 * refit {@code --target-refit SECONDS --vary senders|nics|bucket|inference-tp}.
 */
@Command(name = "size", mixinStandardHelpOptions = true,
        description = {
                "Find the smallest setting of one knob of a fan-out variant whose p99 pull",
                "time (pooled over replications) meets the target, or of a refit variant whose",
                "time per cycle meets it. It tries 1, 2, 4, 8, ...",
                "until a setting meets the target or the knob's bound is reached, then bisects",
                "between the last setting that missed and the first that met: at most",
                "2 x ceil(log2 answer) settings simulated, ceil(log2 bound) + 1 if none meets.",
                "",
                "Assumption (monotonicity): more sources, NICs, rails or tree degree never make",
                "p99 worse (more senders, NICs or inference TP never make a refit longer). The",
                "output states it and reports neighbouring points whose figure rises with the",
                "knob; the answer may then not be the smallest.",
                "",
                "Bound (default and ceiling of --max), the most a knob can usefully be:",
                "  sources      the receiver hosts (each pulls from one source)",
                "  nics         the receiver host's NICs",
                "  rails        the lanes a receiver GPU can have: NICs x paths per port",
                "               (UCX_IB_NUM_PATHS; auto: 2 on NDR/XDR ports); a higher",
                "               UCX_MAX_RMA_RAILS selects no more lanes",
                "  tree-degree  the receiver hosts (a source then serves all directly)",
                "",
                "Refit knobs (workload: refit:, with --target-refit SECONDS):",
                "  senders      nccl-broadcast: trainer ranks sending, 1 to all, evenly spaced",
                "  nics         rdma-pull, write-schedule: UCX rails over the inference host's",
                "               compute NICs (MX_RDMA_NIC_PIN=stripe, UCX_MAX_RMA_RAILS=N,",
                "               registered on N HCAs), 1 to its compute NICs;",
                "               nccl-broadcast, checkpoint-engine: NCCL_IB_HCA==each host's first N",
                "               NICs nearest its GPUs, 1 to the fewest compute NICs of a host",
                "  inference-tp TP degrees dividing the inference GPUs (DP = GPUs / TP) that the",
                "               model accepts; the others are listed with the reason",
                "  bucket       bucketed methods: not monotone (fewer per-bucket starts against a",
                "               later pipeline fill and a larger buffer to register), so every",
                "               power of two from 16 MiB to the model (at most 8 GiB) is run and",
                "               the answer is the fastest that meets; no --max",
                "--refit-cycle first|steady picks the cycle the target is on (default steady:",
                "the last cycle, with registration cached).",
                "",
                "Writes sizing.json, sizing.csv and charts. The progress line shows points done",
                "of at most N and the time per point so far. Ctrl-C keeps the points simulated",
                "so far: table, CSV and JSON marked incomplete (no charts).",
                "Exit codes: 0 the search ran (whether or not a setting meets the target),",
                "2 bad input, 130 interrupted (points so far written)."})
public final class SizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "a scenario with a fan-out or refit workload")
    Path scenarioFile;

    @Option(names = "--target-p99", paramLabel = "SECONDS", description = "fan-out: p99 pull time to meet")
    Double targetP99;

    @Option(names = "--target-refit", paramLabel = "SECONDS", description = "refit: time per refit cycle to meet")
    Double targetRefit;

    @Option(names = "--refit-cycle", paramLabel = "CYCLE", description = "refit: the cycle the target is on, first or "
            + "steady (the last; default)")
    String refitCycle;

    @Option(names = "--vary", required = true, paramLabel = "KNOB", description = "fan-out: sources, nics, rails or "
            + "tree-degree; refit: senders, nics, bucket or inference-tp")
    String vary;

    @Option(names = "--max", paramLabel = "N", description = "largest value to try (default and ceiling: the knob's bound)")
    Integer max;

    @Option(names = "--variant", paramLabel = "NAME", description = "variant to size (default: the first)")
    String variant;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "output folder (default: reports/<scenario>-size-<knob>/)")
    Path out;

    @Option(names = "--force", description = "write into DIR beside files rdmasim did not write (they are kept; "
            + "only the earlier sizing's own files are replaced)")
    boolean force;

    @picocli.CommandLine.Mixin
    ThreadsOption threadsOption = new ThreadsOption();

    @picocli.CommandLine.Mixin
    ScenarioFiles scenarioFiles = new ScenarioFiles();

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (targetP99 == null && targetRefit == null) {
            throw new BadInputException("give --target-p99 SECONDS (a fan-out's p99 pull time) or --target-refit "
                    + "SECONDS (a refit's time per cycle)");
        }
        if (targetP99 != null && targetRefit != null) {
            throw new BadInputException("--target-p99 and --target-refit exclude each other: the first sizes a fan-out, "
                    + "the second a refit");
        }
        boolean refitTarget = targetRefit != null;
        double target = refitTarget ? targetRefit : targetP99;
        String targetOption = refitTarget ? "--target-refit" : "--target-p99";
        if (!(target > 0) || Double.isInfinite(target)) {
            throw new BadInputException(targetOption + " must be a positive number of seconds, got " + target);
        }
        java.util.Optional<Sizing.Knob> fanoutKnob = java.util.Optional.empty();
        try {
            fanoutKnob = java.util.Optional.of(Sizing.Knob.parse(vary));
        } catch (IllegalArgumentException e) {
            // perhaps a refit knob
        }
        java.util.Optional<RefitSizing.Knob> refitKnob = RefitSizing.Knob.find(vary);
        if (fanoutKnob.isEmpty() && refitKnob.isEmpty()) {
            throw new BadInputException("--vary: expected sources, nics, rails or tree-degree (fan-out) or senders, "
                    + "nics, bucket or inference-tp (refit), got '" + vary + "'");
        }
        if (max != null && max < 1) {
            throw new BadInputException("--max must be at least 1, got " + max);
        }
        if (refitCycle != null && !refitCycle.equals("first") && !refitCycle.equals("steady")) {
            throw new BadInputException("--refit-cycle: expected first or steady, got '" + refitCycle + "'");
        }
        Scenario scenario = scenarioFiles.load(scenarioFile);
        VariantSpec base = scenario.variants().get(0);
        if (variant != null) {
            base = scenario.variants().stream().filter(v -> v.name().equals(variant)).findFirst()
                    .orElseThrow(() -> new BadInputException("no variant named '" + variant + "' in " + scenarioFile));
        }
        if (base.isRefit()) {
            if (!refitTarget) {
                throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a refit (workload: "
                        + "{refit: ...}): give --target-refit SECONDS, its time per cycle; --target-p99 is a fan-out's");
            }
            if (refitKnob.isEmpty()) {
                throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a refit: --vary " + vary
                        + " sizes a fan-out; a refit varies senders, nics, bucket or inference-tp");
            }
            return sizeRefit(scenario, base, refitKnob.get(), target, o, err);
        }
        if (!base.isFanout()) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name()
                    + "' has no fan-out workload (workload: {fanout: ...}) or refit workload (workload: {refit: ...}) "
                    + "to size");
        }
        if (refitTarget || refitCycle != null) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a fan-out: "
                    + (refitTarget ? "--target-refit" : "--refit-cycle") + " applies to a refit; give --target-p99 SECONDS");
        }
        if (fanoutKnob.isEmpty()) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name() + "' is a fan-out: --vary " + vary
                    + " sizes a refit; a fan-out varies sources, nics, rails or tree-degree");
        }
        Sizing.Knob knob = fanoutKnob.get();
        Sizing.Bound bound = Sizing.bound(base, knob);
        if (max != null && max > bound.value()) {
            throw new BadInputException("--max " + max + " is above the largest " + knob.label() + " worth trying for '"
                    + base.name() + "': " + bound.value() + " (" + bound.why() + ")");
        }
        int top = max != null ? max : bound.value();
        int workers = threadsOption.count();
        Path dir = claim(scenario, knob.label(), Sweep.files(knob.label(), false));
        String boundText = max != null ? "--max " + top : bound.why();
        Sweep sweep = new Sweep(scenario.name(), base.name(), knob, target, scenario.replications(), top, boundText, dir, o, err);
        VariantSpec sized = base;
        Evaluator runner = value -> {
            VariantSpec v;
            try {
                v = Sizing.apply(sized, knob, value);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            VariantOutcome outcome = VariantRunner.run(v, scenario.seed(), scenario.replications(), workers);
            if (outcome.status() != VariantOutcome.Status.OK) {
                return new Row(value, Double.NaN, Double.NaN, Double.NaN, false, outcome.error(), null);
            }
            ReplicationStats st = outcome.replicationStats();
            double p99 = st.pooledP99PullSeconds();
            return new Row(value, p99, st.meanPullSeconds().mean(), st.makespanSeconds().mean(), p99 <= target, "",
                    finishes(outcome.result().fanout()));
        };
        return runWithHook(sweep, runner);
    }

    /** The refit search: the knob's ladder walked by the same search, each point one run of the refit. */
    private int sizeRefit(Scenario scenario, VariantSpec base, RefitSizing.Knob knob, double target, PrintWriter o,
            PrintWriter err) throws IOException {
        RefitSizing.Ladder ladder;
        try {
            ladder = RefitSizing.ladder(base, knob);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name() + "': " + e.getMessage());
        }
        List<RefitSizing.Step> steps = ladder.steps();
        String boundText = ladder.why();
        if (max != null) {
            if (!knob.monotone()) {
                throw new BadInputException("--max does not apply to --vary " + knob.label() + ": every value of "
                        + boundText + " is run");
            }
            long largest = steps.get(steps.size() - 1).value();
            if (max > largest) {
                throw new BadInputException("--max " + max + " is above the largest " + knob.label() + " worth trying for '"
                        + base.name() + "': " + largest + " (" + boundText + ")");
            }
            steps = steps.stream().filter(st -> st.value() <= max).toList();
            if (steps.isEmpty()) {
                throw new BadInputException("--max " + max + " leaves no valid " + knob.label() + " to try (the smallest is "
                        + ladder.steps().get(0).value() + ")");
            }
            boundText = "--max " + max;
        }
        String cycle = refitCycle == null ? "steady" : refitCycle;
        Path dir = claim(scenario, knob.label(), Sweep.files(knob.label(), true));
        Sweep sweep = new Sweep(scenario.name(), base.name(), knob, cycle, target, steps, ladder.skipped(), boundText,
                dir, o, err);
        VariantSpec sized = base;
        List<RefitSizing.Step> ladderSteps = steps;
        Evaluator runner = position -> {
            long value = ladderSteps.get(position - 1).value();
            VariantSpec v = RefitSizing.apply(sized, knob, value);
            VariantOutcome outcome = VariantRunner.runRefitOnly(v);
            if (outcome.status() != VariantOutcome.Status.OK) {
                return Row.failed(position, outcome.error());
            }
            RefitSummary s = outcome.result().refit();
            double figure = cycle.equals("first") ? s.firstCycleSeconds() : s.steadyCycleSeconds();
            RefitSummary.Cycle c = cycle.equals("first") ? s.cycles().get(0) : s.cycles().get(s.cycles().size() - 1);
            return new Row(position, figure, s.firstCycleSeconds(), s.steadyCycleSeconds(), figure <= target, "", null,
                    c.boundBy());
        };
        return runWithHook(sweep, runner);
    }

    /** The output folder, refusing to replace a file of the sizing's own names that rdmasim did not write. */
    private Path claim(Scenario scenario, String label, List<String> files) throws IOException {
        Path given = out != null ? out : Path.of("reports", scenario.name() + "-size-" + label);
        Path dir = org.rdmasim.report.ReportFolder.claim(given, RunCommand.inputs(scenario), force);
        if (java.nio.file.Files.isDirectory(dir)) {
            List<String> clash = org.rdmasim.report.ReportFolder.foreignEntries(dir, java.util.Set.of()).stream()
                    .filter(files::contains).toList();
            if (!clash.isEmpty()) {
                throw new BadInputException("will not replace " + String.join(", ", clash) + " in " + given
                        + ": rdmasim did not write it (or it changed since); move it or choose another --out");
            }
        }
        return dir;
    }

    private static int runWithHook(Sweep sweep, Evaluator runner) throws IOException {
        Thread worker = Thread.currentThread();
        Thread hook = new Thread(() -> sweep.onCtrlC(worker, 5000), "rdmasim-size-ctrl-c");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return sweep.run(runner);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down: the hook is running and writes or waits for the points.
            }
        }
    }

    /** Simulates the sized variant at one point of the search (a refit's: a position on its knob's ladder). */
    interface Evaluator {
        Row evaluate(int value) throws IOException;
    }

    /**
     * One point of the search; NaN figures and an error when the variant failed. For a fan-out {@code p99},
     * {@code mean} and {@code makespan} are pull-time figures; for a refit {@code p99} is the time of the cycle
     * the target is on, {@code mean} the first cycle's and {@code makespan} the steady (last) cycle's.
     *
     * @param value    the knob's value (a refit's: its position on the knob's ladder, from 1)
     * @param finishes the first cycle's receiver finish times, sorted (null when the variant failed, and for a refit)
     * @param boundBy  a refit's bound in the cycle the target is on; empty for a fan-out
     */
    record Row(int value, double p99, double mean, double makespan, boolean meets, String error, double[] finishes,
            String boundBy) {
        Row(int value, double p99, double mean, double makespan, boolean meets, String error, double[] finishes) {
            this(value, p99, mean, makespan, meets, error, finishes, "");
        }

        static Row failed(int value, String error) {
            return new Row(value, Double.NaN, Double.NaN, Double.NaN, false, error, null, "");
        }
    }

    /**
     * A search in progress and its output: points are kept as they finish, so that the worker thread
     * (at the end, or when it sees an interrupt between points) or the Ctrl-C hook (when the worker is
     * inside a point that does not stop) writes whatever has been simulated; whichever comes first writes.
     */
    static final class Sweep {
        private final String scenario;
        private final String variantName;
        private final String label;
        private final double target;
        private final int replications;
        private final String boundText;
        private final Path dir;
        private final PrintWriter o;
        private final PrintWriter err;
        private final SizingSearch search;
        /** A refit's: the cycle the target is on, the knob's ladder and the values left out of it. */
        private final String cycle;
        private final List<RefitSizing.Step> steps;
        private final List<RefitSizing.Skipped> skipped;
        private final Map<Integer, Row> rows = new TreeMap<>();
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch written = new CountDownLatch(1);
        private long pointNanos;

        /** A fan-out search over 1..{@code top}. */
        Sweep(String scenario, String variantName, Sizing.Knob knob, double target, int replications, int top,
                String boundText, Path dir, PrintWriter o, PrintWriter err) {
            this(scenario, variantName, knob.label(), target, replications, new SizingSearch(top), boundText, dir, o, err,
                    null, null, List.of());
        }

        /** A refit search over the knob's ladder: gallop and bisection, or a scan when the knob is not monotone. */
        Sweep(String scenario, String variantName, RefitSizing.Knob knob, String cycle, double target,
                List<RefitSizing.Step> steps, List<RefitSizing.Skipped> skipped, String boundText, Path dir, PrintWriter o,
                PrintWriter err) {
            this(scenario, variantName, knob.label(), target, 1, knob.monotone() ? new SizingSearch(steps.size())
                    : SizingSearch.scan(steps.size()), boundText, dir, o, err, cycle, steps, skipped);
        }

        private Sweep(String scenario, String variantName, String label, double target, int replications,
                SizingSearch search, String boundText, Path dir, PrintWriter o, PrintWriter err, String cycle,
                List<RefitSizing.Step> steps, List<RefitSizing.Skipped> skipped) {
            this.scenario = scenario;
            this.variantName = variantName;
            this.label = label;
            this.target = target;
            this.replications = replications;
            this.boundText = boundText;
            this.dir = dir;
            this.o = o;
            this.err = err;
            this.search = search;
            this.cycle = cycle;
            this.steps = steps == null ? null : List.copyOf(steps);
            this.skipped = List.copyOf(skipped);
        }

        private boolean refit() {
            return steps != null;
        }

        /** The knob's value at a search position (a fan-out's positions are its values). */
        private long valueAt(int position) {
            return refit() ? steps.get(position - 1).value() : position;
        }

        private String shownAt(int position) {
            return refit() ? steps.get(position - 1).shown() : Integer.toString(position);
        }

        /** Runs the search to its end, or until the thread is interrupted; returns the exit code. */
        int run(Evaluator eval) throws IOException {
            try (Progress progress = new Progress(err)) {
                while (true) {
                    OptionalInt next;
                    synchronized (this) {
                        next = search.next();
                    }
                    if (next.isEmpty()) {
                        break;
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        return interrupted();
                    }
                    int value = next.getAsInt();
                    long start = System.nanoTime();
                    progress.update(status(value, 0));
                    Thread ticker = new Thread(() -> {
                        try {
                            while (true) {
                                Thread.sleep(1000);
                                progress.update(status(value, (System.nanoTime() - start) / 1e9));
                            }
                        } catch (InterruptedException e) {
                            // the point is over
                        }
                    }, "rdmasim-size-progress");
                    ticker.setDaemon(true);
                    ticker.start();
                    Row r;
                    try {
                        r = eval.evaluate(value);
                    } catch (RuntimeException e) {
                        // Replications waited on by an interrupted thread end in an exception: a stop, not a failure.
                        if (Thread.currentThread().isInterrupted()) {
                            return interrupted();
                        }
                        throw e;
                    } finally {
                        ticker.interrupt();
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        return interrupted(); // the point may have been cut short: not kept
                    }
                    add(r, System.nanoTime() - start);
                }
            }
            if (!claimed.compareAndSet(false, true)) {
                return awaitHook();
            }
            try {
                write(true);
            } finally {
                written.countDown();
            }
            return Main.OK;
        }

        synchronized void add(Row r, long nanos) {
            search.record(new SizingSearch.Point(r.value(), r.p99(), r.meets()));
            rows.put(r.value(), r);
            pointNanos += nanos;
        }

        /**
         * The progress line: the point under way and how long it has run, points done of the most there
         * can be, the mean time per finished point, and the time left if every remaining point took the
         * longer of that mean and the current point's time so far (points differ: more sources, more hosts).
         */
        synchronized String status(int value, double runningSeconds) {
            int done = search.evaluated();
            int left = search.maxRemaining(); // the point under way included
            String s = String.format(Locale.ROOT, "%s: %s = %s, point %d of at most %d, running %.0f s", scenario,
                    label, shownAt(value), done + 1, done + left, runningSeconds);
            if (done > 0) {
                double mean = pointNanos / 1e9 / done;
                double per = Math.max(mean, runningSeconds);
                s += String.format(Locale.ROOT, "; %.1f s per point so far; up to %.0f s left at that rate", mean,
                        per * left - runningSeconds);
            }
            return s;
        }

        /** The worker saw the interrupt: write the points so far unless the hook already does. */
        private int interrupted() throws IOException {
            if (!claimed.compareAndSet(false, true)) {
                return awaitHook();
            }
            try {
                write(false);
            } finally {
                written.countDown();
            }
            return Main.INTERRUPTED;
        }

        private int awaitHook() {
            try {
                written.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Main.INTERRUPTED;
        }

        /**
         * Ctrl-C: interrupt the worker and give it {@code waitMillis} to write the points it has; a point
         * that does not stop (one replication, no thread to interrupt) is abandoned and the hook writes
         * the points before it. The JVM then exits with the signal's 130.
         */
        void onCtrlC(Thread worker, long waitMillis) {
            if (written.getCount() == 0) {
                return;
            }
            if (!claimed.get()) {
                // Not while the worker writes: an interrupt would close the file channel under it.
                worker.interrupt();
            }
            try {
                if (written.await(waitMillis, TimeUnit.MILLISECONDS)) {
                    return;
                }
                if (claimed.compareAndSet(false, true)) {
                    try {
                        write(false);
                    } finally {
                        written.countDown();
                    }
                } else {
                    written.await(10, TimeUnit.SECONDS); // the worker is writing: let it finish
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                err.println("rdmasim: I/O error writing the points so far: " + e.getMessage());
            }
        }

        /** Table, CSV and JSON of the points so far; charts only for a finished search. */
        synchronized void write(boolean complete) throws IOException {
            List<Row> all = List.copyOf(rows.values());
            OptionalInt answer = search.answer();
            List<String> violations = refit()
                    ? search.violations(label, this::shownAt, "refit time")
                    : search.violations(label);
            if (refit()) {
                printRefitTable(complete, all, answer, violations);
            } else {
                printTable(complete, all, answer, violations);
            }
            Files.createDirectories(dir);
            for (String stale : List.of("sizing-" + label, "receivers-vs-time-" + label)) {
                org.rdmasim.report.ReportFolder.deleteIfOwned(dir, stale + ".png");
                org.rdmasim.report.ReportFolder.deleteIfOwned(dir, stale + ".svg");
            }
            if (complete) {
                writeCharts(all);
            }
            if (refit()) {
                writeRefitCsv(all);
                writeRefitJson(complete, all, answer, violations);
            } else {
                writeCsv(all);
                writeJson(complete, all, answer, violations);
            }
            org.rdmasim.report.ReportFolder.recordWritten(dir, files(label, refit()));
            o.println((complete ? "search written to " : "points so far written to ") + dir);
            o.flush();
            if (!complete) {
                err.println("rdmasim: " + scenario + ": interrupted after " + all.size() + " point(s); they are kept in "
                        + dir + " (marked incomplete)");
                err.flush();
            }
        }

        private void printTable(boolean complete, List<Row> all, OptionalInt answer, List<String> violations) {
            o.printf(Locale.ROOT, "%s: sizing '%s' by %s for p99 pull time <= %.4g s (%d replication(s))%n", scenario,
                    variantName, label, target, replications);
            o.printf(Locale.ROOT, "assumes more %s never make p99 worse (monotone): tried 1, 2, 4, ... up to %d (%s), "
                    + "then bisection; %d point(s) simulated, at most %d%n", label, search.bound(), boundText,
                    all.size(), search.mostPoints());
            if (!complete) {
                o.println("INCOMPLETE: interrupted; the points simulated so far:");
            }
            o.printf(Locale.ROOT, "  %11s %12s %12s %12s  %s%n", label, "p99(s)", "mean(s)", "makespan(s)",
                    "meets target");
            for (Row r : all) {
                if (!r.error().isEmpty()) {
                    o.printf(Locale.ROOT, "  %11d %12s %12s %12s  no: FAILED: %s%n", r.value(), "-", "-", "-",
                            r.error().lines().findFirst().orElse(""));
                    continue;
                }
                o.printf(Locale.ROOT, "  %11d %12.4f %12.4f %12.4f  %s%n", r.value(), r.p99(), r.mean(), r.makespan(),
                        r.meets() ? "yes" : "no");
            }
            for (String v : violations) {
                o.println("monotonicity violated: " + v + "; the answer may not be the smallest value that meets");
            }
            if (complete) {
                if (answer.isPresent()) {
                    o.printf(Locale.ROOT, "smallest %s that meets the target: %d (p99 %.4f s)%n", label,
                            answer.getAsInt(), rows.get(answer.getAsInt()).p99());
                } else {
                    o.printf(Locale.ROOT, "no %s up to %d meets the target%n", label, search.bound());
                }
                return;
            }
            OptionalInt meets = all.stream().filter(Row::meets).mapToInt(Row::value).min();
            int missed = all.stream().filter(r -> !r.meets()).mapToInt(Row::value).max().orElse(0);
            if (meets.isPresent()) {
                o.printf(Locale.ROOT, "no answer yet: the smallest %s that meets the target is between %d and %d%n",
                        label, missed + 1, meets.getAsInt());
            } else {
                o.printf(Locale.ROOT, "no answer yet: no %s tried so far meets the target (largest tried %d)%n",
                        label, missed);
            }
        }

        private String ladderText() {
            return steps.stream().map(RefitSizing.Step::shown).collect(java.util.stream.Collectors.joining(", "));
        }

        private String assumption() {
            return search.monotone()
                    ? "more " + label + " never make a refit longer (monotone)"
                    : "none: a larger " + label + " can make a refit faster or slower (fewer per-bucket starts against "
                            + "a later pipeline fill and a larger buffer to register), so every value is run";
        }

        private void printRefitTable(boolean complete, List<Row> all, OptionalInt answer, List<String> violations) {
            o.printf(Locale.ROOT, "%s: sizing '%s' by %s for refit time per %s cycle <= %.4g s%n", scenario, variantName,
                    label, cycle, target);
            if (search.monotone()) {
                o.printf(Locale.ROOT, "assumes %s: values %s (%s); tried the 1st, 2nd, 4th, ... of them, then bisection; "
                        + "%d point(s) simulated, at most %d%n", assumption(), ladderText(), boundText, all.size(),
                        search.mostPoints());
            } else {
                o.printf(Locale.ROOT, "assumes %s: %s (%s); %d point(s) simulated of %d%n", assumption(), ladderText(),
                        boundText, all.size(), search.mostPoints());
            }
            for (RefitSizing.Skipped k : skipped) {
                o.printf(Locale.ROOT, "skipped %s=%d: %s%n", label, k.value(), k.why());
            }
            if (!complete) {
                o.println("INCOMPLETE: interrupted; the points simulated so far:");
            }
            o.printf(Locale.ROOT, "  %12s %12s %12s %12s  %-13s %s%n", label, "refit(s)", "first(s)", "steady(s)",
                    "meets target", "bound by");
            for (Row r : all) {
                if (!r.error().isEmpty()) {
                    o.printf(Locale.ROOT, "  %12s %12s %12s %12s  %-13s %s%n", shownAt(r.value()), "-", "-", "-",
                            "no: FAILED", r.error().lines().findFirst().orElse(""));
                    continue;
                }
                o.printf(Locale.ROOT, "  %12s %12.4f %12.4f %12.4f  %-13s %s%n", shownAt(r.value()), r.p99(), r.mean(),
                        r.makespan(), r.meets() ? "yes" : "no", r.boundBy());
            }
            for (String v : violations) {
                o.println("monotonicity violated: " + v + "; the answer may not be the smallest value that meets");
            }
            if (!complete) {
                List<Row> met = all.stream().filter(Row::meets).toList();
                o.printf(Locale.ROOT, "no answer yet: %s%n", met.isEmpty() ? "no " + label + " tried so far meets the target"
                        : label + " " + met.stream().map(r -> shownAt(r.value()))
                                .collect(java.util.stream.Collectors.joining(", ")) + " met it so far");
                return;
            }
            if (search.monotone()) {
                if (answer.isPresent()) {
                    o.printf(Locale.ROOT, "smallest %s that meets the target: %s (%s cycle %.4f s)%n", label,
                            shownAt(answer.getAsInt()), cycle, rows.get(answer.getAsInt()).p99());
                } else {
                    o.printf(Locale.ROOT, "no %s up to %s meets the target%n", label, shownAt(search.bound()));
                }
                return;
            }
            o.println(direction(all));
            OptionalInt smallest = all.stream().filter(Row::meets).mapToInt(Row::value).min();
            if (answer.isPresent()) {
                o.printf(Locale.ROOT, "best %s that meets the target: %s (%s cycle %.4f s, the fastest of those tried); "
                        + "smallest that meets: %s%n", label, shownAt(answer.getAsInt()), cycle,
                        rows.get(answer.getAsInt()).p99(), shownAt(smallest.getAsInt()));
            } else {
                o.printf(Locale.ROOT, "no %s from %s to %s meets the target%n", label, shownAt(1), shownAt(search.bound()));
            }
        }

        /** Which way a non-monotone knob helps, from where the fastest point lies among those run. */
        private String direction(List<Row> all) {
            List<Row> ok = all.stream().filter(r -> r.error().isEmpty()).toList();
            if (ok.isEmpty()) {
                return "direction: no point ran";
            }
            Row best = ok.stream().min(java.util.Comparator.comparingDouble(Row::p99).thenComparingInt(Row::value))
                    .orElseThrow();
            String at = shownAt(best.value());
            if (best == ok.get(0)) {
                return "direction: smaller " + label + "s help: the fastest is the smallest tried, " + at;
            }
            if (best == ok.get(ok.size() - 1)) {
                return "direction: larger " + label + "s help: the fastest is the largest tried, " + at;
            }
            return "direction: neither throughout: the refit is fastest at " + at + ", slower on both sides";
        }

        /**
         * Every file a sizing by the knob {@code label} writes (charts only once the search is complete); a refit
         * has no receivers-over-time chart.
         */
        static List<String> files(String label, boolean refit) {
            if (refit) {
                return List.of("sizing.csv", "sizing.json", "sizing-" + label + ".png", "sizing-" + label + ".svg");
            }
            return List.of("sizing.csv", "sizing.json", "sizing-" + label + ".png", "sizing-" + label + ".svg",
                    "receivers-vs-time-" + label + ".png", "receivers-vs-time-" + label + ".svg");
        }

        private void writeCharts(List<Row> all) throws IOException {
            List<Row> ok = all.stream().filter(r -> r.error().isEmpty()).toList();
            double[] x = ok.stream().mapToDouble(r -> (double) valueAt(r.value())).toArray();
            double[] p99 = ok.stream().mapToDouble(Row::p99).toArray();
            double[] makespan = ok.stream().mapToDouble(Row::makespan).toArray();
            if (refit()) {
                double[] first = ok.stream().mapToDouble(Row::mean).toArray();
                boolean bytes = label.equals(RefitSizing.Knob.BUCKET.label());
                if (bytes) {
                    x = java.util.Arrays.stream(x).map(b -> b / (1 << 20)).toArray();
                }
                org.jfree.chart.JFreeChart chart = Charts.sizing("Sizing " + variantName + " by " + label + ": "
                        + scenario, bytes ? label + " (MiB)" : label, x, "first cycle", first, "steady cycle", makespan,
                        target, "target (" + cycle + " cycle)");
                if (bytes) {
                    // powers of two: evenly spaced on a base-2 axis
                    org.jfree.chart.axis.LogAxis axis = new org.jfree.chart.axis.LogAxis(label + " (MiB)");
                    axis.setBase(2);
                    axis.setStandardTickUnits(org.jfree.chart.axis.NumberAxis.createIntegerTickUnits());
                    axis.setNumberFormatOverride(new java.text.DecimalFormat("0"));
                    chart.getXYPlot().setDomainAxis(axis);
                }
                ChartFiles.write(chart, dir, "sizing-" + label);
                return;
            }
            Map<String, double[]> curves = new LinkedHashMap<>();
            for (Row r : ok) {
                curves.put(label + "=" + r.value(), r.finishes());
            }
            ChartFiles.write(Charts.sizing("Sizing " + variantName + " by " + label + ": " + scenario, label,
                    x, p99, makespan, target), dir, "sizing-" + label);
            ChartFiles.write(Charts.receiversVsTime("Receivers with the model over time, per " + label + ": "
                    + scenario, curves), dir, "receivers-vs-time-" + label);
        }

        private void writeCsv(List<Row> all) throws IOException {
            StringBuilder b = new StringBuilder(label + ",status,p99PullSeconds,meanPullSeconds,makespanSeconds,"
                    + "meetsTarget\n");
            for (Row r : all) {
                if (r.error().isEmpty()) {
                    b.append(String.format(Locale.ROOT, "%d,ok,%s,%s,%s,%b%n", r.value(), r.p99(), r.mean(), r.makespan(),
                            r.meets()));
                } else {
                    b.append(r.value()).append(",failed,,,,false\n");
                }
            }
            Files.writeString(dir.resolve("sizing.csv"), b.toString(), StandardCharsets.UTF_8);
        }

        private void writeRefitCsv(List<Row> all) throws IOException {
            StringBuilder b = new StringBuilder(label + ",status,refitSeconds,firstCycleSeconds,steadyCycleSeconds,"
                    + "meetsTarget,boundBy\n");
            for (Row r : all) {
                long v = valueAt(r.value());
                if (r.error().isEmpty()) {
                    b.append(String.format(Locale.ROOT, "%d,ok,%s,%s,%s,%b,%s%n", v, r.p99(), r.mean(), r.makespan(),
                            r.meets(), csvText(r.boundBy())));
                } else {
                    b.append(v).append(",failed,,,,false,\n");
                }
            }
            Files.writeString(dir.resolve("sizing.csv"), b.toString(), StandardCharsets.UTF_8);
        }

        private static String csvText(String text) {
            if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
                return "\"" + text.replace("\"", "\"\"") + "\"";
            }
            return text;
        }

        private void writeJson(boolean complete, List<Row> all, OptionalInt answer, List<String> violations)
                throws IOException {
            ObjectNode root = SummaryJson.mapper().createObjectNode();
            root.put("scenario", scenario);
            root.put("variant", variantName);
            root.put("knob", label);
            root.put("targetP99Seconds", target);
            root.put("complete", complete);
            root.put("bound", search.bound());
            root.put("boundReason", boundText);
            root.put("assumption", "more " + label + " never make p99 worse (monotone)");
            root.put("pointsSimulated", all.size());
            root.put("mostPoints", search.mostPoints());
            if (complete && answer.isPresent()) {
                root.put("smallestMeeting", answer.getAsInt());
            } else {
                root.putNull("smallestMeeting");
            }
            ArrayNode v = root.putArray("monotonicityViolations");
            violations.forEach(v::add);
            ArrayNode arr = root.putArray("sweep");
            for (Row r : all) {
                ObjectNode n = arr.addObject();
                n.put("value", r.value());
                n.put("status", r.error().isEmpty() ? "ok" : "failed");
                if (r.error().isEmpty()) {
                    n.put("p99PullSeconds", r.p99());
                    n.put("meanPullSeconds", r.mean());
                    n.put("makespanSeconds", r.makespan());
                    n.put("meetsTarget", r.meets());
                } else {
                    n.put("meetsTarget", false);
                    n.put("error", r.error());
                }
            }
            SummaryJson.write(dir.resolve("sizing.json"), root);
        }

        private void writeRefitJson(boolean complete, List<Row> all, OptionalInt answer, List<String> violations)
                throws IOException {
            ObjectNode root = SummaryJson.mapper().createObjectNode();
            root.put("scenario", scenario);
            root.put("variant", variantName);
            root.put("knob", label);
            root.put("targetRefitSeconds", target);
            root.put("cycle", cycle);
            root.put("complete", complete);
            root.put("search", search.monotone() ? "gallop-bisect" : "scan");
            ArrayNode values = root.putArray("values");
            steps.forEach(st -> values.add(st.value()));
            root.put("boundReason", boundText);
            root.put("assumption", assumption());
            ArrayNode skip = root.putArray("skipped");
            for (RefitSizing.Skipped k : skipped) {
                ObjectNode n = skip.addObject();
                n.put("value", k.value());
                n.put("why", k.why());
            }
            root.put("pointsSimulated", all.size());
            root.put("mostPoints", search.mostPoints());
            OptionalInt smallest = search.monotone() ? answer
                    : all.stream().filter(Row::meets).mapToInt(Row::value).min();
            if (complete && smallest.isPresent()) {
                root.put("smallestMeeting", valueAt(smallest.getAsInt()));
            } else {
                root.putNull("smallestMeeting");
            }
            if (!search.monotone()) {
                if (complete && answer.isPresent()) {
                    root.put("bestMeeting", valueAt(answer.getAsInt()));
                } else {
                    root.putNull("bestMeeting");
                }
                root.put("direction", complete ? direction(all) : "");
            }
            ArrayNode v = root.putArray("monotonicityViolations");
            violations.forEach(v::add);
            ArrayNode arr = root.putArray("sweep");
            for (Row r : all) {
                ObjectNode n = arr.addObject();
                n.put("value", valueAt(r.value()));
                n.put("shown", shownAt(r.value()));
                n.put("status", r.error().isEmpty() ? "ok" : "failed");
                if (r.error().isEmpty()) {
                    n.put("refitSeconds", r.p99());
                    n.put("firstCycleSeconds", r.mean());
                    n.put("steadyCycleSeconds", r.makespan());
                    n.put("boundBy", r.boundBy());
                    n.put("meetsTarget", r.meets());
                } else {
                    n.put("meetsTarget", false);
                    n.put("error", r.error());
                }
            }
            SummaryJson.write(dir.resolve("sizing.json"), root);
        }
    }

    /** Finish times of the first cycle's receivers, from the start of its pull phase, sorted. */
    private static double[] finishes(FanoutResult f) {
        FanoutResult.Cycle c = f.cycles().get(0);
        double start = c.startSeconds() + c.metadataSeconds() + c.registrationSeconds();
        double[] t = f.pulls().stream().filter(p -> p.cycle() == 0).mapToDouble(p -> p.finishSeconds() - start).toArray();
        Arrays.sort(t);
        return t;
    }
}
