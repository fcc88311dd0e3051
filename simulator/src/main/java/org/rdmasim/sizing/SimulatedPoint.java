package org.rdmasim.sizing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One point of the search; NaN figures and an error when the variant failed. For a fan-out {@code p99},
 * {@code mean} and {@code makespan} are pull-time figures; for a refit {@code p99} is the time of the cycle
 * the target is on, {@code mean} the first cycle's and {@code makespan} the steady (last) cycle's.
 *
 * @param value    the knob's value (a refit's: its position on the knob's ladder, from 1)
 * @param finishes the first cycle's receiver finish times, sorted (null when the variant failed, and for a refit)
 * @param boundBy  a refit's bound in the cycle the target is on; empty for a fan-out
 * @param calibrated the calibrated (or assumed) number that limits the point, in the words of
 *                   {@link org.rdmasim.report.CalibratedLimit#sentence()}; empty when none does
 * @param lanes    the NICs that carry the point's data and those UCX dropped; {@link NicLanes#NONE} when UCX's
 *                 lane selection did not choose them
 */
public record SimulatedPoint(int value, double p99, double mean, double makespan, boolean meets, String error,
        double[] finishes, String boundBy, String calibrated, NicLanes lanes) {
    public SimulatedPoint {
        java.util.Objects.requireNonNull(lanes, "lanes");
    }

    public SimulatedPoint(int value, double p99, double mean, double makespan, boolean meets, String error,
            double[] finishes) {
        this(value, p99, mean, makespan, meets, error, finishes, "", "", NicLanes.NONE);
    }

    public SimulatedPoint(int value, double p99, double mean, double makespan, boolean meets, String error,
            double[] finishes, String boundBy) {
        this(value, p99, mean, makespan, meets, error, finishes, boundBy, "", NicLanes.NONE);
    }

    public static SimulatedPoint failed(int value, String error) {
        return new SimulatedPoint(value, Double.NaN, Double.NaN, Double.NaN, false, error, null, "", "", NicLanes.NONE);
    }

    /** Caption lines for a chart of {@code points}: each calibrated number and the knob values it limits. */
    static List<String> calibratedCaptions(List<SimulatedPoint> points, String knob, IntFunction<String> shown) {
        Map<String, List<String>> at = new LinkedHashMap<>();
        for (SimulatedPoint r : points) {
            if (!r.calibrated().isEmpty()) {
                at.computeIfAbsent(r.calibrated(), k -> new ArrayList<>()).add(shown.apply(r.value()));
            }
        }
        List<String> out = new ArrayList<>();
        at.forEach((sentence, values) -> out.add(sentence + "; it limits the point(s) at " + knob + " = "
                + String.join(", ", values) + "."));
        return out;
    }

    public boolean ok() {
        return error.isEmpty();
    }

    /**
     * The point's sizing.json fields after its value: its status, then its figures under the target's names
     * ({@code p99}, {@code mean}, {@code makespan} in that order), a refit's bound when {@code withBound}, and
     * whether it meets the target; for a failed point, that it does not and its error.
     */
    void putResult(ObjectNode n, List<String> figures, boolean withBound) {
        n.put("status", ok() ? "ok" : "failed");
        if (ok()) {
            n.put(figures.get(0), p99);
            n.put(figures.get(1), mean);
            n.put(figures.get(2), makespan);
            if (withBound) {
                n.put("boundBy", boundBy);
            }
            n.put("meetsTarget", meets);
            lanes.putTo(n);
        } else {
            n.put("meetsTarget", false);
            n.put("error", error);
        }
    }

    /**
     * Which way a knob that is not assumed monotone helps, from where the lowest figure lies among the points run
     * ({@code best} names what is lowest there, e.g. "the refit is fastest").
     */
    static String direction(List<SimulatedPoint> all, String label, IntFunction<String> shown,
            String best) {
        List<SimulatedPoint> ok = all.stream().filter(SimulatedPoint::ok).toList();
        if (ok.isEmpty()) {
            return "direction: no point ran";
        }
        SimulatedPoint min = ok.stream().min(java.util.Comparator.comparingDouble(SimulatedPoint::p99)
                .thenComparingInt(SimulatedPoint::value)).orElseThrow();
        String at = shown.apply(min.value());
        if (min == ok.get(0)) {
            return "direction: smaller " + label + "s help: the fastest is the smallest tried, " + at;
        }
        if (min == ok.get(ok.size() - 1)) {
            return "direction: larger " + label + "s help: the fastest is the largest tried, " + at;
        }
        return "direction: neither throughout: " + best + " at " + at + ", slower on both sides";
    }
}
