package org.rdmasim.transport.backend;

import java.util.List;
import org.rdmasim.transport.LaneSplit;

/**
 * What {@code explain} prints about one transfer's lanes, in the backend's own terms, and the lanes
 * it chose.
 */
public record LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes) {
    public LaneExplanation {
        lines = List.copyOf(lines);
        lanes = List.copyOf(lanes);
    }
}
