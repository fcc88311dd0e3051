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
import org.rdmasim.scenario.Sizing;
import org.rdmasim.scenario.SizingSearch;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.VariantOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rdmasim size SCENARIO --target-p99 SECONDS --vary sources|nics|rails|tree-degree [--max N]}. */
@Command(name = "size", mixinStandardHelpOptions = true,
        description = {
                "Find the smallest setting of one knob of a fan-out variant whose p99 pull",
                "time (pooled over replications) meets the target. It tries 1, 2, 4, 8, ...",
                "until a setting meets the target or the knob's bound is reached, then bisects",
                "between the last setting that missed and the first that met: at most",
                "2 x ceil(log2 answer) settings simulated, ceil(log2 bound) + 1 if none meets.",
                "",
                "Assumption (monotonicity): more sources, NICs, rails or tree degree never make",
                "p99 worse. The output states it and reports neighbouring points whose p99",
                "rises with the knob; the answer may then not be the smallest.",
                "",
                "Bound (default and ceiling of --max), the most a knob can usefully be:",
                "  sources      the receiver hosts (each pulls from one source)",
                "  nics         the receiver host's NICs",
                "  rails        the lanes a receiver GPU can have: NICs x paths per port",
                "               (UCX_IB_NUM_PATHS; auto: 2 on NDR/XDR ports); a higher",
                "               UCX_MAX_RMA_RAILS selects no more lanes",
                "  tree-degree  the receiver hosts (a source then serves all directly)",
                "",
                "Writes sizing.json, sizing.csv and charts. The progress line shows points done",
                "of at most N and the time per point so far. Ctrl-C keeps the points simulated",
                "so far: table, CSV and JSON marked incomplete (no charts).",
                "Exit codes: 0 the search ran (whether or not a setting meets the target),",
                "2 bad input, 130 interrupted (points so far written)."})
