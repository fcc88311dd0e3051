package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.Sizing;
import org.rdmasim.scenario.SizingSearch;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.VariantOutcome;

/**
 * A fan-out sized for its p99 pull time, pooled over replications: the knob's values 1..{@code top} are galloped
 * and bisected, each point the whole variant's replications.
 *
 * @param boundText why the search stops at {@code top} (the knob's bound, or {@code --max N})
 */
record P99Target(String scenario, String variantName, Sizing.Knob knob, double target, int replications, int top,
        String boundText) implements SizingTarget {
    @Override
    public String label() {
        return knob.label();
    }

    @Override
    public SizingSearch search() {
        return new SizingSearch(top);
    }

    @Override
    public String shownAt(int position) {
        return Integer.toString(position);
    }

    @Override
    public List<String> files() {
        String label = label();
        return List.of("sizing.csv", "sizing.json", "sizing-" + label + ".png", "sizing-" + label + ".svg",
                "receivers-vs-time-" + label + ".png", "receivers-vs-time-" + label + ".svg");
    }

    /** Simulates {@code base} with the knob at a value: the scenario's replications on {@code workers} threads. */
    SizingSweep.Evaluator evaluator(Scenario scenario, VariantSpec base, int workers) {
        return value -> {
            VariantSpec v;
            try {
                v = Sizing.apply(base, knob, value);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            VariantOutcome outcome = VariantRunner.run(v, scenario.seed(), scenario.replications(), workers);
            if (outcome.status() != VariantOutcome.Status.OK) {
                return new SizingSweep.Row(value, Double.NaN, Double.NaN, Double.NaN, false, outcome.error(), null);
            }
            ReplicationStats st = outcome.replicationStats();
            double p99 = st.pooledP99PullSeconds();
            return new SizingSweep.Row(value, p99, st.meanPullSeconds().mean(), st.makespanSeconds().mean(),
                    p99 <= target, "", finishes(outcome.result().fanout()), "",
                    org.rdmasim.report.CalibratedLimit.of(outcome).map(org.rdmasim.report.CalibratedLimit::sentence)
                            .orElse(""));
        };
    }

    /** Finish times of the first cycle's receivers, from the start of its pull phase, sorted. */
    private static double[] finishes(FanoutResult f) {
        FanoutResult.Cycle c = f.cycles().get(0);
        double start = c.startSeconds() + c.metadataSeconds() + c.registrationSeconds();
        double[] t = f.pulls().stream().filter(p -> p.cycle() == 0).mapToDouble(p -> p.finishSeconds() - start).toArray();
        Arrays.sort(t);
        return t;
    }

    @Override
    public List<String> violations(SizingSearch search) {
        return search.violations(label());
    }

    @Override
    public void printTable(PrintWriter o, SizingSweep.Outcome outcome) {
        String label = label();
        List<SizingSweep.Row> all = outcome.points();
        SizingSearch search = outcome.search();
        o.printf(Locale.ROOT, "%s: sizing '%s' by %s for p99 pull time <= %.4g s (%d replication(s))%n", scenario,
                variantName, label, target, replications);
        o.printf(Locale.ROOT, "assumes more %s never make p99 worse (monotone): tried 1, 2, 4, ... up to %d (%s), "
                + "then bisection; %d point(s) simulated, at most %d%n", label, search.bound(), boundText,
                all.size(), search.mostPoints());
        if (!outcome.complete()) {
            o.println("INCOMPLETE: interrupted; the points simulated so far:");
        }
        o.printf(Locale.ROOT, "  %11s %12s %12s %12s  %s%n", label, "p99(s)", "mean(s)", "makespan(s)",
                "meets target");
        for (SizingSweep.Row r : all) {
            if (!r.ok()) {
                o.printf(Locale.ROOT, "  %11d %12s %12s %12s  no: FAILED: %s%n", r.value(), "-", "-", "-",
                        r.error().lines().findFirst().orElse(""));
                continue;
            }
            o.printf(Locale.ROOT, "  %11d %12.4f %12.4f %12.4f  %s%n", r.value(), r.p99(), r.mean(), r.makespan(),
                    r.meets() ? "yes" : "no");
        }
        for (String v : outcome.violations()) {
            o.println("monotonicity violated: " + v + "; the answer may not be the smallest value that meets");
        }
        OptionalInt answer = outcome.answer();
        if (outcome.complete()) {
            if (answer.isPresent()) {
                o.printf(Locale.ROOT, "smallest %s that meets the target: %d (p99 %.4f s)%n", label,
                        answer.getAsInt(), outcome.at(answer.getAsInt()).p99());
            } else {
                o.printf(Locale.ROOT, "no %s up to %d meets the target%n", label, search.bound());
            }
            return;
        }
        OptionalInt meets = outcome.smallestMet();
        int missed = all.stream().filter(r -> !r.meets()).mapToInt(SizingSweep.Row::value).max().orElse(0);
        if (meets.isPresent()) {
            o.printf(Locale.ROOT, "no answer yet: the smallest %s that meets the target is between %d and %d%n",
                    label, missed + 1, meets.getAsInt());
        } else {
            o.printf(Locale.ROOT, "no answer yet: no %s tried so far meets the target (largest tried %d)%n",
                    label, missed);
        }
    }

    @Override
    public void writeCharts(List<SizingSweep.Row> ok, Path dir) throws IOException {
        String label = label();
        double[] x = ok.stream().mapToDouble(r -> (double) r.value()).toArray();
        double[] p99 = ok.stream().mapToDouble(SizingSweep.Row::p99).toArray();
        double[] makespan = ok.stream().mapToDouble(SizingSweep.Row::makespan).toArray();
        Map<String, double[]> curves = new LinkedHashMap<>();
        for (SizingSweep.Row r : ok) {
            curves.put(label + "=" + r.value(), r.finishes());
        }
        var sizing = Charts.sizing("Sizing " + variantName + " by " + label + ": " + scenario, label, x, p99, makespan,
                target);
        Charts.captions(sizing, SizingSweep.Row.calibratedCaptions(ok, label, String::valueOf));
        ChartFiles.write(sizing, dir, "sizing-" + label);
        ChartFiles.write(Charts.receiversVsTime("Receivers with the model over time, per " + label + ": "
                + scenario, curves), dir, "receivers-vs-time-" + label);
    }

    @Override
    public String csv(List<SizingSweep.Row> points) {
        StringBuilder b = new StringBuilder(label() + ",status,p99PullSeconds,meanPullSeconds,makespanSeconds,"
                + "meetsTarget\n");
        for (SizingSweep.Row r : points) {
            if (r.ok()) {
                b.append(String.format(Locale.ROOT, "%d,ok,%s,%s,%s,%b%n", r.value(), r.p99(), r.mean(), r.makespan(),
                        r.meets()));
            } else {
                b.append(r.value()).append(",failed,,,,false\n");
            }
        }
        return b.toString();
    }

    @Override
    public ObjectNode json(SizingSweep.Outcome outcome) {
        String label = label();
        ObjectNode root = SummaryJson.mapper().createObjectNode();
        root.put("scenario", scenario);
        root.put("variant", variantName);
        root.put("knob", label);
        root.put("targetP99Seconds", target);
        root.put("complete", outcome.complete());
        root.put("bound", outcome.search().bound());
        root.put("boundReason", boundText);
        root.put("assumption", "more " + label + " never make p99 worse (monotone)");
        root.put("pointsSimulated", outcome.points().size());
        root.put("mostPoints", outcome.search().mostPoints());
        if (outcome.complete() && outcome.answer().isPresent()) {
            root.put("smallestMeeting", outcome.answer().getAsInt());
        } else {
            root.putNull("smallestMeeting");
        }
        ArrayNode v = root.putArray("monotonicityViolations");
        outcome.violations().forEach(v::add);
        ArrayNode arr = root.putArray("sweep");
        for (SizingSweep.Row r : outcome.points()) {
            ObjectNode n = arr.addObject();
            n.put("value", r.value());
            r.putResult(n, List.of("p99PullSeconds", "meanPullSeconds", "makespanSeconds"), false);
        }
        return root;
    }
}
