package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * Flows started inside {@link FluidNetwork#together} are re-solved once, after the burst, and run at the
 * rates and finish at the times they would have started one by one.
 */
class StartTogetherTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    /** Four senders, each to every one of three receivers, over tx and rx links of 100 B/s. */
    private static List<Double> finishTimes(boolean together, long[] solves) {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        List<Resource> tx = new ArrayList<>();
        List<Resource> rx = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            tx.add(net.addResource("tx" + i, ResourceKind.NIC_TX, 100));
        }
        for (int j = 0; j < 3; j++) {
            rx.add(net.addResource("rx" + j, ResourceKind.NIC_RX, 100));
        }
        List<Flow> flows = new ArrayList<>();
        Runnable burst = () -> {
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 3; j++) {
                    flows.add(net.start("s" + i + "-r" + j, List.of(tx.get(i), rx.get(j)), 1, INF,
                            100L * (1 + i + 2 * j), f -> { }));
                }
            }
        };
        long before = net.solves();
        if (together) {
            net.together(burst);
        } else {
            burst.run();
        }
        solves[0] = net.solves() - before;
        clock.run();
        return flows.stream().map(Flow::finishTime).toList();
    }

    @Test
    void aBurstIsSolvedOnceAndFinishesAsFlowsStartedOneByOne() {
        long[] oneByOne = new long[1];
        long[] burst = new long[1];
        List<Double> expected = finishTimes(false, oneByOne);
        List<Double> actual = finishTimes(true, burst);
        assertEquals(12, oneByOne[0]);
        assertEquals(1, burst[0]);
        for (int k = 0; k < expected.size(); k++) {
            assertEquals(expected.get(k), actual.get(k), 1e-9 * expected.get(k), "flow " + k);
        }
        // Each receiver link carries four flows at 25 B/s at first: the smallest (100 B) is done at 4 s.
        assertEquals(4.0, actual.get(0), 1e-9);
    }

    @Test
    void aBurstThatThrowsStillSolvesTheFlowsItStarted() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        Flow[] inBurst = new Flow[1];
        assertThrows(IllegalStateException.class, () -> net.together(() -> {
            inBurst[0] = net.start("in-burst", List.of(link), 1, INF, 1000, x -> { });
            throw new IllegalStateException("refused");
        }));
        // the flow started before the throw has its rate, and the next start is solved at once, not held back
        assertEquals(100.0, inBurst[0].rate(), 1e-12);
        Flow after = net.start("after", List.of(link), 1, INF, 1000, x -> { });
        assertEquals(50.0, after.rate(), 1e-12);
        clock.run();
        assertEquals(20.0, inBurst[0].finishTime(), 1e-9);
        assertEquals(20.0, after.finishTime(), 1e-9);
    }
}
