package org.rdmasim.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.ProfileParameter;
import org.rdmasim.hardware.Units;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.StageParameter;
import org.rdmasim.workload.VariantOutcome;

/**
 * A number fitted to a measurement (or assumed) that limits what a chart plots for a variant, so the chart
 * can say so beside the bar or line: a calibrated 308 Gbps drawn as a plain bar reads as a prediction.
 *
 * <p>Which number limits a variant is decided as the text reports decide it: for a pull, the limit of its
 * slowest receiver (summary.json's {@code limitedBy}, the run table's "limited by"), when that limit is a
 * profile's parameter and the profile marks it calibrated or assumed; for a refit, the calibrated stage
 * parameters its steady cycle's bound names, or else the profile parameter its bound's limit is (as the page's
 * "rests on" picks them).
 *
 * @param parameter   the parameter's key, e.g. {@code nicReadRate} or {@code refit.bucketSeconds}
 * @param value       its value with its unit, e.g. {@code 308 Gbps}
 * @param kind        {@code calibrated} or {@code assumed}
 * @param profile     the calibration profile it is in, or empty for a refit's stage parameter
 * @param measurement what it was fitted to, short (its source up to the first colon), or what assumes it
 */
public record CalibratedLimit(String parameter, String value, String kind, String profile, String measurement) {

    /** The short mark a bar or a series carries: {@code calibrated: nicReadRate 308 Gbps, ai-dynamo/modelexpress #449}. */
    public String mark() {
        return kind + ": " + parameter + " " + value + ", " + measurement;
    }

    /** One sentence for a chart's caption, naming the parameter, its profile and its measurement. */
    public String sentence() {
        String where = profile.isEmpty() ? "" : " (profile " + profile + ")";
        return kind.toUpperCase(Locale.ROOT) + ", not a mechanism: " + parameter + " = " + value + where
                + (kind.equals("calibrated") ? ", fitted to " : ", ") + measurement;
    }

    /** What limits {@code o}'s plotted figures, when that is a calibrated or assumed number; else empty. */
    public static Optional<CalibratedLimit> of(VariantOutcome o) {
        if (o.status() == VariantOutcome.Status.FAILED || o.result() == null) {
            return Optional.empty();
        }
        var refit = o.result().refit();
        if (refit != null) {
            if (refit.cycles().isEmpty()) {
                return Optional.empty();
            }
            // a stage cost that bounds the steady cycle, else a profile's rate holding it (a NIC's fitted READ rate)
            return ofRefit(refit.calibratedBound()).or(() -> refit.profileBound().stream().map(CalibratedLimit::of)
                    .flatMap(Optional::stream).findFirst());
        }
        return Verdict.lines(List.of(o)).stream().findFirst().flatMap(l -> of(l.limiter()));
    }

    /**
     * The calibrated (or assumed) numbers that hold some of {@code o}'s lanes, each with how many lanes it
     * holds, in the order first met: what a NIC chart's lines stand on, as the page's "what the answer rests
     * on" takes them from the lanes' limits.
     */
    public static java.util.Map<CalibratedLimit, Integer> ofLanes(VariantOutcome o) {
        java.util.Map<CalibratedLimit, Integer> out = new java.util.LinkedHashMap<>();
        if (o.result() == null) {
            return out;
        }
        java.util.Map<Bottleneck, Optional<CalibratedLimit>> seen = new java.util.HashMap<>();
        for (var t : o.result().transfers()) {
            for (var lane : t.lanes()) {
                seen.computeIfAbsent(lane.limiter(), CalibratedLimit::of).ifPresent(l -> out.merge(l, 1, Integer::sum));
            }
        }
        return out;
    }

    /**
     * The notes a chart of {@code o}'s NICs carries, one a line: the calibrated (or assumed) number that limits
     * its slowest pull, then each other one that holds some of its lanes, with how many. The PNG/SVG chart and
     * the interactive page both print these, so the two cannot disagree.
     */
    public static List<String> nicNotes(VariantOutcome o) {
        List<String> lines = new ArrayList<>();
        CalibratedLimit limit = of(o).orElse(null);
        if (limit != null) {
            // a refit has no pulls: the number bounds its steady cycle (of(o) decides which, for both)
            lines.add(limit.sentence() + (o.result() != null && o.result().refit() != null
                    ? "; it bounds this refit's steady cycle." : "; it limits this variant's slowest pull."));
        }
        int lanes = o.result() == null ? 0 : o.result().transfers().stream().mapToInt(t -> t.lanes().size()).sum();
        ofLanes(o).forEach((l, n) -> {
            if (!l.equals(limit)) {
                lines.add(String.format(Locale.ROOT, "%s; it holds %d of the %d lanes.", l.sentence(), n, lanes));
            }
        });
        return lines;
    }

    /** The name a line of {@code o}'s figures carries: the variant's, with the mark of what limits it if any. */
    public static String seriesName(VariantOutcome o) {
        return of(o).map(l -> o.name() + " (" + l.mark() + ")").orElse(o.name());
    }

    /** The note of a chart of {@code o}'s receivers' pulls, when a calibrated (or assumed) number limits them. */
    public static Optional<String> pullsNote(VariantOutcome o) {
        return of(o).map(l -> l.sentence() + "; it limits these pulls.");
    }

    /**
     * The first profile parameter {@code limit} stands on that its profile marks calibrated or assumed: the
     * limit's own, a degraded limit's nominal one, or the first such among a tie's limits (the result rests on
     * each of them). Which parameter a kind of limit is, {@link Bottleneck#parameters()} says.
     */
    static Optional<CalibratedLimit> of(Bottleneck limit) {
        return limit.parameters().stream().map(CalibratedLimit::of).flatMap(Optional::stream).findFirst();
    }

    private static Optional<CalibratedLimit> of(ProfileParameter standsOn) {
        return standsOn.lookup().filter(x -> x.kind() != CalibrationProfile.Kind.DERIVED).map(x -> new CalibratedLimit(
                x.key(), Units.number(x.value()) + " " + x.unit(), x.kind().name().toLowerCase(Locale.ROOT),
                standsOn.profile(), org.rdmasim.hardware.ProfileParameter.shortSource(x.source())));
    }

    /**
     * A refit's calibrated stage parameters that bound its steady cycle ({@link RefitSummary#calibratedBound}), as
     * one limit: one parameter, or the two a bound's cost is made of, named together.
     */
    static Optional<CalibratedLimit> ofRefit(List<StageParameter> calibratedBound) {
        List<CalibratedLimit> found = new ArrayList<>();
        for (StageParameter p : calibratedBound) {
            found.add(new CalibratedLimit(p.key(), p.value(), p.evidence().kind().word(), "",
                    org.rdmasim.hardware.ProfileParameter.shortSource(p.evidence().source())));
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        if (found.size() == 1) {
            return Optional.of(found.get(0));
        }
        // a bound on two stage costs (IPC opens and load_weights per tensor) names both
        return Optional.of(new CalibratedLimit(String.join(" + ", found.stream().map(CalibratedLimit::parameter).toList()),
                String.join(" + ", found.stream().map(CalibratedLimit::value).toList()), "calibrated", "",
                String.join("; ", found.stream().map(CalibratedLimit::measurement).distinct().toList())));
    }
}
