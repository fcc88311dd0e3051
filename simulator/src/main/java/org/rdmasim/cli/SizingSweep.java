package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.report.ReportFolder;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.scenario.SizingSearch;

/**
 * A search in progress and its output: points are kept as they finish, so that the worker thread
 * (at the end, or when it sees an interrupt between points) or the Ctrl-C hook (when the worker is
 * inside a point that does not stop) writes whatever has been simulated; whichever comes first writes.
 * What a point's figures mean and how they are printed and filed is the {@link SizingTarget}'s.
 */
final class SizingSweep {
    private final SizingTarget target;
    private final Path dir;
    private final PrintWriter o;
    private final PrintWriter err;
    private final SizingSearch search;
    private final Map<Integer, Row> rows = new TreeMap<>();
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CountDownLatch written = new CountDownLatch(1);
    private long pointNanos;

    SizingSweep(SizingTarget target, Path dir, PrintWriter o, PrintWriter err) {
        this.target = target;
        this.dir = dir;
        this.o = o;
        this.err = err;
        this.search = target.search();
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
     * @param calibrated the calibrated (or assumed) number that limits the point, in the words of
     *                   {@link org.rdmasim.report.CalibratedLimit#sentence()}; empty when none does
     */
    record Row(int value, double p99, double mean, double makespan, boolean meets, String error, double[] finishes,
            String boundBy, String calibrated) {
        Row(int value, double p99, double mean, double makespan, boolean meets, String error, double[] finishes) {
            this(value, p99, mean, makespan, meets, error, finishes, "", "");
        }

        Row(int value, double p99, double mean, double makespan, boolean meets, String error, double[] finishes,
                String boundBy) {
            this(value, p99, mean, makespan, meets, error, finishes, boundBy, "");
        }

        static Row failed(int value, String error) {
            return new Row(value, Double.NaN, Double.NaN, Double.NaN, false, error, null, "", "");
        }

        /** Caption lines for a chart of {@code rows}: each calibrated number and the knob values it limits. */
        static List<String> calibratedCaptions(List<Row> rows, String knob, java.util.function.IntFunction<String> shown) {
            java.util.Map<String, List<String>> at = new java.util.LinkedHashMap<>();
            for (Row r : rows) {
                if (!r.calibrated().isEmpty()) {
                    at.computeIfAbsent(r.calibrated(), k -> new java.util.ArrayList<>()).add(shown.apply(r.value()));
                }
            }
            List<String> out = new java.util.ArrayList<>();
            at.forEach((sentence, values) -> out.add(sentence + "; it limits the point(s) at " + knob + " = "
                    + String.join(", ", values) + "."));
            return out;
        }

        boolean ok() {
            return error.isEmpty();
        }

        /**
         * The point's sizing.json fields after its value: its status, then its figures under the target's names
         * ({@code p99}, {@code mean}, {@code makespan} in that order), a refit's bound when {@code withBound}, and
         * whether it meets the target; for a failed point, that it does not and its error.
         */
        void putResult(ObjectNode n, List<String> figures, boolean withBound) {
            n.put("status", ok() ? "ok" : "failed");
            if (ok()) {
                n.put(figures.get(0), p99);
                n.put(figures.get(1), mean);
                n.put(figures.get(2), makespan);
                if (withBound) {
                    n.put("boundBy", boundBy);
                }
                n.put("meetsTarget", meets);
            } else {
                n.put("meetsTarget", false);
                n.put("error", error);
            }
        }
    }

    /**
     * The search as it is written: its points in knob order, its answer so far and the rises it saw.
     *
     * @param search the search itself, for its bound, its kind and how many points it may take
     */
    record Outcome(boolean complete, List<Row> points, OptionalInt answer, List<String> violations,
            SizingSearch search) {
        /** The point at a search position (one that was simulated). */
        Row at(int position) {
            return points.stream().filter(r -> r.value() == position).findFirst().orElseThrow();
        }

        /** The smallest position that met the target among the points simulated. */
        OptionalInt smallestMet() {
            return points.stream().filter(Row::meets).mapToInt(Row::value).min();
        }
    }

    /** Runs the search with a Ctrl-C hook that writes the points so far; returns the exit code. */
    int runWithHook(Evaluator eval) throws IOException {
        Thread worker = Thread.currentThread();
        Thread hook = new Thread(() -> onCtrlC(worker, 5000), "rdmasim-size-ctrl-c");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run(eval);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down: the hook is running and writes or waits for the points.
            }
        }
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
        return writeOnce(true);
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
        String s = String.format(Locale.ROOT, "%s: %s = %s, point %d of at most %d, running %.0f s", target.scenario(),
                target.label(), target.shownAt(value), done + 1, done + left, runningSeconds);
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
        return writeOnce(false);
    }

    /** The worker's write, unless the Ctrl-C hook claimed it first (then wait for the hook's); the exit code. */
    private int writeOnce(boolean complete) throws IOException {
        if (!claimed.compareAndSet(false, true)) {
            return awaitHook();
        }
        try {
            write(complete);
        } finally {
            written.countDown();
        }
        return complete ? Main.OK : Main.INTERRUPTED;
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
     * Ctrl-C: interrupt the worker and give it {@code waitMillis} to write the points it has. The event
     * loop stops within 1,024 events of the interrupt (SimulationClock); a point still busy outside it
     * (building a large cluster, pricing registrations) is abandoned and the hook writes the points before
     * it. The JVM then exits with the signal's 130.
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
        Outcome outcome = new Outcome(complete, all, search.answer(), target.violations(search), search);
        target.printTable(o, outcome);
        Files.createDirectories(dir);
        String label = target.label();
        for (String stale : List.of("sizing-" + label, "receivers-vs-time-" + label)) {
            ReportFolder.deleteIfOwned(dir, stale + ".png");
            ReportFolder.deleteIfOwned(dir, stale + ".svg");
        }
        if (complete) {
            target.writeCharts(all.stream().filter(Row::ok).toList(), dir);
        }
        Files.writeString(dir.resolve("sizing.csv"), target.csv(all), StandardCharsets.UTF_8);
        SummaryJson.write(dir.resolve("sizing.json"), target.json(outcome));
        ReportFolder.recordWritten(dir, target.files());
        o.println((complete ? "search written to " : "points so far written to ") + dir);
        o.flush();
        if (!complete) {
            err.println("rdmasim: " + target.scenario() + ": interrupted after " + all.size() + " point(s); they are "
                    + "kept in " + dir + " (marked incomplete)");
            err.flush();
        }
    }
}
