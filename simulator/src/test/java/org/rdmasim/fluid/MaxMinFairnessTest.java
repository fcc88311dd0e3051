package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

class MaxMinFairnessTest {
    private static final double INF = Double.POSITIVE_INFINITY;
    private final SimulationClock clock = new SimulationClock();
    private final FluidNetwork net = new FluidNetwork(clock);
    private final List<Flow> finished = new ArrayList<>();

    private Flow flow(String name, double cap, long bytes, Resource... path) {
        return net.start(name, List.of(path), 1.0, cap, bytes, finished::add);
    }

    @Test
    void nEqualFlowsOnOneResourceEachGetCapacityOverN() {
        Resource link = net.addResource("link", ResourceKind.OTHER, 100.0);
        List<Flow> flows = new ArrayList<>();
        for (int n = 1; n <= 7; n++) {
            flows.add(flow("f" + n, INF, 1_000_000, link));
            for (Flow f : flows) {
                assertEquals(100.0 / n, f.rate(), 1e-9, "flow rate with " + n + " flows");
            }
        }
        assertTrue(net.invariantViolations().isEmpty());
    }

    @Test
    void textbookTwoBottlenecks() {
        // Bertsekas & Gallager style: A (10) shared by f1 and f2, B (30) shared by f2 and f3.
        // A saturates first at 5 each; f3 then takes what f2 leaves on B: 25.
        Resource a = net.addResource("A", ResourceKind.OTHER, 10.0);
        Resource b = net.addResource("B", ResourceKind.OTHER, 30.0);
        Flow f1 = flow("f1", INF, 1000, a);
        Flow f2 = flow("f2", INF, 1000, a, b);
        Flow f3 = flow("f3", INF, 1000, b);
        assertEquals(5.0, f1.rate(), 1e-12);
        assertEquals(5.0, f2.rate(), 1e-12);
        assertEquals(25.0, f3.rate(), 1e-12);
        assertSame(a.limit(), f2.limiter());
        assertSame(b.limit(), f3.limiter());
        assertEquals("A", f2.limiter().id());
    }

    @Test
    void parkingLotGivesLongFlowTheSmallestShare() {
        // Three links of capacity 1 in a row; one long flow over all, one short flow per link:
        // every link is shared by two flows, so everyone gets 1/2.
        Resource l1 = net.addResource("l1", ResourceKind.OTHER, 1.0);
        Resource l2 = net.addResource("l2", ResourceKind.OTHER, 1.0);
        Resource l3 = net.addResource("l3", ResourceKind.OTHER, 1.0);
        Flow longFlow = flow("long", INF, 100, l1, l2, l3);
        Flow s1 = flow("s1", INF, 100, l1);
        Flow s2 = flow("s2", INF, 100, l2);
        Flow s3 = flow("s3", INF, 100, l3, l2);
        // l2 carries long, s2 and s3: 1/3 each; then l1 and l3 give the rest to s1 and... s3 is on l2.
        assertEquals(1.0 / 3, longFlow.rate(), 1e-12);
        assertEquals(1.0 / 3, s2.rate(), 1e-12);
        assertEquals(1.0 / 3, s3.rate(), 1e-12);
        assertEquals(2.0 / 3, s1.rate(), 1e-12);
    }

    @Test
    void flowCappedBelowFairShareFreesTheRestForOthers() {
        Resource link = net.addResource("link", ResourceKind.OTHER, 90.0);
        Flow capped = flow("capped", 10.0, 1000, link);
        Flow a = flow("a", INF, 1000, link);
        Flow b = flow("b", INF, 1000, link);
        assertEquals(10.0, capped.rate(), 1e-12);
        assertEquals(40.0, a.rate(), 1e-12);
        assertEquals(40.0, b.rate(), 1e-12);
        assertSame(Limit.OWN_CAP, capped.limiter());
        assertEquals("flow-cap", capped.limiter().id());
    }

    @Test
    void weightsSplitAResourceProportionally() {
        Resource link = net.addResource("link", ResourceKind.OTHER, 90.0);
        Flow heavy = net.start("heavy", List.of(link), 2.0, INF, 1000, finished::add);
        Flow light = net.start("light", List.of(link), 1.0, INF, 1000, finished::add);
        assertEquals(60.0, heavy.rate(), 1e-12);
        assertEquals(30.0, light.rate(), 1e-12);
    }

    @Test
    void completionFreesCapacityAndTimesAreAnalytic() {
        // Two flows of 100 and 200 bytes on 10 B/s: both at 5 until the first ends at t=20,
        // the second then has 100 left at 10 B/s and ends at t=30.
        Resource link = net.addResource("link", ResourceKind.OTHER, 10.0);
        Flow small = flow("small", INF, 100, link);
        Flow big = flow("big", INF, 200, link);
        clock.run();
        assertEquals(20.0, small.finishTime(), 1e-9);
        assertEquals(30.0, big.finishTime(), 1e-9);
        assertEquals(300.0, link.bytesCarried(clock.now()), 1e-6);
        assertEquals(List.of(small, big), finished);
    }

    @Test
    void simultaneousCompletionsAreOneEvent() {
        Resource link = net.addResource("link", ResourceKind.OTHER, 10.0);
        for (int i = 0; i < 5; i++) {
            flow("f" + i, INF, 100, link);
        }
        clock.run();
        assertEquals(5, finished.size());
        assertEquals(1, clock.eventsFired(), "five equal flows must finish in a single event");
        for (Flow f : finished) {
            assertEquals(50.0, f.finishTime(), 1e-9);
        }
    }

    @Test
    void zeroByteFlowFinishesImmediately() {
        Resource link = net.addResource("link", ResourceKind.OTHER, 10.0);
        Flow f = flow("empty", INF, 0, link);
        assertTrue(f.isFinished());
        assertEquals(0.0, f.finishTime());
        assertEquals(0, link.activeFlows());
    }

    @Test
    void rejectsNonPositiveCapacity() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> net.addResource("bad", ResourceKind.OTHER, -1.0));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> net.addResource("bad", ResourceKind.OTHER, 0.0));
    }
}
