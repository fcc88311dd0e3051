package org.rdmasim.transport.backend;

import java.util.List;
import java.util.Optional;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.ucx.LaneDecision;

/**
 * What {@code explain} prints about one transfer's lanes, in the backend's own terms, the lanes it chose,
 * and, for UCX, the whole decision (every candidate and lane with its verdict) and what it says of the lanes once
 * chosen ({@link PathExplanation}), the records its lines are printed from, for machine-readable output.
 */
public record LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes, LaneDecision ucxDecision,
        PathExplanation path) {
    public LaneExplanation {
        lines = List.copyOf(lines);
        lanes = List.copyOf(lanes);
    }

    /** A backend whose lines are all it says: no UCX decision, nothing about the lanes once chosen. */
    public LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes) {
        this(lines, lanes, null, PathExplanation.NONE);
    }

    public Optional<LaneDecision> decision() {
        return Optional.ofNullable(ucxDecision);
    }
}
