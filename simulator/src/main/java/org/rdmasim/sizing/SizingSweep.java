package org.rdmasim.sizing;

import java.io.IOException;
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
import java.util.function.Consumer;
import org.rdmasim.report.ReportFolder;
import org.rdmasim.report.SummaryJson;

/**
 * A search in progress and its output: points are kept as they finish, so that the worker thread
 * (at the end, or when it sees an interrupt between points) or the Ctrl-C hook (when the worker is
 * inside a point that does not stop) writes whatever has been simulated; whichever comes first writes.
 * What a point's figures mean and how they are tabled and filed is the {@link SizingTarget}'s; what is
 * shown on the terminal, the {@link Display}'s (nothing in this package prints).
 */
public final class SizingSweep {
    private final SizingTarget target;
    private final Path dir;
    private final Display display;
    private final SizingSearch search;
    private final Map<Integer, SimulatedPoint> rows = new TreeMap<>();
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CountDownLatch written = new CountDownLatch(1);
    private long pointNanos;

    private Evaluator eval;
    private List<String> without;
    /** The scenario file sized, named in the folder's manifest; null when not read from a file. */
    private Path madeFrom;

    public SizingSweep(SizingTarget target, Path dir, Display display) {
        this.target = target;
        this.dir = dir;
        this.display = display;
        this.search = target.search();
    }

    /** Names {@code scenarioFile} in the output folder's manifest as the file the sizing is made from. */
    public void madeFrom(Path scenarioFile) {
        this.madeFrom = scenarioFile;
    }

    /** Simulates the sized variant at one point of the search (a refit's: a position on its knob's ladder). */
    public interface Evaluator {
        SimulatedPoint evaluate(int value) throws IOException;

        /**
         * The answer at {@code value} rerun without each assumed parameter it rests on, one line each: what the
         * answer would be if the assumption were wrong. None by default (a knob whose points rest on none).
         */
        default List<String> withoutAssumptions(int value) throws IOException {
            return List.of();
        }
    }

    /** The status line shown while the search runs, replaced by each update and cleared when closed. */
    public interface StatusLine extends AutoCloseable {
        void update(String text);

        @Override
        void close();

        /** The line that {@code update} shows and {@code close} clears. */
        static StatusLine of(Consumer<String> update, Runnable close) {
            return new StatusLine() {
                @Override
                public void update(String text) {
                    update.accept(text);
                }

                @Override
                public void close() {
                    close.run();
                }
            };
        }
    }

    /** What the person who asked sees of the search: the command line's status line, table and messages. */
    public interface Display {
        /** A status line for the search, open until the search ends or stops. */
        StatusLine statusLine();

        /** The table of the points so far, shown before their files are written. */
        void table(String text);

        /** The files of {@code points} point(s) are in {@code dir}; {@code complete} false when interrupted. */
        void written(Path dir, boolean complete, int points);

        /** The Ctrl-C hook could not write the points so far. */
        void notWritten(IOException e);
    }

