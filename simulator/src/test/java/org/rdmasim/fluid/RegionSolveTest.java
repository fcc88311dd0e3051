package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * Which flows an event re-solves, on a chain of two links A and B (100 B/s each): a flow crossing
 * both, and a flow on B alone. The region is counted with the network's public work counters
 * ({@link FluidNetwork#solves()}, {@link FluidNetwork#flowsSolved()}); rates are worked by hand, and
 * every event is checked against a solve from scratch (verifying mode).
 */
class RegionSolveTest {
    private static final double INF = Double.POSITIVE_INFINITY;
    private static final long BIG = 1_000_000;

    private final SimulationClock clock = new SimulationClock();
    private final FluidNetwork net = new FluidNetwork(clock).verifying(true);
    private final Resource a = net.addResource("A", ResourceKind.NIC_TX, 100);
    private final Resource b = net.addResource("B", ResourceKind.NIC_RX, 100);

    private Flow start(String label, List<Resource> path, double cap) {
        return net.start(label, path, 1, cap, BIG, f -> { });
    }

    /** Component solves and flows solved by {@code event}: how many rounds, and the region's size. */
    private long[] workOf(Runnable event) {
        long solves = net.solves();
        long flows = net.flowsSolved();
        event.run();
        return new long[] {net.solves() - solves, net.flowsSolved() - flows};
    }

    @Test
    void aNewcomerOnAReachesTheFlowOnBThroughASaturatedB() {
        Flow chain = start("chain", List.of(a, b), 30);
        Flow side = start("side", List.of(b), INF);
        // B is full (30 + 70): a faster chain flow could take from side, so side is in the region.
        Flow[] newcomer = new Flow[1];
        assertArrayEquals(new long[] {1, 3}, workOf(() -> newcomer[0] = start("newcomer", List.of(a), INF)));
        assertEquals(30, chain.rate(), 1e-9);
        assertEquals(70, side.rate(), 1e-9);
        assertEquals(70, newcomer[0].rate(), 1e-9);
    }

    @Test
    void aNewcomerOnALeavesTheFlowOnAnUnsaturatedBAlone() {
        Flow chain = start("chain", List.of(a, b), 30);
        Flow side = start("side", List.of(b), 20);
        // B carries 50 of 100 and binds nobody: only the flows on A are solved again.
        Flow[] newcomer = new Flow[1];
        assertArrayEquals(new long[] {1, 2}, workOf(() -> newcomer[0] = start("newcomer", List.of(a), INF)));
        assertEquals(30, chain.rate(), 1e-9);
        assertEquals(20, side.rate(), 1e-9);
        assertEquals(70, newcomer[0].rate(), 1e-9);
        assertEquals(50, b.load(), 1e-9);
    }

    @Test
    void theRegionGrowsWhenNewRatesFillAResourceOutsideIt() {
        Flow chain = start("chain", List.of(a, b), INF);
        Flow other = start("other", List.of(a), INF);
        Flow side = start("side", List.of(b), 40);
        assertEquals(50, chain.rate(), 1e-9);
        // With other gone, chain (bound at A, not B) rises to 60 and fills B, where side also runs:
        // a second round solves chain and side together.
        assertArrayEquals(new long[] {2, 1 + 2}, workOf(() -> net.abort(other)));
        assertEquals(60, chain.rate(), 1e-9);
        assertEquals(40, side.rate(), 1e-9);
        assertEquals(100, b.load(), 1e-9);
        assertEquals(60, a.load(), 1e-9);
    }
}
