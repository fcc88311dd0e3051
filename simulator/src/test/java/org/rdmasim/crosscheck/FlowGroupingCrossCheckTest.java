package org.rdmasim.crosscheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;

/**
 * Flow grouping against the flow-by-flow solve on rail-optimised fan-outs posed as flow problems: the
 * same finish times, far fewer flows solved when backlogs grow, groups that form and dissolve.
 */
class FlowGroupingCrossCheckTest {
    private static FlowProblem fanout(int receivers, double load, RailFanout.Sizes sizes) {
        RailFanout probe = new RailFanout(RailFanout.fourRailHost(), 8, receivers, 4, 2_000_000_000L,
                RailFanout.Arrival.ALL_AT_ONCE, 0, sizes, FabricSpec.nonBlocking(), true, 7);
        double gap = probe.soloPullSeconds() / (8 * load);
        return new RailFanout(probe.host(), 8, receivers, 4, probe.modelBytes(), RailFanout.Arrival.POISSON, gap, sizes,
                FabricSpec.nonBlocking(), true, 7).build();
    }

    private static void sameFinishTimes(FlowProblem.Solution a, FlowProblem.Solution b) {
        assertEquals(a.finishById().keySet(), b.finishById().keySet());
        for (Map.Entry<String, Double> e : a.finishById().entrySet()) {
            double x = e.getValue();
            double y = b.finishById().get(e.getKey());
            assertEquals(x, y, 1e-9 * Math.max(1, x), e.getKey());
        }
    }

    @Test
    void overloadedFanoutGroupedMatchesFlowByFlowAndSolvesFarFewerFlows() {
        // Arrivals 1.3x faster than the sources serve: the backlog on each source NIC grows to dozens.
        FlowProblem p = fanout(400, 1.3, RailFanout.Sizes.EQUAL);
        FlowProblem.Solution plain = p.solveInRdmasim(0, false);
        FlowProblem.Solution grouped = p.solveInRdmasim(2, true);
        sameFinishTimes(plain, grouped);
        assertTrue(grouped.flowsSolved() * 5 < plain.flowsSolved(),
                "grouped solves " + grouped.flowsSolved() + " flows, flow by flow " + plain.flowsSolved());
    }

    @Test
    void normalLoadUnequalSizesGroupsFormAndDissolve() {
        // At load 1 backlogs rise and drain to one flow, where the READ cap binds and groups dissolve.
        FlowProblem p = fanout(300, 1.0, RailFanout.Sizes.UNEQUAL);
        sameFinishTimes(p.solveInRdmasim(0, false), p.solveInRdmasim(2, true));
    }

    @Test
    void aMemberDueTheSameInstantAsAnotherFlowFinishesInItsEvent() {
        // All at once and equal: every lane on a NIC finishes at one instant, in one event.
        RailFanout f = new RailFanout(RailFanout.fourRailHost(), 2, 40, 4, 2_000_000_000L,
                RailFanout.Arrival.ALL_AT_ONCE, 0, RailFanout.Sizes.EQUAL, FabricSpec.nonBlocking(), false, 1);
        FlowProblem p = f.build();
        FlowProblem.Solution plain = p.solveInRdmasim(0, false);
        FlowProblem.Solution grouped = p.solveInRdmasim(2, true);
        sameFinishTimes(plain, grouped);
        assertEquals(plain.events(), grouped.events());
    }

}
