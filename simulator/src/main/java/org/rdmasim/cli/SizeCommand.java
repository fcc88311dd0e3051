package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.ReportWriter;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.Sizing;
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
        description = {"Turn one knob of a fan-out variant upward (1, 2, ... --max) and report the smallest setting whose",
                "p99 pull time (pooled over replications) meets the target, with the sweep as a table and charts.",
                "Exit codes: 0 the sweep ran (whether or not a setting meets the target), 2 bad input."})
public final class SizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO.yaml", description = "a scenario with a fan-out workload")
    Path scenarioFile;

    @Option(names = "--target-p99", required = true, paramLabel = "SECONDS", description = "p99 pull time to meet")
    double target;

    @Option(names = "--vary", required = true, paramLabel = "KNOB", description = "sources, nics, rails or tree-degree")
    String vary;

    @Option(names = "--max", paramLabel = "N", description = "largest value to try (default: 16 sources, all NICs, 8 children)")
    Integer max;

    @Option(names = "--variant", paramLabel = "NAME", description = "variant to size (default: the first)")
    String variant;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "chart folder (default: reports/<scenario>-size-<knob>/)")
    Path out;

    @Option(names = "--threads", paramLabel = "N", description = "threads for replications (default: all cores)")
    Integer threads;

    @Option(names = "--allow-outside", description = "read files the scenario names (envFile, nvidia-smi, nccl-topo) "
            + "even when they are outside the scenario's folder")
    boolean allowOutside;

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
        Scenario scenario = ScenarioLoader.load(scenarioFile, allowOutside);
        VariantSpec base = scenario.variants().get(0);
        if (variant != null) {
            base = scenario.variants().stream().filter(v -> v.name().equals(variant)).findFirst()
                    .orElseThrow(() -> new BadInputException("no variant named '" + variant + "' in " + scenarioFile));
        }
        if (!base.isFanout()) {
            throw new BadInputException(scenarioFile + ": variant '" + base.name()
                    + "' has no fan-out workload (workload: {fanout: ...}) to size");
        }
        int top = max != null ? max : Sizing.defaultMax(base, knob);
        if (top < 1) {
            throw new BadInputException("--max must be at least 1, got " + top);
        }
        int workers = threads == null ? RunCommand.defaultThreads() : threads;
        if (workers < 1) {
            throw new BadInputException("--threads must be at least 1, got " + workers);
        }
        Path dir = out != null ? out : Path.of("reports", scenario.name() + "-size-" + knob.label());
        if (!ReportWriter.safeToWrite(dir)) {
            throw new BadInputException(dir + " exists and holds files rdmasim did not write; choose another --out");
        }
        List<Row> rows = new ArrayList<>();
        Map<String, double[]> curves = new LinkedHashMap<>();
        try (Progress progress = new Progress(err)) {
            for (int value = 1; value <= top; value++) {
                progress.update(scenario.name() + ": " + knob.label() + " = " + value + " of " + top);
                VariantSpec v;
                try {
                    v = Sizing.apply(base, knob, value);
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(e.getMessage());
                }
                VariantOutcome outcome = VariantRunner.run(v, scenario.seed(), scenario.replications(), workers);
                if (outcome.status() != VariantOutcome.Status.OK) {
                    rows.add(new Row(value, Double.NaN, Double.NaN, Double.NaN, false, outcome.error()));
                    continue;
                }
                ReplicationStats st = outcome.replicationStats();
                double p99 = st.pooledP99PullSeconds();
                rows.add(new Row(value, p99, st.meanPullSeconds().mean(), st.makespanSeconds().mean(), p99 <= target, ""));
                curves.put(knob.label() + "=" + value, finishes(outcome.result().fanout()));
            }
        }
        Row best = rows.stream().filter(Row::meets).findFirst().orElse(null);
        o.printf(Locale.ROOT, "%s: sizing '%s' by %s for p99 pull time <= %.4g s (%d replication(s))%n", scenario.name(),
                base.name(), knob.label(), target, scenario.replications());
        o.printf(Locale.ROOT, "  %6s %12s %12s %12s  %s%n", knob.label(), "p99(s)", "mean(s)", "makespan(s)", "meets target");
        for (Row r : rows) {
            if (!r.error().isEmpty()) {
                o.printf(Locale.ROOT, "  %6d %12s %12s %12s  FAILED: %s%n", r.value(), "-", "-", "-",
                        r.error().lines().findFirst().orElse(""));
                continue;
            }
            o.printf(Locale.ROOT, "  %6d %12.4f %12.4f %12.4f  %s%n", r.value(), r.p99(), r.mean(), r.makespan(),
                    r.meets() ? "yes" : "no");
        }
        if (best != null) {
            o.printf(Locale.ROOT, "smallest %s that meets the target: %d (p99 %.4f s)%n", knob.label(), best.value(), best.p99());
        } else {
            o.printf(Locale.ROOT, "no %s up to %d meets the target%n", knob.label(), top);
        }
        write(dir, scenario.name(), base.name(), knob, rows, curves, best);
        o.println("sweep written to " + dir);
        return Main.OK;
    }

    /** One point of the sweep; NaN figures and an error when the variant failed. */
    record Row(int value, double p99, double mean, double makespan, boolean meets, String error) {
    }

    /** Finish times of the first cycle's receivers, from the start of its pull phase, sorted. */
    private static double[] finishes(FanoutResult f) {
        FanoutResult.Cycle c = f.cycles().get(0);
        double start = c.startSeconds() + c.metadataSeconds() + c.registrationSeconds();
        double[] t = f.pulls().stream().filter(p -> p.cycle() == 0).mapToDouble(p -> p.finishSeconds() - start).toArray();
        Arrays.sort(t);
        return t;
    }

    private void write(Path dir, String scenario, String variantName, Sizing.Knob knob, List<Row> rows,
            Map<String, double[]> curves, Row best) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(ReportWriter.MARKER), "written by rdmasim; safe to replace\n");
        List<Row> ok = rows.stream().filter(r -> r.error().isEmpty()).toList();
        double[] x = ok.stream().mapToDouble(Row::value).toArray();
        double[] p99 = ok.stream().mapToDouble(Row::p99).toArray();
        double[] makespan = ok.stream().mapToDouble(Row::makespan).toArray();
        ChartFiles.write(Charts.sizing("Sizing " + variantName + " by " + knob.label() + ": " + scenario, knob.label(), x, p99,
                makespan, target), dir, "sizing-" + knob.label());
        ChartFiles.write(Charts.receiversVsTime("Receivers with the model over time, per " + knob.label() + ": " + scenario,
                curves), dir, "receivers-vs-time-" + knob.label());
        ObjectNode root = SummaryJson.mapper().createObjectNode();
        root.put("scenario", scenario);
        root.put("variant", variantName);
        root.put("knob", knob.label());
        root.put("targetP99Seconds", target);
        if (best != null) {
            root.put("smallestMeeting", best.value());
        } else {
            root.putNull("smallestMeeting");
        }
        ArrayNode arr = root.putArray("sweep");
        for (Row r : rows) {
            ObjectNode n = arr.addObject();
            n.put("value", r.value());
            n.put("status", r.error().isEmpty() ? "ok" : "failed");
            if (r.error().isEmpty()) {
                n.put("p99PullSeconds", r.p99());
                n.put("meanPullSeconds", r.mean());
                n.put("makespanSeconds", r.makespan());
                n.put("meetsTarget", r.meets());
            } else {
                n.put("error", r.error());
            }
        }
        SummaryJson.write(dir.resolve("sizing.json"), root);
    }
}
