package org.rdmasim.transport.backend;

import java.util.List;
import java.util.Optional;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.ucx.LaneDecision;

/**
 * What {@code explain} prints about one transfer's lanes, in the backend's own terms, the lanes it chose,
 * and, for UCX, the whole decision (every candidate and lane with its verdict) for machine-readable output.
 */
public record LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes, LaneDecision ucxDecision) {
    public LaneExplanation {
        lines = List.copyOf(lines);
        lanes = List.copyOf(lanes);
    }

    public LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes) {
        this(lines, lanes, null);
    }

    public Optional<LaneDecision> decision() {
        return Optional.ofNullable(ucxDecision);
    }
}