    /**
     * Runs the search with a Ctrl-C hook that writes the points so far; true when the search ran to its
     * end, false when it was interrupted (the points so far are written either way).
     */
    public boolean runWithHook(Evaluator eval) throws IOException {
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

    /** Runs the search to its end, or until the thread is interrupted; true when it ran to its end. */
    boolean run(Evaluator eval) throws IOException {
        this.eval = eval;
        try (StatusLine progress = display.statusLine()) {
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
                SimulatedPoint r;
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

    synchronized void add(SimulatedPoint r, long nanos) {
        search.record(new SizingSearch.Point(r.value(), r.p99(), r.meets()));
        rows.put(r.value(), r);
        pointNanos += nanos;
    }

    /**
     * The progress line: the point under way and how long it has run, points done of the most there
     * can be, the mean time per finished point, and the time left if every remaining point took the
     * longer of that mean and the current point's time so far (points differ: more sources, more hosts).
     * A point that has run past the mean has no estimate of its own end, so the line says so rather
     * than count it as done (the last point would otherwise read "up to 0 s left" while it runs).
     */
    synchronized String status(int value, double runningSeconds) {
        int done = search.evaluated();
        int left = search.maxRemaining(); // the point under way included
        String s = String.format(Locale.ROOT, "%s: %s = %s, point %d of at most %d, running %.0f s", target.scenario(),
                target.label(), target.shownAt(value), done + 1, done + left, runningSeconds);
        if (done > 0) {
            double mean = pointNanos / 1e9 / done;
            s += String.format(Locale.ROOT, "; %.1f s per point so far", mean);
            if (runningSeconds < mean) {
                s += String.format(Locale.ROOT, "; up to %.0f s left at that rate", mean * left - runningSeconds);
            } else if (left > 1) {
                s += String.format(Locale.ROOT, "; this point has run past that; then up to %.0f s for the %d after it"
                        + " at this point's time so far", runningSeconds * (left - 1), left - 1);
            } else {
                s += "; this point, the last, has run past that";
            }
        }
        return s;
    }

    /** The worker saw the interrupt: write the points so far unless the hook already does. */
    private boolean interrupted() throws IOException {
        return writeOnce(false);
    }

    /** The worker's write, unless the Ctrl-C hook claimed it first (then wait for the hook's); whether complete. */
    private boolean writeOnce(boolean complete) throws IOException {
        if (!claimed.compareAndSet(false, true)) {
            awaitHook();
            return false;
        }
        try {
            write(complete);
        } finally {
            written.countDown();
        }
        return complete;
    }

    private void awaitHook() {
        try {
            written.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
            display.notWritten(e);
        }
    }

    /** Table, CSV and JSON of the points so far; charts only for a finished search. */
    synchronized void write(boolean complete) throws IOException {
        List<SimulatedPoint> all = List.copyOf(rows.values());
        SizingOutcome outcome = new SizingOutcome(complete, all, search.answer(), target.violations(search), search);
        // an answer that rests on an assumption says, beside it, what the answer point gives without it
        if (complete && outcome.answer().isPresent() && without == null && eval != null) {
            without = eval.withoutAssumptions(outcome.answer().getAsInt());
        }
        List<String> withoutLines = complete && without != null ? without : List.of();
        StringBuilder table = new StringBuilder(target.table(outcome));
        withoutLines.forEach(line -> table.append(line).append(System.lineSeparator()));
        display.table(table.toString());
        Files.createDirectories(dir);
        String label = target.label();
        for (String stale : List.of("sizing-" + label, "receivers-vs-time-" + label)) {
            ReportFolder.deleteIfOwned(dir, stale + ".png");
            ReportFolder.deleteIfOwned(dir, stale + ".svg");
        }
        if (complete) {
            target.writeCharts(all.stream().filter(SimulatedPoint::ok).toList(), dir);
        }
        Files.writeString(dir.resolve("sizing.csv"), withSearchComplete(target.csv(all), complete), StandardCharsets.UTF_8);
        var json = target.json(outcome);
        if (!withoutLines.isEmpty()) {
            var w = json.putArray("answerWithoutAssumptions");
            withoutLines.forEach(w::add);
        }
        SummaryJson.write(dir.resolve("sizing.json"), json);
        ReportFolder.recordWritten(dir, target.files(), madeFrom);
        display.written(dir, complete, all.size());
    }

    /**
     * {@code csv} with a last column {@code searchComplete} on every line: a script reading only the CSV of a
     * search cut short by Ctrl-C must be able to tell its points are not the whole search (sizing.json says
     * {@code complete: false}, the CSV had nothing).
     */
    static String withSearchComplete(String csv, boolean complete) {
        StringBuilder b = new StringBuilder(csv.length() + 64);
        boolean header = true;
        for (String line : csv.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            b.append(line).append(header ? ",searchComplete" : "," + complete).append('\n');
            header = false;
        }
        return b.toString();
    }
}
