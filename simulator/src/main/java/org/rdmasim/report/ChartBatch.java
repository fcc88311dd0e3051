package org.rdmasim.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.jfree.chart.JFreeChart;

/**
 * The charts of one report, drawn on as many threads as the machine has cores (two at most: the
 * report's tables take another). Each chart is built and written by its own task into its own files,
 * so the files are the same whatever the order the tasks run in; the list of names keeps the order
 * the charts were added in.
 */
final class ChartBatch {
    private record Job(Supplier<JFreeChart> chart, String base) {
    }

    private final List<Job> jobs = new ArrayList<>();

    /**
     * Draws one small chart of each kind into memory: the first chart of a process pays for loading
     * Java2D, fonts and JFreeChart (about a third of a second). Nothing is written.
     */
    static void warmUp() throws IOException {
        org.jfree.data.category.DefaultCategoryDataset bars = new org.jfree.data.category.DefaultCategoryDataset();
        bars.addValue(1, "a", "b");
        java.util.Map<String, double[]> cdf = java.util.Map.of("a", new double[] {1, 2});
        for (JFreeChart c : List.of(Charts.bars("warm-up", "s", bars, List.of()), Charts.pullCdf("warm-up", cdf))) {
            ChartFiles.draw(c, new java.io.ByteArrayOutputStream());
        }
    }

    /** Queues a chart, built when its task runs, to be written as {@code base}.png and .svg. */
    void add(Supplier<JFreeChart> chart, String base) {
        jobs.add(new Job(chart, base));
    }

    /** The charts' base names, in the order they were added. */
    List<String> names() {
        return jobs.stream().map(Job::base).toList();
    }

    void writeAll(Path dir) throws IOException {
        int threads = Math.min(2, Math.min(jobs.size(), Runtime.getRuntime().availableProcessors()));
        if (threads <= 1) {
            for (Job j : jobs) {
                ChartFiles.write(j.chart().get(), dir, j.base());
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
            Thread t = new Thread(task, "rdmasim-report-charts");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Job j : jobs) {
                done.add(pool.submit(() -> {
                    try {
                        ChartFiles.write(j.chart().get(), dir, j.base());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the report's charts were drawn");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        } finally {
            pool.shutdownNow();
        }
    }
}
