package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/** Flows due at the same instant finish in one event, after one re-solve, before any listener runs. */
class CompletionEventsTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void equalFlowsOnOneLinkFinishInOneEventAndListenersSeeTheNewRates() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        List<Flow> done = new ArrayList<>();
        double[] longRateSeen = new double[2];
        Flow[] longer = new Flow[1];
        FlowListener recordAndLook = f -> {
            longRateSeen[done.size()] = longer[0].rate();
            done.add(f);
        };
        Flow x = net.start("x", List.of(link), 1, INF, 1000, recordAndLook);
        Flow y = net.start("y", List.of(link), 1, INF, 1000, recordAndLook);
        longer[0] = net.start("long", List.of(link), 1, INF, 5000, f -> { });
        long solvesBefore = net.solves();
        clock.run();
        // Thirds of 100 B/s: x and y are done at 30 s, long then runs alone (4000 B left at 100 B/s).
        assertEquals(List.of(x, y), done);
        assertEquals(30, x.finishTime(), 1e-9);
        assertEquals(x.finishTime(), y.finishTime());
        // The two finish in one event (the third is long's), each with one re-solve after it.
        assertEquals(2, clock.eventsOf(FlowCompletion.class));
        assertEquals(2, net.solves() - solvesBefore);
        // Both listeners ran after the re-solve: long already had the whole link.
        assertEquals(100, longRateSeen[0], 1e-9);
        assertEquals(100, longRateSeen[1], 1e-9);
        assertEquals(70, longer[0].finishTime(), 1e-9);
    }

    @Test
    void flowsDueTogetherOnSeparateLinksFinishInTheirOwnEvents() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource one = net.addResource("one", ResourceKind.NIC_TX, 100);
        Resource two = net.addResource("two", ResourceKind.NIC_TX, 100);
        Flow x = net.start("x", List.of(one), 1, INF, 1000, f -> { });
        Flow y = net.start("y", List.of(two), 1, INF, 1000, f -> { });
        clock.run();
        // Same instant, but no resource in common: the batch looks only where the first flow ran.
        assertEquals(10, x.finishTime(), 1e-12);
        assertEquals(10, y.finishTime(), 1e-12);
        assertEquals(2, clock.eventsOf(FlowCompletion.class));
    }

    @Test
    void groupedMembersDueTogetherFinishInTheGroupsOneEvent() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(2).verifying(true);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        List<Flow> done = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            net.start("m" + i, List.of(link), 1, INF, 1000, done::add);
        }
        clock.run();
        assertEquals(4, done.size());
        for (Flow f : done) {
            assertEquals(40, f.finishTime(), 1e-9);
        }
        // The four formed a group at the link; its one event finished them all.
        assertEquals(1, clock.eventsOf(GroupCompletion.class));
        assertEquals(0, clock.eventsOf(FlowCompletion.class));
        assertEquals(4000, link.bytesCarried(clock.now()), 1e-6);
    }

    /**
     * Three flows at 1e11 B/s on one link, due at t = 1000 s, 5e-10 s later and 5e-9 s later. The
     * same-instant window is relative, 1e-12 of the clock (1e-9 s at t = 1000): the second finishes in
     * the first's event; the third, whose last 500 bytes then run at the whole 3e11 B/s, in its own.
     */
    private static void dueAlmostTogether(int groupMin) {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(groupMin).verifying(true);
        Resource link = net.addResource("link", ResourceKind.OTHER, 3e11);
        Flow a = net.start("a", List.of(link), 1, INF, 100_000_000_000_000L, f -> { });
        Flow b = net.start("b", List.of(link), 1, INF, 100_000_000_000_050L, f -> { });
        Flow c = net.start("c", List.of(link), 1, INF, 100_000_000_000_500L, f -> { });
        clock.run();
        assertEquals(1000.0, a.finishTime());
        assertEquals(a.finishTime(), b.finishTime(), 0.0, "within the window: finished in a's event");
        assertEquals(500 / 3e11, c.finishTime() - 1000.0, 1e-12, "outside it: an event of its own");
    }

    @Test
    void theSameInstantWindowScalesWithTheClock() {
        dueAlmostTogether(0);
    }

    @Test
    void groupMembersDueWithinTheWindowFinishInTheGroupsEvent() {
        dueAlmostTogether(2);
    }
}
