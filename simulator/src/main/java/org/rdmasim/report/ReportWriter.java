package org.rdmasim.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/** Writes a scenario's whole report folder. */
public final class ReportWriter {
    /** Marks a folder as rdmasim output and lists the files it wrote ({@link ReportFolder#MANIFEST}). */
    public static final String MARKER = ReportFolder.MANIFEST;

    /**
     * What the key-numbers table's wall column holds, the page's note under it says in these words. A fan-out's
     * receivers arrive over time, so its pull makespan (first arrival to last finish) is longer than its
     * slowest pull: the two kinds of variant differ and the note says both.
     */
    public static final String WALL_RULE = "Wall: for a list of transfers, the registration wall plus the slowest "
            + "pull; for a fan-out, its first cycle's wall time: metadata exchange, the registration wall, then the "
            + "pull makespan from the first receiver's arrival to the last one's finish (longer than the slowest "
            + "pull when receivers arrive over time).";

    private ReportWriter() {
    }

    /** Chart and table files written, for the index and for tests. */
    public record Written(Path dir, List<String> charts) {
    }

    /**
     * True when {@code dir} may be written: it does not exist, or is a folder holding nothing but files
     * of an earlier rdmasim report, unchanged ({@link ReportFolder}). Anything else is the user's.
     */
    public static boolean safeToWrite(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return true;
        }
        if (!Files.isDirectory(dir)) {
            return false;
        }
        return ReportFolder.foreignEntries(dir, java.util.Set.of()).isEmpty();
    }

    /**
     * The profiles whose calibrated or assumed numbers limit a flow of {@code outcomes}: those the page lists
     * under "rests on", whose parameters a caller may rerun without ({@link AnswerContext#withouts}).
     */
    public static java.util.Set<String> limitingProfiles(List<VariantOutcome> outcomes) {
        return Verdict.limitingProfiles(outcomes);
    }

    /**
     * Starts paying, on a daemon thread when the machine has a spare core, what the first report of a
     * process costs before it writes a byte: the first chart's Java2D, fonts and JFreeChart
     * ({@link ChartBatch#warmUp}), then the JSON writer's and the page template's loading. The caller
     * loads and runs the scenario meanwhile on one core, so the other would be idle. Nothing is written;
     * a failure here only means the real report pays instead.
     */
    public static void warmUp() {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                ChartBatch.warmUp();
                SummaryJson.warmUp();
                // the page template is parsed when its class is initialised; parsing loads the template engine
                java.lang.invoke.MethodHandles.lookup().ensureInitialized(IndexHtml.class);
            } catch (RuntimeException | IOException | IllegalAccessException e) {
                // best effort only
            }
        }, "rdmasim-report-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    /** A sweep to chart: each series is a written variant, each point the variant run at one message size. */
    public record SweepChart(List<String> series, List<Long> sizes, java.util.function.BiFunction<String, Long, String> name) {
    }


    /** Writes the report into a staging folder and puts it in place only when every file is written. */
    public static Written write(Path dir, String scenario, String description, List<VariantOutcome> outcomes,
            List<Charts.Reference> references, SweepChart sweep, Provenance provenance) throws IOException {
        return write(dir, scenario, description, outcomes, references, sweep, provenance, java.util.Map.of());
    }

    /**
     * @param environments per variant, its environment after the variant's env was merged into the base
     *                     env (lines {@code NAME=VALUE  (file:line)}), shown on the page
     */
    public static Written write(Path dir, String scenario, String description, List<VariantOutcome> outcomes,
            List<Charts.Reference> references, SweepChart sweep, Provenance provenance,
            java.util.Map<String, List<String>> environments) throws IOException {
        return write(dir, scenario, description, outcomes, references, sweep, provenance, environments,
                AnswerContext.NONE);
    }

    /** As above, with what the answer needs beyond the outcomes (the question, each variant's platform). */
    public static Written write(Path dir, String scenario, String description, List<VariantOutcome> outcomes,
            List<Charts.Reference> references, SweepChart sweep, Provenance provenance,
            java.util.Map<String, List<String>> environments, AnswerContext answer) throws IOException {
        ReportFolder folder = ReportFolder.stage(dir);
        folder.madeFrom(provenance.scenarioPath());
        try {
            Written w = writeInto(folder, scenario, description, outcomes, references, sweep, provenance,
                    environments, answer);
            folder.publish();
            return new Written(dir, w.charts());
        } finally {
            folder.discard();
        }
    }

    private static Written writeInto(ReportFolder folder, String scenario, String description,
            List<VariantOutcome> outcomes, List<Charts.Reference> references, SweepChart sweep, Provenance provenance,
            java.util.Map<String, List<String>> environments, AnswerContext answer) throws IOException {
        Path dir = folder.staging();
        Files.createDirectories(dir);
        java.util.Map<String, String> bases = fileBases(outcomes);
        Files.writeString(dir.resolve(MARKER), "written by rdmasim; safe to replace\n", StandardCharsets.UTF_8);
        // The tables, the charts and the pages read the same finished results and write different files:
        // each is a job, run on both cores where there are two, the largest first (at 65,536 receivers the
        // three big tables are ~45 MB each, a second or more to write and hash). The page names the charts
        // but reads none of their files, so it need not wait for them.
        try (ReportJobs jobs = new ReportJobs(folder)) {
            jobs.add(() -> CsvTables.writeTransfers(dir.resolve("transfers.csv"), outcomes), List.of("transfers.csv"));
            jobs.add(() -> SummaryJson.write(dir.resolve("summary.json"),
                    SummaryJson.build(scenario, description, outcomes, provenance)), List.of("summary.json"));
            jobs.add(() -> CsvTables.writeResources(dir.resolve("resources.csv"), outcomes), List.of("resources.csv"));
            jobs.add(() -> InteractiveCharts.write(dir, scenario, outcomes), InteractiveCharts.FILES);
            List<String> charts = charts(dir, scenario, outcomes, references, sweep, bases, jobs);
            jobs.add(() -> IndexHtml.write(dir.resolve("index.html"), scenario, description, outcomes, charts, provenance,
                    environments, sweep, answer), List.of("index.html"));
            jobs.add(() -> CsvTables.writeNicThroughput(dir.resolve("nic-throughput.csv"), outcomes),
                    List.of("nic-throughput.csv"));
            jobs.awaitAll();
            return new Written(dir, charts);
        }
    }

    /** Adds the report's charts to {@code jobs}; returns their base names in page order. */
    private static List<String> charts(Path dir, String scenario, List<VariantOutcome> outcomes,
            List<Charts.Reference> references, SweepChart sweep, java.util.Map<String, String> bases, ReportJobs jobs)
            throws IOException {
        ChartBatch batch = new ChartBatch();
        // variant -> the calibrated number its figures stand on, decided as summary.json's limitedBy is
        java.util.Map<String, CalibratedLimit> calibrated = new java.util.LinkedHashMap<>();
        for (VariantOutcome o : outcomes) {
            CalibratedLimit.of(o).ifPresent(l -> calibrated.put(o.name(), l));
        }

        DefaultCategoryDataset pull = new DefaultCategoryDataset();
        DefaultCategoryDataset bw = new DefaultCategoryDataset();
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.FAILED) {
                // marked, not drawn: a failed variant's partial figures are no pull time or bandwidth
                pull.addValue(null, "slowest receiver", o.name() + " (FAILED)");
                bw.addValue(null, "aggregate", o.name() + " (FAILED)");
                continue;
            }
            if (o.result() == null || o.result().refit() != null) {
                // a refit's time is its cycle's, drawn per cycle with its stages and wire rate below: a span
                // of its transfers would add its cycles up (and a broadcast posts none)
                continue;
            }
            ReceiverSummary s = ReceiverSummary.of(o.result());
            if (s.receivers().isEmpty()) {
                pull.addValue(null, "slowest receiver", o.name());
                bw.addValue(null, "aggregate", o.name());
                continue;
            }
            double slowest = s.receivers().stream().mapToDouble(ReceiverSummary.Receiver::pullSeconds).max().orElse(0);
            double mean = org.rdmasim.workload.ReplicationStats.mean(
                    s.receivers().stream().mapToDouble(ReceiverSummary.Receiver::pullSeconds).toArray());
            pull.addValue(slowest, "slowest receiver", o.name());
            if (s.receivers().size() > 1) {
                pull.addValue(mean, "mean receiver", o.name());
            }
            bw.addValue(s.aggregateGbps(), "aggregate", o.name());
            if (s.receivers().size() > 1) {
                bw.addValue(s.meanReceiverGbps(), "mean per receiver", o.name());
            }
        }
        if (sweep != null) {
            org.jfree.data.xy.XYSeriesCollection data = new org.jfree.data.xy.XYSeriesCollection();
            java.util.Map<String, VariantOutcome> byName = new java.util.HashMap<>();
            outcomes.forEach(o -> byName.put(o.name(), o));
            java.util.Map<String, CalibratedLimit> limits = new java.util.LinkedHashMap<>();
            for (String series : sweep.series()) {
                List<Long> points = new ArrayList<>();
                java.util.Map<CalibratedLimit, java.util.List<Long>> marked = new java.util.LinkedHashMap<>();
                for (long size : sweep.sizes()) {
                    String variant = sweep.name().apply(series, size);
                    VariantOutcome o = byName.get(variant);
                    if (o != null && o.result() != null) {
                        points.add(size);
                        CalibratedLimit l = calibrated.get(variant);
                        if (l != null) {
                            marked.computeIfAbsent(l, k -> new ArrayList<>()).add(size);
                            limits.put(variant, l);
                        }
                    }
                }
                // the series says which of its points a calibrated number limits, and which number
                String label = series;
                for (var e : marked.entrySet()) {
                    List<Long> sizes = e.getValue();
                    String where = sizes.size() == points.size() ? "" : " at " + sizeRuns(points, sizes);
                    label += " (" + e.getKey().mark() + where + ")";
                }
                org.jfree.data.xy.XYSeries xy = new org.jfree.data.xy.XYSeries(label);
                for (long size : sweep.sizes()) {
                    VariantOutcome o = byName.get(sweep.name().apply(series, size));
                    if (o != null && o.result() != null) {
                        xy.add(size, ReceiverSummary.of(o.result()).aggregateGbps());
                    }
                }
                data.addSeries(xy);
            }
            batch.add(() -> {
                JFreeChart chart = Charts.sweep("Bandwidth vs message size: " + scenario, data, references);
                Charts.captions(chart, Charts.calibratedCaptions(limits, ""));
                return chart;
            }, "message-size-sweep");
        }
        DefaultCategoryDataset refit = new DefaultCategoryDataset();
        if (outcomes.stream().anyMatch(o -> o.result() != null && o.result().refit() != null)) {
            // a second bar per variant only when some first cycle differs from the steady one
            boolean steadyDiffers = outcomes.stream().map(o -> o.result() == null ? null : o.result().refit())
                    .anyMatch(r -> r != null && !r.cycles().isEmpty() && r.firstCycleSeconds() != r.steadyCycleSeconds());
            for (VariantOutcome o : outcomes) {
                org.rdmasim.workload.RefitSummary r = o.result() == null ? null : o.result().refit();
                boolean failed = o.status() == VariantOutcome.Status.FAILED;
                String column = failed ? o.name() + " (FAILED)" : o.name();
                boolean drawn = !failed && r != null && !r.cycles().isEmpty();
                refit.addValue(drawn ? r.firstCycleSeconds() : null, steadyDiffers ? "first cycle" : "cycle", column);
                if (steadyDiffers) {
                    refit.addValue(drawn ? r.steadyCycleSeconds() : null, "steady cycle", column);
                }
            }
            batch.add(() -> Charts.bars("Refit cycle time per variant: " + scenario, "seconds", refit, List.of(), calibrated),
                    "refit-cycle");
            DefaultCategoryDataset stages = refitStages(outcomes);
            if (anyValue(stages)) {
                batch.add(() -> Charts.bars("Steady refit cycle by stage: " + scenario, "seconds with work in the stage",
                        stages, List.of(), calibrated), "refit-stages");
            }
            DefaultCategoryDataset wire = new DefaultCategoryDataset();
            for (VariantOutcome o : outcomes) {
                org.rdmasim.workload.RefitSummary r = o.result() == null ? null : o.result().refit();
                boolean failed = o.status() == VariantOutcome.Status.FAILED;
                String column = failed ? o.name() + " (FAILED)" : o.name();
                boolean drawn = !failed && r != null && !r.cycles().isEmpty();
                wire.addValue(drawn ? wireGbps(r.cycles().get(0)) : null, steadyDiffers ? "first cycle" : "cycle", column);
                if (steadyDiffers) {
                    wire.addValue(drawn ? wireGbps(r.cycles().get(r.cycles().size() - 1)) : null, "steady cycle", column);
                }
            }
            if (anyPositive(wire)) { // a colocated refit crosses no NIC: a chart of zeros says nothing
                batch.add(() -> Charts.bars("Wire rate per refit cycle (bytes into GPUs over the wire / cycle time): "
                        + scenario, "Gbps", wire, List.of(), calibrated), "refit-wire-rate");
            }
        }
        if (pull.getColumnCount() > 0 && sweep == null && anyValue(pull)) {
            batch.add(() -> Charts.bars("Pull time per variant: " + scenario, "seconds", pull, List.of(), calibrated), "pull-time");
            batch.add(() -> Charts.bars("Bandwidth per variant: " + scenario, "Gbps", bw, references, calibrated), "aggregate-bandwidth");
        }
        java.util.Map<String, double[]> cdf = new java.util.LinkedHashMap<>();
        for (VariantOutcome o : outcomes) {
            if (o.result() != null && o.result().fanout() != null) {
                double[] pulls = ReplicationStats.pullSeconds(o.result());
                java.util.Arrays.sort(pulls);
                cdf.put(CalibratedLimit.seriesName(o), pulls);
            }
        }
        if (!cdf.isEmpty()) {
            batch.add(() -> Charts.pullCdf("Pull time CDF: " + scenario, cdf), "pull-time-cdf");
        }
        for (VariantOutcome o : outcomes) {
            if (o.result() == null || o.result().fanout() == null) {
                continue;
            }
            List<Charts.TimelineBar> bars = new ArrayList<>();
            for (FanoutResult.ReceiverPull p : o.result().fanout().pulls()) {
                bars.add(new Charts.TimelineBar(p.arrivalSeconds(), p.postSeconds(), p.finishSeconds()));
            }
            bars.sort(java.util.Comparator.comparingDouble(Charts.TimelineBar::arrivalSeconds));
            String base = "receiver-timeline-" + bases.get(o.name());
            java.util.Optional<String> timelineNote = CalibratedLimit.pullsNote(o);
            batch.add(() -> {
                JFreeChart chart = Charts.receiverTimeline("Receivers over time: " + o.name(), bars);
                timelineNote.ifPresent(n -> Charts.caption(chart, n));
                return chart;
            }, base);
        }
        for (VariantOutcome o : outcomes) {
            if (o.result() == null) {
                continue;
            }
            // Every NIC that sent anything (a tree fan-out's re-publishing receivers included). A sending host's
            // NICs that sent nothing are counted in the caption, not drawn: a DGX's idle storage ports filled the
            // legend with colours for bands of zero height.
            java.util.Set<String> sendingNics = new java.util.LinkedHashSet<>();
            java.util.Set<String> sending = new java.util.LinkedHashSet<>();
            for (RunResult.LoadSeries s : o.result().nicSeries()) {
                for (double g : s.gbps()) {
                    if (g > 0) {
                        sending.add(s.host());
                        sendingNics.add(s.label());
                        break;
                    }
                }
            }
            java.util.Map<String, RunResult.LoadSeries> byNic = new java.util.HashMap<>();
            o.result().nicSeries().forEach(s -> byNic.put(s.label(), s));
            List<RunResult.LoadSeries> busy = new ArrayList<>();
            List<String> idle = new ArrayList<>();
            for (RunResult.NicTraffic n : o.result().nics()) {
                String key = n.host() + ":" + n.name();
                if (sendingNics.contains(key)) {
                    busy.add(byNic.get(key));
                } else if (sending.contains(n.host())) {
                    idle.add(key);
                }
            }
            boolean fanout = o.result().fanout() != null;
            if (busy.isEmpty()) {
                continue;
            }
            String base = "nic-throughput-" + bases.get(o.name());
            List<String> notes = CalibratedLimit.nicNotes(o);
            batch.add(() -> {
                JFreeChart chart = Charts.nicThroughput((fanout ? "Sending hosts' NICs, stacked: " : "Sending NICs, stacked: ")
                        + o.name(), busy, List.of());
                Charts.markFaults(chart, o.result().faultLog());
                List<String> lines = new ArrayList<>(notes);
                if (!idle.isEmpty()) {
                    lines.add(idleCaption(idle, sending.size()));
                }
                Charts.captions(chart, lines);
                return chart;
            }, base);
        }
        batch.addTo(jobs, dir);
        return batch.names();
    }

    /** The caption of a NIC chart's left-out NICs: how many, and which when few enough to read. */
    static String idleCaption(List<String> idle, int hosts) {
        String which = idle.size() <= 8 ? ": " + String.join(", ", idle) : "";
        return String.format(Locale.ROOT, "%d idle NIC(s) of the %d sending host(s) sent no bytes and are not drawn%s.",
                idle.size(), hosts, which);
    }

    /** A cycle's bytes into GPUs over the wire over its wall time, Gbps (0 when nothing crossed a NIC). */
    private static double wireGbps(org.rdmasim.workload.RefitSummary.Cycle c) {
        return c.seconds() > 0 ? c.wireBytes() * 8.0 / c.seconds() / 1e9 : 0;
    }

    /**
     * Each refit variant's steady cycle by stage (seconds the stage had work; stages that overlap each count),
     * one series per stage that some variant spent time in, in the stages' order.
     */
    static DefaultCategoryDataset refitStages(List<VariantOutcome> outcomes) {
        java.util.Map<String, java.util.Map<String, Double>> byVariant = new java.util.LinkedHashMap<>();
        java.util.Set<String> used = new java.util.LinkedHashSet<>();
        for (VariantOutcome o : outcomes) {
            org.rdmasim.workload.RefitSummary r = o.result() == null ? null : o.result().refit();
            if (o.status() == VariantOutcome.Status.FAILED || r == null || r.cycles().isEmpty()) {
                continue;
            }
            var stages = r.cycles().get(r.cycles().size() - 1).stageSeconds();
            byVariant.put(o.name(), stages);
            used.addAll(stages.keySet()); // every cycle names every stage, in the stages' order
        }
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String stage : used) {
            if (byVariant.values().stream().noneMatch(st -> st.getOrDefault(stage, 0.0) > 0)) {
                continue;
            }
            byVariant.forEach((variant, stages) -> data.addValue(stages.getOrDefault(stage, 0.0), stage, variant));
        }
        return data;
    }

    /** Whether some cell of {@code data} holds a value above zero. */
    private static boolean anyPositive(DefaultCategoryDataset data) {
        for (int row = 0; row < data.getRowCount(); row++) {
            for (int col = 0; col < data.getColumnCount(); col++) {
                Number n = data.getValue(row, col);
                if (n != null && n.doubleValue() > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether some cell of {@code data} holds a value (a chart of only "no value" notes says nothing). */
    private static boolean anyValue(DefaultCategoryDataset data) {
        for (int row = 0; row < data.getRowCount(); row++) {
            for (int col = 0; col < data.getColumnCount(); col++) {
                if (data.getValue(row, col) != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Each variant's file-name part: its name made file-safe, with "-2", "-3", ... added in variant order
     * when two names come out the same ("A b" and "a-b" both give "a-b").
     */
    static java.util.Map<String, String> fileBases(List<VariantOutcome> outcomes) {
        java.util.Map<String, String> out = new java.util.HashMap<>();
        java.util.Set<String> taken = new java.util.HashSet<>();
        for (VariantOutcome o : outcomes) {
            String base = fileSafe(o.name());
            String unique = base;
            for (int k = 2; !taken.add(unique); k++) {
                unique = base + "-" + k;
            }
            out.put(o.name(), unique);
        }
        return out;
    }

    static String fileSafe(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-");
    }

    /**
     * The sizes of {@code marked} as runs of neighbouring points of the series ({@code 4KiB-64KiB, 1MiB}): a
     * mark that holds at the small and the large sizes but not between must not read as holding throughout.
     */
    static String sizeRuns(List<Long> points, List<Long> marked) {
        Charts.BinarySizeFormat f = new Charts.BinarySizeFormat();
        List<String> runs = new ArrayList<>();
        int i = 0;
        while (i < points.size()) {
            if (!marked.contains(points.get(i))) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < points.size() && marked.contains(points.get(j + 1))) {
                j++;
            }
            runs.add(j == i ? f.format(points.get(i)) : f.format(points.get(i)) + "-" + f.format(points.get(j)));
            i = j + 1;
        }
        return String.join(", ", runs);
    }
}
