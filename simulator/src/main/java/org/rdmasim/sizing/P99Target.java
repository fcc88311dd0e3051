package org.rdmasim.sizing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.run.WithoutParameter;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.VariantOutcome;

/**
 * A fan-out sized for its p99 pull time, pooled over replications: the knob's values 1..{@code top} are galloped
 * and bisected, each point the whole variant's replications. Tree degree is not assumed monotone (a wider tree
 * shares each relay's NICs among more children, a narrower one relays through more levels; with every receiver
 * arriving at once the model's p99 rises with it), so every power of two up to {@code top}, and {@code top}, is run
 * and the answer is the fastest that meets.
 *
 * @param boundText why the search stops at {@code top} (the knob's bound, or {@code --max N})
 */
public record P99Target(String scenario, String variantName, FanoutSizing.Knob knob, double target, int replications, int top,
        String boundText) implements SizingTarget {
    /**
     * The target on {@code base}'s fan-out: the knob tried up to its bound ({@link FanoutSizing#bound}), or up to
     * {@code max}, which may not pass the bound.
     */
    public static P99Target of(Scenario scenario, VariantSpec base, FanoutSizing.Knob knob, double target,
            OptionalInt max) {
        FanoutSizing.Bound bound = FanoutSizing.bound(base, knob);
        if (max.isPresent() && max.getAsInt() > bound.value()) {
            throw SizingInputException.maxAboveBound(max.getAsInt(), knob, base, bound.value(), bound.why());
        }
        int top = max.orElse(bound.value());
        return new P99Target(scenario.name(), base.name(), knob, target, scenario.replications(), top,
                max.isPresent() ? "--max " + top : bound.why());
    }

    @Override
    public String label() {
        return knob.label();
    }

    /** Whether the knob is searched by galloping and bisection (all but tree degree, which is scanned). */
    private boolean monotone() {
        return knob != FanoutSizing.Knob.TREE_DEGREE;
    }

    /** The values a scan runs: 1, 2, 4, ... below {@code top}, then {@code top}. */
    private List<Integer> ladder() {
        List<Integer> out = new java.util.ArrayList<>();
        for (int v = 1; v < top; v *= 2) {
            out.add(v);
        }
        out.add(top);
        return out;
    }

    @Override
    public SizingSearch search() {
        return monotone() ? new SizingSearch(top) : SizingSearch.scan(ladder().size());
    }

    /** The knob's value at a search position. */
    private int valueAt(int position) {
        return monotone() ? position : ladder().get(position - 1);
    }

    @Override
    public String shownAt(int position) {
        return Integer.toString(valueAt(position));
    }

    @Override
    public List<String> files() {
        String label = label();
        return List.of("sizing.csv", "sizing.json", "sizing-" + label + ".png", "sizing-" + label + ".svg",
                "receivers-vs-time-" + label + ".png", "receivers-vs-time-" + label + ".svg");
    }

    /** Simulates {@code base} with the knob at a value: the scenario's replications on {@code workers} threads. */
    public SizingSweep.Evaluator evaluator(Scenario scenario, VariantSpec base, int workers) {
        return new SizingSweep.Evaluator() {
            @Override
            public SimulatedPoint evaluate(int position) {
                VariantSpec v = at(base, valueAt(position));
                VariantRunner.Run run = VariantRunner.runHeld(v, scenario.seed(), scenario.replications(), workers);
                VariantOutcome outcome = run.outcome();
                if (outcome.status() != VariantOutcome.Status.OK) {
                    return SimulatedPoint.failed(position, outcome.error());
                }
                ReplicationStats st = outcome.replicationStats();
                double p99 = st.pooledP99PullSeconds();
                return new SimulatedPoint(position, p99, st.meanPullSeconds().mean(), st.makespanSeconds().mean(),
                        p99 <= target, "", finishes(outcome.result().fanout()), "",
                        org.rdmasim.report.CalibratedLimit.of(outcome).map(org.rdmasim.report.CalibratedLimit::sentence)
                                .orElse(""), NicLanes.of(v, outcome, run.registrations()));
            }

            /**
             * Each assumed parameter, with a "without" in its profile, of a profile the answer's hosts are bound to
             * (as explain's "rests on" lists them): the answer point rerun with the profile's copy without it
             * ({@link WithoutParameter}), its p99 and whether it still meets the target.
             */
            @Override
            public List<String> withoutAssumptions(int position) {
                int value = valueAt(position);
                VariantSpec v = at(base, value);
                List<String> lines = new java.util.ArrayList<>();
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (var spec : v.hosts().values()) {
                    CalibrationProfile profile = CalibrationProfile.forHost(spec);
                    for (CalibrationProfile.Parameter p : profile.assumptions()) {
                        if (p.kind() != CalibrationProfile.Kind.ASSUMED || p.absence().isEmpty()
                                || !seen.add(profile.name() + "/" + p.key())) {
                            continue;
                        }
                        var w = WithoutParameter.of(v, profile.name(), p.key());
                        if (w.isEmpty()) {
                            continue;
                        }
                        VariantOutcome o = VariantRunner.runHeld(w.get().variant(), scenario.seed(),
                                scenario.replications(), workers).outcome();
                        String head = String.format(Locale.ROOT, "without %s (assumed, profile %s; %s): ", p.key(),
                                profile.name(), p.absence().get().means());
                        if (o.status() != VariantOutcome.Status.OK) {
                            lines.add(head + "the run fails: " + o.error().lines().findFirst().orElse(""));
                            continue;
                        }
                        double p99 = o.replicationStats().pooledP99PullSeconds();
                        lines.add(head + String.format(Locale.ROOT, "%s = %d gives p99 %.4f s, %s", label(), value,
                                p99, p99 <= target ? "still meets the target"
                                        : "misses the target: the answer rests on this assumption"));
                    }
                }
                return lines;
            }
        };
    }

    private VariantSpec at(VariantSpec base, int value) {
        try {
            return FanoutSizing.apply(base, knob, value);
        } catch (IllegalArgumentException e) {
            throw new SizingInputException(e.getMessage());
        }
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
        return search.violations(label(), this::shownAt, "p99");
    }

    @Override
    public void tableHead(Formatter t, SizingOutcome outcome) {
        SizingSearch search = outcome.search();
        t.format("%s: sizing '%s' by %s for p99 pull time <= %.4g s (%d replication(s))%n", scenario,
                variantName, label(), target, replications);
        if (!search.monotone()) {
            t.format("does not assume more %s helps (a wider tree shares each relay's NICs among more children, a "
                    + "narrower one relays through more levels): runs %s up to %d (%s) and answers with the fastest "
                    + "that meets; %d point(s) simulated, at most %d%n", label(), label(), top, boundText,
                    outcome.points().size(), search.mostPoints());
            return;
        }
        t.format("assumes more %s never make p99 worse (monotone): tried 1, 2, 4, ... up to %d (%s), "
                + "then bisection; %d point(s) simulated, at most %d%n", label(), search.bound(), boundText,
                outcome.points().size(), search.mostPoints());
    }

    @Override
    public void tablePoints(Formatter t, List<SimulatedPoint> points) {
        t.format("  %11s %12s %12s %12s  %s%n", label(), "p99(s)", "mean(s)", "makespan(s)",
                "meets target");
        for (SimulatedPoint r : points) {
            if (!r.ok()) {
                t.format("  %11s %12s %12s %12s  no: FAILED: %s%n", shownAt(r.value()), "-", "-", "-",
                        r.error().lines().findFirst().orElse(""));
                continue;
            }
            t.format("  %11s %12.4f %12.4f %12.4f  %s%n", shownAt(r.value()), r.p99(), r.mean(), r.makespan(),
                    r.meets() ? "yes" : "no");
        }
    }

    @Override
    public void tableAnswer(Formatter t, SizingOutcome outcome) {
        String label = label();
        OptionalInt answer = outcome.answer();
        if (outcome.complete() && !outcome.search().monotone()) {
            t.format("tried %s = %s (the powers of two below %d, then %d; the values between were not simulated)%n",
                    label, String.join(", ", outcome.points().stream().map(r -> shownAt(r.value())).toList()), top, top);
            t.format("%s%n", SimulatedPoint.direction(outcome.points(), label, this::shownAt, "p99 is lowest"));
            if (answer.isPresent()) {
                t.format("best %s that meets the target: %s (p99 %.4f s, the fastest of those tried); smallest that "
                        + "meets: %s%n", label, shownAt(answer.getAsInt()), outcome.at(answer.getAsInt()).p99(),
                        shownAt(outcome.smallestMet().getAsInt()));
            } else {
                t.format("%s%n", outcome.search().noneMeets(label, this::shownAt, false));
            }
            return;
        }
        if (!outcome.complete() && !outcome.search().monotone()) {
            List<SimulatedPoint> met = outcome.points().stream().filter(SimulatedPoint::meets).toList();
            t.format("no answer yet: %s%n", met.isEmpty() ? "no " + label + " tried so far meets the target"
                    : label + " " + String.join(", ", met.stream().map(r -> shownAt(r.value())).toList())
                            + " met it so far");
            return;
        }
        if (outcome.complete()) {
            t.format("%s%n", outcome.search().tried(label, Integer::toString));
            if (answer.isPresent()) {
                t.format("smallest %s that meets the target: %d (p99 %.4f s)%n", label,
                        answer.getAsInt(), outcome.at(answer.getAsInt()).p99());
            } else {
                t.format("%s%n", outcome.search().noneMeets(label, Integer::toString,
                        !outcome.violations().isEmpty()));
                // a flat tail says where the knob stops helping only where the points keep the assumption
                outcome.search().plateau(label, Integer::toString, "p99",
                        "the NICs at each point, above, show which carry data and why the others do not",
                        !outcome.violations().isEmpty()).ifPresent(line -> t.format("%s%n", line));
            }
            return;
        }
        OptionalInt meets = outcome.smallestMet();
        int missed = outcome.points().stream().filter(r -> !r.meets()).mapToInt(SimulatedPoint::value).max().orElse(0);
        if (meets.isPresent()) {
            t.format("no answer yet: the smallest %s that meets the target is between %d and %d%n",
                    label, missed + 1, meets.getAsInt());
        } else {
            t.format("no answer yet: no %s tried so far meets the target (largest tried %d)%n",
                    label, missed);
        }
    }

    @Override
    public void writeCharts(List<SimulatedPoint> ok, Path dir) throws IOException {
        String label = label();
        double[] x = ok.stream().mapToDouble(r -> (double) valueAt(r.value())).toArray();
        double[] p99 = ok.stream().mapToDouble(SimulatedPoint::p99).toArray();
        double[] makespan = ok.stream().mapToDouble(SimulatedPoint::makespan).toArray();
        Map<String, double[]> curves = new LinkedHashMap<>();
        for (SimulatedPoint r : ok) {
            curves.put(label + "=" + shownAt(r.value()), r.finishes());
        }
        var sizing = Charts.sizing("Sizing " + variantName + " by " + label + ": " + scenario, label, x, p99, makespan,
                target);
        Charts.captions(sizing, SimulatedPoint.calibratedCaptions(ok, label, this::shownAt));
        ChartFiles.write(sizing, dir, "sizing-" + label);
        ChartFiles.write(Charts.receiversVsTime("Receivers with the model over time, per " + label + ": "
                + scenario, curves), dir, "receivers-vs-time-" + label);
    }

    @Override
    public String csv(List<SimulatedPoint> points) {
        StringBuilder b = new StringBuilder(label() + ",status,p99PullSeconds,meanPullSeconds,makespanSeconds,"
                + "meetsTarget\n");
        for (SimulatedPoint r : points) {
            if (r.ok()) {
                b.append(String.format(Locale.ROOT, "%d,ok,%s,%s,%s,%b%n", valueAt(r.value()), r.p99(), r.mean(), r.makespan(),
                        r.meets()));
            } else {
                b.append(valueAt(r.value())).append(",failed,,,,false\n");
            }
        }
        return b.toString();
    }

    @Override
    public ObjectNode json(SizingOutcome outcome) {
        String label = label();
        ObjectNode root = SummaryJson.mapper().createObjectNode();
        root.put("scenario", scenario);
        root.put("variant", variantName);
        root.put("knob", label);
        root.put("targetP99Seconds", target);
        root.put("complete", outcome.complete());
        root.put("bound", outcome.search().bound());
        root.put("boundReason", boundText);
        root.put("search", outcome.search().monotone() ? "gallop-bisect" : "scan");
        root.put("assumption", outcome.search().monotone() ? "more " + label + " never make p99 worse (monotone)"
                : "none: " + label + " is not assumed monotone; powers of two and the bound are run, the answer is the "
                        + "fastest that meets");
        root.put("pointsSimulated", outcome.points().size());
        root.put("mostPoints", outcome.search().mostPoints());
        OptionalInt smallest = outcome.search().monotone() ? outcome.answer() : outcome.smallestMet();
        if (outcome.complete() && smallest.isPresent()) {
            root.put("smallestMeeting", valueAt(smallest.getAsInt()));
        } else {
            root.putNull("smallestMeeting");
        }
        if (!outcome.search().monotone()) {
            if (outcome.complete() && outcome.answer().isPresent()) {
                root.put("bestMeeting", valueAt(outcome.answer().getAsInt()));
            } else {
                root.putNull("bestMeeting");
            }
            root.put("direction", outcome.complete()
                    ? SimulatedPoint.direction(outcome.points(), label, this::shownAt, "p99 is lowest") : "");
        }
        NicLanes.putInstall(root, outcome.points());
        ArrayNode v = root.putArray("monotonicityViolations");
        outcome.violations().forEach(v::add);
        ArrayNode arr = root.putArray("sweep");
        for (SimulatedPoint r : outcome.points()) {
            ObjectNode n = arr.addObject();
            n.put("value", valueAt(r.value()));
            r.putResult(n, List.of("p99PullSeconds", "meanPullSeconds", "makespanSeconds"), false);
        }
        return root;
    }
}
