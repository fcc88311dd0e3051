package org.rdmasim.workload;

import java.util.List;
import java.util.Map;

/**
 * What a refit variant produced, in plain values for the report: per cycle the time by stage, the bytes on
 * the wire against the minimum the layouts require, and what bounded it; what the answer rests on; and the
 * modelled effect of the changes most likely to shorten it.
 *
 * @param plan     one line per fact of the plan (model, layouts, routes, descriptors, method), as {@code explain}
 *                 prints it
 * @param restsOn  the named stage and registration parameters, each with its value and evidence
 * @param changes  the same variant rerun with one change each, fastest first
 */
public record RefitSummary(String method, String model, long minimumBytes, int trainerRanks, int inferenceRanks,
        long routes, long descriptors, List<Cycle> cycles, List<StageParameter> restsOn, List<String> plan, List<Change> changes,
        boolean conserved) {
    public RefitSummary {
        cycles = List.copyOf(cycles);
        restsOn = List.copyOf(restsOn);
        plan = List.copyOf(plan);
        changes = List.copyOf(changes);
    }

    /** One cycle: seconds per stage (stages that overlap each count), bytes on the wire, the bound. */
    public record Cycle(int index, double seconds, Map<String, Double> stageSeconds, long wireBytes, CycleBound bound) {
        public Cycle {
            stageSeconds = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stageSeconds));
        }

        /** The bound's limit id. */
        public String boundBy() {
            return bound.limit();
        }

        /** The bound in words. */
        public String boundWords() {
            return bound.words();
        }
    }

    /**
     * A change and the refit time it gives (first cycle and steady cycle), or why it does not apply.
     *
     * @param parameter the stage parameter the change takes away (the rerun without a calibrated stage cost that
     *                  bounds the steady cycle), or empty for a change of the deployment
     */
    public record Change(String change, double firstCycleSeconds, double steadyCycleSeconds, String note,
            String parameter) {
        /** A change of the deployment: no stage parameter taken away. */
        public Change(String change, double firstCycleSeconds, double steadyCycleSeconds, String note) {
            this(change, firstCycleSeconds, steadyCycleSeconds, note, "");
        }
    }

    /**
     * The calibrated stage parameters the steady cycle's bound is a cost of, in the order the answer rests on
     * them: what the answer hangs on most, as a figure measured elsewhere (another engine, another model). Empty
     * when a bandwidth, or an assumed or derived cost, bounds it.
     */
    public List<StageParameter> calibratedBound() {
        if (cycles.isEmpty()) {
            return List.of();
        }
        List<String> bounding = cycles.get(cycles.size() - 1).bound().parameters();
        return restsOn.stream().filter(p -> p.evidence().calibrated() && bounding.contains(p.key())).toList();
    }

    /**
     * The calibrated or assumed profile parameters the steady cycle's bound is (a NIC's fitted READ rate holding the
     * wire), each with its profile's entry; empty when a mechanism, or a stage cost, bounds it.
     */
    public List<org.rdmasim.hardware.ProfileParameter> profileBound() {
        if (cycles.isEmpty()) {
            return List.of();
        }
        return cycles.get(cycles.size() - 1).bound().profileParameters().stream()
                .filter(p -> p.lookup().map(x -> x.kind() != org.rdmasim.hardware.CalibrationProfile.Kind.DERIVED)
                        .orElse(false)).toList();
    }

    public double firstCycleSeconds() {
        return cycles.get(0).seconds();
    }

    public double steadyCycleSeconds() {
        return cycles.get(cycles.size() - 1).seconds();
    }

    /** The refit's wall time: every cycle, back to back (each starts when the one before it resumes). */
    public double wallSeconds() {
        double sum = 0;
        for (Cycle c : cycles) {
            sum += c.seconds();
        }
        return sum;
    }

    /** Bytes delivered into receiving GPUs over the wire, every cycle. */
    public long wireBytes() {
        long sum = 0;
        for (Cycle c : cycles) {
            sum += c.wireBytes();
        }
        return sum;
    }

    public RefitSummary withChanges(List<Change> newChanges) {
        return new RefitSummary(method, model, minimumBytes, trainerRanks, inferenceRanks, routes, descriptors, cycles,
                restsOn, plan, newChanges, conserved);
    }
}
