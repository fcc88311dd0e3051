package org.rdmasim.sizing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.VariantOutcome;

/**
 * A refit sized for its time per cycle (the first, or the steady last one with registration cached): the search
 * walks positions on the knob's ladder, galloping and bisecting when the knob is monotone and running every value
 * when it is not; each point one run of the refit.
 *
 * @param cycle     first or steady: the cycle the target is on
 * @param steps     the knob's ladder
 * @param skipped   values left out of the ladder, with the reason
 * @param boundText what the ladder is (or {@code --max N})
 */
public record RefitCycleTarget(String scenario, String variantName, RefitSizing.Knob knob, String cycle, double target,
        List<RefitSizing.Step> steps, List<RefitSizing.Skipped> skipped, String boundText) implements SizingTarget {
    public RefitCycleTarget {
        steps = List.copyOf(steps);
        skipped = List.copyOf(skipped);
    }

    /**
     * The target on {@code base}'s refit: the knob's ladder ({@link RefitSizing#ladder}), cut at {@code max} for a
     * monotone knob (a knob whose every value is run takes none).
     *
     * @param file  the scenario file as the user named it, for messages
     * @param cycle first or steady
     */
    public static RefitCycleTarget of(Path file, String scenario, VariantSpec base, RefitSizing.Knob knob, String cycle,
            double target, OptionalInt max) {
        RefitSizing.Ladder ladder;
        try {
            ladder = RefitSizing.ladder(base, knob);
        } catch (IllegalArgumentException e) {
            throw new SizingInputException(file + ": variant '" + base.name() + "': " + e.getMessage());
        }
        List<RefitSizing.Step> steps = ladder.steps();
        String boundText = ladder.why();
        if (max.isPresent()) {
            int most = max.getAsInt();
            if (!knob.monotone()) {
                throw new SizingInputException("--max does not apply to --vary " + knob.label() + ": every value of "
                        + boundText + " is run");
            }
            long largest = steps.get(steps.size() - 1).value();
            if (most > largest) {
                throw SizingInputException.maxAboveBound(most, knob, base, largest, boundText);
            }
            steps = steps.stream().filter(st -> st.value() <= most).toList();
            if (steps.isEmpty()) {
                throw new SizingInputException("--max " + most + " leaves no valid " + knob.label() + " to try (the "
                        + "smallest is " + ladder.steps().get(0).value() + ")");
            }
            boundText = "--max " + most;
        }
        return new RefitCycleTarget(scenario, base.name(), knob, cycle, target, steps, ladder.skipped(), boundText);
    }

    /** The head of the column holding the time of the cycle the target is on, in seconds. */
    static final String TARGET_CYCLE_HEAD = "target cycle(s)";

    @Override
    public String label() {
        return knob.label();
    }

    @Override
    public SizingSearch search() {
        return knob.monotone() ? new SizingSearch(steps.size()) : SizingSearch.scan(steps.size());
    }

    /** The knob's value at a search position. */
    private long valueAt(int position) {
        return steps.get(position - 1).value();
    }

    @Override
    public String shownAt(int position) {
        return steps.get(position - 1).shown();
    }

    /** No receivers-over-time chart: a refit has no receivers pulling. */
    @Override
    public List<String> files() {
        String label = label();
        return List.of("sizing.csv", "sizing.json", "sizing-" + label + ".png", "sizing-" + label + ".svg");
    }

    /** Simulates {@code base} with the knob at a ladder position: one run of the refit alone. */
    public SizingSweep.Evaluator evaluator(VariantSpec base) {
        return position -> {
            VariantSpec v = RefitSizing.apply(base, knob, valueAt(position));
            VariantRunner.Run run = VariantRunner.runRefitOnlyHeld(v);
            VariantOutcome outcome = run.outcome();
            if (outcome.status() != VariantOutcome.Status.OK) {
                return SimulatedPoint.failed(position, outcome.error());
            }
            RefitSummary s = outcome.result().refit();
            double figure = cycle.equals("first") ? s.firstCycleSeconds() : s.steadyCycleSeconds();
            RefitSummary.Cycle c = cycle.equals("first") ? s.cycles().get(0) : s.cycles().get(s.cycles().size() - 1);
            return new SimulatedPoint(position, figure, s.firstCycleSeconds(), s.steadyCycleSeconds(), figure <= target,
                    "", null, c.boundBy(), org.rdmasim.report.CalibratedLimit.of(outcome)
                            .map(org.rdmasim.report.CalibratedLimit::sentence).orElse(""),
                    NicLanes.of(v, outcome, run.registrations()));
        };
    }

    @Override
    public List<String> violations(SizingSearch search) {
        return search.violations(label(), this::shownAt, "refit time");
    }

    private String ladderText() {
        return steps.stream().map(RefitSizing.Step::shown).collect(Collectors.joining(", "));
    }

    private String assumption() {
        return knob.monotone()
                // "more senders never make", "more inference-tp never makes"
                ? "more " + label() + (label().endsWith("s") ? " never make" : " never makes") + " a refit longer (monotone)"
                : "none: a larger " + label() + " can make a refit faster or slower (fewer per-bucket starts against "
                        + "a later pipeline fill and a larger buffer to register), so every value is run";
    }

    @Override
    public void tableHead(Formatter t, SizingOutcome outcome) {
        SizingSearch search = outcome.search();
        t.format("%s: sizing '%s' by %s for refit time per %s cycle <= %.4g s%n", scenario, variantName,
                label(), cycle, target);
        if (search.monotone()) {
            t.format("assumes %s: values %s (%s); tried the 1st, 2nd, 4th, ... of them, then bisection; "
                    + "%d point(s) simulated, at most %d%n", assumption(), ladderText(), boundText,
                    outcome.points().size(), search.mostPoints());
        } else {
            t.format("assumes %s: %s (%s); %d point(s) simulated of %d%n", assumption(), ladderText(),
                    boundText, outcome.points().size(), search.mostPoints());
        }
        for (RefitSizing.Skipped k : skipped) {
            t.format("skipped %s=%d: %s%n", label(), k.value(), k.why());
        }
    }

    /**
     * The column heads: the knob, then the time of the cycle the target is on ({@code target cycle(s)}: the
     * figure compared with the target, the first or the steady cycle as {@code --refit-cycle} chose, sizing.csv's
     * {@code refitSeconds}), then both cycles, whether the target is met and the bound.
     */
    @Override
    public void tablePoints(Formatter t, List<SimulatedPoint> points) {
        t.format("  %12s %15s %12s %12s  %-13s %s%n", label(), TARGET_CYCLE_HEAD, "first(s)", "steady(s)",
                "meets target", "bound by");
        for (SimulatedPoint r : points) {
            if (!r.ok()) {
                t.format("  %12s %15s %12s %12s  %-13s %s%n", shownAt(r.value()), "-", "-", "-",
                        "no: FAILED", r.error().lines().findFirst().orElse(""));
                continue;
            }
            t.format("  %12s %15.4f %12.4f %12.4f  %-13s %s%n", shownAt(r.value()), r.p99(), r.mean(),
                    r.makespan(), r.meets() ? "yes" : "no", r.boundBy());
        }
    }

    @Override
    public void tableAnswer(Formatter t, SizingOutcome outcome) {
        String label = label();
        List<SimulatedPoint> all = outcome.points();
        SizingSearch search = outcome.search();
        OptionalInt answer = outcome.answer();
        if (!outcome.complete()) {
            List<SimulatedPoint> met = all.stream().filter(SimulatedPoint::meets).toList();
            t.format("no answer yet: %s%n", met.isEmpty() ? "no " + label + " tried so far meets the target"
                    : label + " " + met.stream().map(r -> shownAt(r.value())).collect(Collectors.joining(", "))
                            + " met it so far");
            return;
        }
        t.format("%s%n", search.tried(label, this::shownAt));
        if (search.monotone()) {
            if (answer.isPresent()) {
                t.format("smallest %s that meets the target: %s (%s cycle %.4f s)%n", label,
                        shownAt(answer.getAsInt()), cycle, outcome.at(answer.getAsInt()).p99());
            } else {
                t.format("%s%n", search.noneMeets(label, this::shownAt, !outcome.violations().isEmpty()));
                // only where the points keep the monotone assumption: else values not simulated may differ
                search.plateau(label, this::shownAt, cycle + " cycle", "the bound by column says what holds each point",
                        !outcome.violations().isEmpty()).ifPresent(line -> t.format("%s%n", line));
            }
            return;
        }
        t.format("%s%n", SimulatedPoint.direction(all, label, this::shownAt, "the refit is fastest"));
        OptionalInt smallest = outcome.smallestMet();
        if (answer.isPresent()) {
            t.format("best %s that meets the target: %s (%s cycle %.4f s, the fastest of those tried); "
                    + "smallest that meets: %s%n", label, shownAt(answer.getAsInt()), cycle,
                    outcome.at(answer.getAsInt()).p99(), shownAt(smallest.getAsInt()));
        } else {
            t.format("%s%n", search.noneMeets(label, this::shownAt, false));
        }
    }

    @Override
    public void writeCharts(List<SimulatedPoint> ok, Path dir) throws IOException {
        String label = label();
        double[] x = ok.stream().mapToDouble(r -> (double) valueAt(r.value())).toArray();
        double[] first = ok.stream().mapToDouble(SimulatedPoint::mean).toArray();
        double[] steady = ok.stream().mapToDouble(SimulatedPoint::makespan).toArray();
        boolean bytes = knob == RefitSizing.Knob.BUCKET;
        if (bytes) {
            x = java.util.Arrays.stream(x).map(b -> b / (1 << 20)).toArray();
        }
        JFreeChart chart = Charts.sizing("Sizing " + variantName + " by " + label + ": " + scenario,
                bytes ? label + " (MiB)" : label, x, "first cycle", first, "steady cycle", steady, target,
                "target (" + cycle + " cycle)");
        if (bytes) {
            // powers of two: evenly spaced on a base-2 axis
            LogAxis axis = new LogAxis(label + " (MiB)");
            axis.setBase(2);
            axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
            axis.setNumberFormatOverride(new java.text.DecimalFormat("0"));
            chart.getXYPlot().setDomainAxis(axis);
        }
        Charts.captions(chart, SimulatedPoint.calibratedCaptions(ok, label, this::shownAt));
        ChartFiles.write(chart, dir, "sizing-" + label);
    }

    @Override
    public String csv(List<SimulatedPoint> points) {
        StringBuilder b = new StringBuilder(label() + ",status,refitSeconds,firstCycleSeconds,steadyCycleSeconds,"
                + "meetsTarget,boundBy\n");
        for (SimulatedPoint r : points) {
            long v = valueAt(r.value());
            if (r.ok()) {
                b.append(String.format(Locale.ROOT, "%d,ok,%s,%s,%s,%b,%s%n", v, r.p99(), r.mean(), r.makespan(),
                        r.meets(), csvText(r.boundBy())));
            } else {
                b.append(v).append(",failed,,,,false,\n");
            }
        }
        return b.toString();
    }

    private static String csvText(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }

    @Override
    public ObjectNode json(SizingOutcome outcome) {
        SizingSearch search = outcome.search();
        boolean complete = outcome.complete();
        OptionalInt answer = outcome.answer();
        List<SimulatedPoint> all = outcome.points();
        ObjectNode root = SummaryJson.mapper().createObjectNode();
        root.put("scenario", scenario);
        root.put("variant", variantName);
        root.put("knob", label());
        root.put("targetRefitSeconds", target);
        root.put("cycle", cycle);
        root.put("complete", complete);
        root.put("search", search.monotone() ? "gallop-bisect" : "scan");
        ArrayNode values = root.putArray("values");
        steps.forEach(st -> values.add(st.value()));
        root.put("boundReason", boundText);
        root.put("assumption", assumption());
        ArrayNode skip = root.putArray("skipped");
        for (RefitSizing.Skipped k : skipped) {
            ObjectNode n = skip.addObject();
            n.put("value", k.value());
            n.put("why", k.why());
        }
        root.put("pointsSimulated", all.size());
        root.put("mostPoints", search.mostPoints());
        OptionalInt smallest = search.monotone() ? answer : outcome.smallestMet();
        if (complete && smallest.isPresent()) {
            root.put("smallestMeeting", valueAt(smallest.getAsInt()));
        } else {
            root.putNull("smallestMeeting");
        }
        if (!search.monotone()) {
            if (complete && answer.isPresent()) {
                root.put("bestMeeting", valueAt(answer.getAsInt()));
            } else {
                root.putNull("bestMeeting");
            }
            root.put("direction", complete ? SimulatedPoint.direction(all, label(), this::shownAt, "the refit is fastest") : "");
        }
        NicLanes.putInstall(root, all);
        ArrayNode v = root.putArray("monotonicityViolations");
        outcome.violations().forEach(v::add);
        ArrayNode arr = root.putArray("sweep");
        for (SimulatedPoint r : all) {
            ObjectNode n = arr.addObject();
            n.put("value", valueAt(r.value()));
            n.put("shown", shownAt(r.value()));
            r.putResult(n, List.of("refitSeconds", "firstCycleSeconds", "steadyCycleSeconds"), true);
        }
        return root;
    }
}
