package org.rdmasim.transport.backend;

import java.util.List;
import java.util.Optional;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.citation.CitedNote;
import org.rdmasim.transport.ucx.LaneDecision;

/**
 * What {@code explain} prints about one transfer's lanes, in the backend's own terms, the lanes it chose,
 * and, for UCX, the whole decision (every candidate and lane with its verdict) and what it says of the lanes once
 * chosen ({@link PathExplanation}), the records its lines are printed from, for machine-readable output.
 */
public record LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes, LaneDecision ucxDecision,
        PathExplanation path, List<CitedNote> backendNotes) {
    public LaneExplanation {
        lines = List.copyOf(lines);
        lanes = List.copyOf(lanes);
        backendNotes = List.copyOf(backendNotes);
    }

    /** UCX's choice: the lines are printed from {@code ucxDecision} and {@code path}. */
    public LaneExplanation(List<String> lines, List<LaneSplit.Candidate> lanes, LaneDecision ucxDecision,
            PathExplanation path) {
        this(lines, lanes, ucxDecision, path, List.of());
    }

    /**
     * A backend other than UCX, which says what it chose in notes (each with the code it follows, where it cites
     * any): its lines are a blank line and the notes as printed; nothing about the lanes once chosen.
     */
    public static LaneExplanation ofNotes(List<CitedNote> notes, List<LaneSplit.Candidate> lanes) {
        List<String> lines = new java.util.ArrayList<>();
        lines.add("");
        notes.forEach(n -> lines.add(n.text()));
        return new LaneExplanation(lines, lanes, null, PathExplanation.NONE, notes);
    }

    public Optional<LaneDecision> decision() {
        return Optional.ofNullable(ucxDecision);
    }
}
