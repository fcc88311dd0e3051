package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/** Stopping a flow and changing a capacity mid-run, against hand calculations. */
class FlowAbortAndCapacityTest {
    @Test
    void abortingOneOfTwoEqualFlowsGivesTheOtherTheWholeLink() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        List<Flow> done = new ArrayList<>();
        Flow a = net.start("a", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, done::add);
        net.start("b", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, done::add);
        double[] left = new double[1];
        clock.scheduleAt(4, () -> left[0] = net.abort(a));
        clock.run();
        // 50 B/s each until t=4 (200 B each), then b alone at 100 B/s: 800 B more, done at t=12
        assertEquals(800, left[0], 1e-9);
        assertEquals(1, done.size());
        assertEquals(12, done.get(0).finishTime(), 1e-9);
        assertTrue(a.isAborted());
        // bytes conserved: 200 by a, 1000 by b
        assertEquals(1200, link.bytesCarried(clock.now()), 1e-6);
    }

    @Test
    void halvingACapacityHalvesTheRatesFromThatInstant() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        List<Flow> done = new ArrayList<>();
        net.start("a", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, done::add);
        net.start("b", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, done::add);
        clock.scheduleAt(4, () -> net.setCapacity(link, 50));
        clock.scheduleAt(10, () -> net.setCapacity(link, 100));
        clock.run();
        // 50 B/s each to t=4 (200 B), 25 B/s to t=10 (150 B), then 50 B/s for the last 650 B: t=23
        assertEquals(2, done.size());
        for (Flow f : done) {
            assertEquals(23, f.finishTime(), 1e-9);
        }
        assertEquals(100, link.capacity());
    }

    @Test
    void abortingAGroupMemberReturnsItsUndeliveredBytesAndFreesItsShare() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(2).verifying(true);
        List<Flow> ab = FlowGroupingTest.twoMembers(net, 1500, 1000);
        Flow a = ab.get(0);
        Flow b = ab.get(1);
        assertTrue(net.groupOf(a) != null);
        double[] left = new double[1];
        clock.scheduleAt(50, () -> left[0] = net.abort(a));
        clock.run();
        // 10 B/s each in the group to t=50 (500 B each); then b alone at its own 15 B/s for 500 B.
        assertEquals(1000, left[0], 1e-9);
        assertEquals(50 + 500 / 15.0, b.finishTime(), 1e-9);
        assertEquals(500 + 1000, a.path()[0].bytesCarried(clock.now()), 1e-6);
    }

    @Test
    void stoppingAFlowElsewhereLeavesADissolvedGroupsFlowsToFinishOnTime() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(2).verifying(true);
        List<Flow> ab = FlowGroupingTest.twoMembers(net, 1500, 1000);
        Resource elsewhere = net.addResource("elsewhere", ResourceKind.OTHER, 100);
        Flow x = net.start("x", List.of(elsewhere), 1, Double.POSITIVE_INFINITY, 10_000, f -> { });
        Flow y = net.start("y", List.of(elsewhere), 1, Double.POSITIVE_INFINITY, 10_000, f -> { });
        assertTrue(net.groupOf(ab.get(0)) != null);
        // Stopping x dissolves every group (the change is solved flow by flow); a and b must still end.
        clock.scheduleAt(1, () -> net.abort(x));
        clock.scheduleAt(2, () -> net.setCapacity(elsewhere, 50));
        clock.run();
        assertEquals(100, ab.get(1).finishTime(), 1e-9);
        assertEquals(100 + 500 / 15.0, ab.get(0).finishTime(), 1e-9);
        // y: 50 B to t=1, 100 B/s to t=2, then 50 B/s for the last 9,850 B.
        assertEquals(2 + 9850 / 50.0, y.finishTime(), 1e-9);
    }
}
