package org.rdmasim.cli;

import java.io.PrintWriter;

/**
 * A status line on stderr, printed once a second after the first second, so short runs stay quiet
 * and long ones show they are alive.
 */
final class Progress implements AutoCloseable {
    private final PrintWriter err;
    private final Thread thread;
    private volatile String status = "";
    private volatile boolean printed;

    Progress(PrintWriter err) {
        this.err = err;
        this.thread = new Thread(this::loop, "rdmasim-progress");
        thread.setDaemon(true);
        thread.start();
    }

    void update(String text) {
        status = text;
    }

    private void loop() {
        long start = System.nanoTime();
        try {
            Thread.sleep(1000);
            while (!Thread.currentThread().isInterrupted()) {
                double elapsed = (System.nanoTime() - start) / 1e9;
                synchronized (err) {
                    err.printf("rdmasim: %.0f s: %s%n", elapsed, status);
                    err.flush();
                }
                printed = true;
                Thread.sleep(1000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean printedAnything() {
        return printed;
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
