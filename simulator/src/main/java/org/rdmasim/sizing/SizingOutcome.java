package org.rdmasim.sizing;

import java.util.List;
import java.util.OptionalInt;

/**
 * A search as it is written: its points in knob order, its answer so far and the rises it saw.
 *
 * @param search the search itself, for its bound, its kind and how many points it may take
 */
public record SizingOutcome(boolean complete, List<SimulatedPoint> points, OptionalInt answer, List<String> violations,
        SizingSearch search) {
    /** The point at a search position (one that was simulated). */
    SimulatedPoint at(int position) {
        return points.stream().filter(r -> r.value() == position).findFirst().orElseThrow();
    }

    /** The smallest position that met the target among the points simulated. */
    OptionalInt smallestMet() {
        return points.stream().filter(SimulatedPoint::meets).mapToInt(SimulatedPoint::value).min();
    }
}
