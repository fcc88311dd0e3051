package org.rdmasim.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jfree.chart.JFreeChart;

/**
 * The charts of one report, each built and written by its own {@link ReportJobs} job into its own
 * files, so the files are the same whatever the order the jobs run in; the list of names keeps the
 * order the charts were added in.
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

    /**
     * Adds a job per chart to {@code into}, each building its chart and writing its PNG and SVG into
     * {@code dir}; the last added first, as the charts of many points (per variant: receivers over time,
     * NIC throughput) come after the few bars of the summary charts and take longest.
     */
    void addTo(ReportJobs into, Path dir) throws IOException {
        for (int i = jobs.size() - 1; i >= 0; i--) {
            Job j = jobs.get(i);
            into.add(() -> {
                ChartFiles.write(j.chart().get(), dir, j.base());
            }, List.of(j.base() + ".png", j.base() + ".svg"));
        }
    }

    /** Writes every chart into {@code dir} (on two threads where there are two cores). */
    void writeAll(Path dir) throws IOException {
        try (ReportJobs jobs = new ReportJobs(null)) {
            addTo(jobs, dir);
            jobs.awaitAll();
        }
    }
}