public final class SizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "a scenario with a fan-out workload")
    Path scenarioFile;

    @Option(names = "--target-p99", required = true, paramLabel = "SECONDS", description = "p99 pull time to meet")
    double target;

    @Option(names = "--vary", required = true, paramLabel = "KNOB", description = "sources, nics, rails or tree-degree")
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
        if (!(target > 0)) {
            throw new BadInputException("--target-p99 must be a positive number of seconds, got " + target);
        }
        Sizing.Knob knob;
        try {
            knob = Sizing.Knob.parse(vary);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--vary: " + e.getMessage());
        }
        if (max != null && max < 1) {
            throw new BadInputException("--max must be at least 1, got " + max);
        }
        Scenario scenario = scenarioFiles.load(scenarioFile);
        VariantSpec base = scenario.variants().get(0);
        if (variant != null) {
            base = scenario.variants().stream().filter(v -> v.name().equals(variant)).findFirst()
                    .orElseThrow(() -> new BadInputException("no variant named '" + variant + "' in " + scenarioFile));
        }
        if (!base.isFanout()) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name()
                    + "' has no fan-out workload (workload: {fanout: ...}) to size");
        }
        Sizing.Bound bound = Sizing.bound(base, knob);
        if (max != null && max > bound.value()) {
            throw new BadInputException("--max " + max + " is above the largest " + knob.label() + " worth trying for '"
                    + base.name() + "': " + bound.value() + " (" + bound.why() + ")");
        }
        int top = max != null ? max : bound.value();
        int workers = threadsOption.count();
        Path given = out != null ? out : Path.of("reports", scenario.name() + "-size-" + knob.label());
        Path dir = org.rdmasim.report.ReportFolder.claim(given, RunCommand.inputs(scenario), force);
        if (java.nio.file.Files.isDirectory(dir)) {
            List<String> clash = org.rdmasim.report.ReportFolder.foreignEntries(dir, java.util.Set.of()).stream()
                    .filter(Sweep.files(knob)::contains).toList();
            if (!clash.isEmpty()) {
                throw new BadInputException("will not replace " + String.join(", ", clash) + " in " + given
                        + ": rdmasim did not write it (or it changed since); move it or choose another --out");
            }
        }
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

    /** Simulates the sized variant at one knob value. */
    interface Evaluator {
        Row evaluate(int value) throws IOException;
    }

    /**
     * One point of the search; NaN figures and an error when the variant failed.
     *
     * @param finishes the first cycle's receiver finish times, sorted (null when the variant failed)
     */
    record Row(int value, double p99, double mean, double makespan, boolean meets, String error, double[] finishes) {
    }

    /**
     * A search in progress and its output: points are kept as they finish, so that the worker thread
     * (at the end, or when it sees an interrupt between points) or the Ctrl-C hook (when the worker is
     * inside a point that does not stop) writes whatever has been simulated; whichever comes first writes.
     */
    static final class Sweep {
        private final String scenario;
        private final String variantName;
        private final Sizing.Knob knob;
        private final double target;
        private final int replications;
        private final String boundText;
        private final Path dir;
        private final PrintWriter o;
        private final PrintWriter err;
        private final SizingSearch search;
        private final Map<Integer, Row> rows = new TreeMap<>();
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch written = new CountDownLatch(1);
        private long pointNanos;

        Sweep(String scenario, String variantName, Sizing.Knob knob, double target, int replications, int top,
                String boundText, Path dir, PrintWriter o, PrintWriter err) {
            this.scenario = scenario;
            this.variantName = variantName;
            this.knob = knob;
            this.target = target;
            this.replications = replications;
            this.boundText = boundText;
            this.dir = dir;
            this.o = o;
            this.err = err;
            this.search = new SizingSearch(top);
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
            String s = String.format(Locale.ROOT, "%s: %s = %d, point %d of at most %d, running %.0f s", scenario,
                    knob.label(), value, done + 1, done + left, runningSeconds);
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
            List<String> violations = search.violations(knob.label());
            printTable(complete, all, answer, violations);
            Files.createDirectories(dir);
            for (String stale : List.of("sizing-" + knob.label(), "receivers-vs-time-" + knob.label())) {
                org.rdmasim.report.ReportFolder.deleteIfOwned(dir, stale + ".png");
                org.rdmasim.report.ReportFolder.deleteIfOwned(dir, stale + ".svg");
            }
            if (complete) {
                writeCharts(all);
            }
            writeCsv(all);
            writeJson(complete, all, answer, violations);
            org.rdmasim.report.ReportFolder.recordWritten(dir, files(knob));
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
                    variantName, knob.label(), target, replications);
            o.printf(Locale.ROOT, "assumes more %s never make p99 worse (monotone): tried 1, 2, 4, ... up to %d (%s), "
                    + "then bisection; %d point(s) simulated, at most %d%n", knob.label(), search.bound(), boundText,
                    all.size(), SizingSearch.maxEvaluations(search.bound()));
            if (!complete) {
                o.println("INCOMPLETE: interrupted; the points simulated so far:");
            }
            o.printf(Locale.ROOT, "  %11s %12s %12s %12s  %s%n", knob.label(), "p99(s)", "mean(s)", "makespan(s)",
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
                    o.printf(Locale.ROOT, "smallest %s that meets the target: %d (p99 %.4f s)%n", knob.label(),
                            answer.getAsInt(), rows.get(answer.getAsInt()).p99());
                } else {
                    o.printf(Locale.ROOT, "no %s up to %d meets the target%n", knob.label(), search.bound());
                }
                return;
            }
            OptionalInt meets = all.stream().filter(Row::meets).mapToInt(Row::value).min();
            int missed = all.stream().filter(r -> !r.meets()).mapToInt(Row::value).max().orElse(0);
            if (meets.isPresent()) {
                o.printf(Locale.ROOT, "no answer yet: the smallest %s that meets the target is between %d and %d%n",
                        knob.label(), missed + 1, meets.getAsInt());
            } else {
                o.printf(Locale.ROOT, "no answer yet: no %s tried so far meets the target (largest tried %d)%n",
                        knob.label(), missed);
            }
        }

        /** Every file a sizing by {@code knob} writes (charts only once the search is complete). */
        static List<String> files(Sizing.Knob knob) {
            return List.of("sizing.csv", "sizing.json", "sizing-" + knob.label() + ".png", "sizing-" + knob.label() + ".svg",
                    "receivers-vs-time-" + knob.label() + ".png", "receivers-vs-time-" + knob.label() + ".svg");
        }

        private void writeCharts(List<Row> all) throws IOException {
            List<Row> ok = all.stream().filter(r -> r.error().isEmpty()).toList();
            double[] x = ok.stream().mapToDouble(Row::value).toArray();
            double[] p99 = ok.stream().mapToDouble(Row::p99).toArray();
            double[] makespan = ok.stream().mapToDouble(Row::makespan).toArray();
            Map<String, double[]> curves = new LinkedHashMap<>();
            for (Row r : ok) {
                curves.put(knob.label() + "=" + r.value(), r.finishes());
            }
            ChartFiles.write(Charts.sizing("Sizing " + variantName + " by " + knob.label() + ": " + scenario, knob.label(),
                    x, p99, makespan, target), dir, "sizing-" + knob.label());
            ChartFiles.write(Charts.receiversVsTime("Receivers with the model over time, per " + knob.label() + ": "
                    + scenario, curves), dir, "receivers-vs-time-" + knob.label());
        }

        private void writeCsv(List<Row> all) throws IOException {
            StringBuilder b = new StringBuilder(knob.label() + ",status,p99PullSeconds,meanPullSeconds,makespanSeconds,"
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

        private void writeJson(boolean complete, List<Row> all, OptionalInt answer, List<String> violations)
                throws IOException {
            ObjectNode root = SummaryJson.mapper().createObjectNode();
            root.put("scenario", scenario);
            root.put("variant", variantName);
            root.put("knob", knob.label());
            root.put("targetP99Seconds", target);
            root.put("complete", complete);
            root.put("bound", search.bound());
            root.put("boundReason", boundText);
            root.put("assumption", "more " + knob.label() + " never make p99 worse (monotone)");
            root.put("pointsSimulated", all.size());
            root.put("mostPoints", SizingSearch.maxEvaluations(search.bound()));
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
