package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.rdmasim.engine.RunWatch;

/**
 * A status display on stderr for long runs, quiet for the first second so short runs print nothing.
 * On a terminal one line is rewritten in place ({@code \r}) twice a second; otherwise (a log, a CI
 * job) a plain line every five seconds. With a {@link RunWatch} the line shows simulated time,
 * receivers (or transfers) finished of total, events per second and an estimate of the time left.
 */
final class Progress implements AutoCloseable {
    /** How long a run stays quiet before its first line; a test sets 0 to see the line of a short run. */
    static volatile long quietStartMillis = 1000;
    /** Between two lines written to a log (no console); a test shortens it with the quiet start. */
    static volatile long plainPeriodMillis = 5000;

    private final PrintWriter err;
    private final RunWatch watch;
    private final boolean inPlace;
    private final Thread thread;
    private volatile String status = "";
    private volatile boolean printed;
    private int lastWidth;

    /** A status line without run detail (the label passed to {@link #update} and the elapsed time). */
    Progress(PrintWriter err) {
        this(err, null, System.console() != null, true);
    }

    private Progress(PrintWriter err, RunWatch watch, boolean inPlace, boolean start) {
        this.err = err;
        this.watch = watch;
        this.inPlace = inPlace;
        this.thread = new Thread(this::loop, "rdmasim-progress");
        thread.setDaemon(true);
        if (start) {
            thread.start();
        }
    }

    /** The display for a run followed by {@code watch}; in place when stderr's process has a console. */
    static Progress open(PrintWriter err, RunWatch watch) {
        return new Progress(err, watch, System.console() != null, true);
    }

    /** Prints nothing ({@code --quiet}). */
    static Progress silent() {
        return new Progress(new PrintWriter(PrintWriter.nullWriter()), null, false, false);
    }

    void update(String text) {
        status = text;
    }

    private void loop() {
        long start = System.nanoTime();
        long period = inPlace ? 500 : plainPeriodMillis;
        long lastEvents = 0;
        long lastAt = start;
        try {
            Thread.sleep(quietStartMillis);
            while (!Thread.currentThread().isInterrupted()) {
                long at = System.nanoTime();
                double elapsed = (at - start) / 1e9;
                String line = String.format(Locale.ROOT, "rdmasim: %.0f s: %s", elapsed, status);
                if (watch != null) {
                    long events = watch.events();
                    double rate = (events - lastEvents) / Math.max(1e-9, (at - lastAt) / 1e9);
                    lastEvents = events;
                    lastAt = at;
                    line += detail(watch, elapsed, events, rate);
                }
                show(line);
                Thread.sleep(period);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the progress line says of a run after its status: simulated time, units finished, events, what else it does. */
    static String detail(RunWatch watch, double elapsed, long events, double rate) {
        long total = watch.expectedUnits();
        long done = Math.min(total, watch.finishedUnits());
        String eta = "";
        if (done > 0 && done < total) {
            // Linear in units finished: a fan-out whose backlog grows finishes later than this says.
            eta = String.format(Locale.ROOT, ", ETA %.0f s", elapsed * (total - done) / done);
        }
        String doing = watch.doing();
        return String.format(Locale.ROOT, " | simulated %.3f s | %,d/%,d finished | %,d events, %,.0f/s%s%s",
                watch.simulatedSeconds(), done, total, events, rate, eta, doing == null ? "" : " | " + doing);
    }

    private void show(String line) {
        synchronized (err) {
            if (inPlace) {
                // Pad over the previous, longer line instead of relying on terminal erase sequences.
                int pad = Math.max(0, lastWidth - line.length());
                err.print("\r" + line + " ".repeat(pad));
                lastWidth = line.length();
            } else {
                err.println(line);
            }
            err.flush();
        }
        printed = true;
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (inPlace && printed) {
            synchronized (err) {
                err.print("\r" + " ".repeat(lastWidth) + "\r");
                err.flush();
            }
        }
    }
}
