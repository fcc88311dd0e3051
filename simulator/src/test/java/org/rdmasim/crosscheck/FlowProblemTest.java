package org.rdmasim.crosscheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A flow problem solved in rdmasim, against finish times worked out by hand, and its JSON for the peer. */
class FlowProblemTest {
    private static final FlowProblem.Link LINK = new FlowProblem.Link("l", 100);
    private static final FlowProblem.Link SIDE = new FlowProblem.Link("m", 30);

    /**
     * a (0 s, 100 B over l) and b (0 s, 300 B over l and m): b is held by m at 30 B/s, a takes the rest of
     * l, 70 B/s, done at 100/70 s; c (2 s, 60 B over l, capped at 10 B/s) ends at 8 s; b at 10 s.
     */
    private static FlowProblem problem() {
        return new FlowProblem(List.of(LINK, SIDE), List.of(
                new FlowProblem.FlowSpec("a", "g", 0, 100, List.of("l"), Double.POSITIVE_INFINITY),
                new FlowProblem.FlowSpec("b", "g", 0, 300, List.of("l", "m"), Double.POSITIVE_INFINITY),
                new FlowProblem.FlowSpec("c", "h", 2, 60, List.of("l"), 10)));
    }

    @Test
    void finishTimesAreTheHandCalculation() {
        for (boolean grouped : new boolean[] {false, true}) {
            FlowProblem.Solution s = problem().solveInRdmasim(grouped ? 2 : 0, true);
            assertEquals(100.0 / 70, s.finishById().get("a"), 1e-12);
            assertEquals(10.0, s.finishById().get("b"), 1e-12);
            assertEquals(8.0, s.finishById().get("c"), 1e-12);
            assertTrue(s.events() >= 3, "one completion per flow at least");
        }
        assertEquals(problem().solveInRdmasim().finishById(), problem().solveInRdmasim(0, false).finishById());
    }

    @Test
    void theJsonForThePeerNamesEveryLinkAndFlow() {
        String json = problem().toJson();
        for (String s : List.of("\"l\"", "\"m\"", "\"a\"", "\"b\"", "\"c\"")) {
            assertTrue(json.contains(s), s + " in " + json);
        }
        assertTrue(json.contains("100") && json.contains("300") && json.contains("60"), json);
    }

    @Test
    void badProblemsAreRefused() {
        FlowProblem.Link l = new FlowProblem.Link("l", 100);
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem.Link("l", 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem.FlowSpec("f", "g", -1, 10, List.of("l"), 1));
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem.FlowSpec("f", "g", 0, -1, List.of("l"), 1));
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem.FlowSpec("f", "g", 0, 10, List.of("l"), 0));
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem.FlowSpec("f", "g", 0, 10, List.of("l", "l"), 1));
        FlowProblem.FlowSpec f = new FlowProblem.FlowSpec("f", "g", 0, 10, List.of("m"), Double.POSITIVE_INFINITY);
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem(List.of(l), List.of(f)));
        assertThrows(IllegalArgumentException.class, () -> new FlowProblem(List.of(l, l), List.of()));
    }
}
