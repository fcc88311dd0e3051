package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/** Dense flow numbers: reused after a flow ends, and without effect on the rates the solver gives. */
class FlowNumbersTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void numbersStayBelowTheMostFlowsRunningAtOnce() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        // 50 waves of 3 flows: one wave starts when the last one has finished.
        int[] waves = {0};
        List<Flow> wave = new ArrayList<>();
        Runnable startWave = new Runnable() {
            @Override
            public void run() {
                wave.clear();
                for (int i = 0; i < 3; i++) {
                    wave.add(net.start("w" + waves[0] + "-" + i, List.of(link), 1, INF, 100 + i, f -> {
                        if (net.activeFlows() == 0 && ++waves[0] < 50) {
                            this.run();
                        }
                    }));
                }
            }
        };
        startWave.run();
        clock.run();
        assertEquals(50, waves[0]);
        assertEquals(3, net.numbers.limit());
    }

    @Test
    void aNumberIsGivenBackOnceAndTakenOnce() {
        FlowNumbers numbers = new FlowNumbers();
        Resource r = new Resource(0, 0, Limit.named("r"), ResourceKind.NIC_TX, 1);
        Flow f = new Flow(0, "f", new Resource[] {r}, new double[] {1}, 1, INF, 1, 0);
        numbers.assign(f);
        assertThrows(IllegalStateException.class, () -> numbers.assign(f));
        numbers.release(f);
        assertEquals(-1, f.number);
        assertThrows(IllegalStateException.class, () -> numbers.release(f));
    }

    @Test
    void ratesDoNotDependOnHowFlowsAndResourcesAreNumbered() {
        double[] forward = solveChain(false);
        double[] reversed = solveChain(true);
        // Bit for bit: numbers only place scratch, they never order the filling.
        assertArrayEquals(forward, reversed);
    }

    /** A chain of 6 links of uneven capacity, 12 flows over overlapping stretches, some capped. */
    private static double[] solveChain(boolean reverseNumbers) {
        int links = 6;
        int flows = 12;
        // Resources are numbered in build order: built last to first, link i takes number links - 1 - i.
        ResourceTable table = new ResourceTable();
        table.reserve(links);
        Resource[] built = new Resource[links];
        for (int j = 0; j < links; j++) {
            int i = reverseNumbers ? links - 1 - j : j;
            built[i] = table.build(i, Limit.named("l" + i), ResourceKind.NIC_TX, 70 + 13 * i);
        }
        ArrayList<Resource> rs = new ArrayList<>(List.of(built));
        assertEquals(reverseNumbers ? links - 1 : 0, rs.get(0).number);
        ArrayList<Flow> fs = new ArrayList<>();
        for (int k = 0; k < flows; k++) {
            int from = k % links;
            int to = Math.min(links, from + 1 + k % 3);
            Resource[] path = rs.subList(from, to).toArray(new Resource[0]);
            double[] usage = new double[path.length];
            java.util.Arrays.fill(usage, 1 + (k % 2));
            Flow f = new Flow(k, "f" + k, path, usage, 1 + k % 4, k % 5 == 0 ? 9.5 + k : INF, 1000, 0);
            f.number = reverseNumbers ? flows - 1 - k : k;
            for (int i = 0; i < path.length; i++) {
                table.enter(path[i], f, i);
            }
            fs.add(f);
        }
        new MaxMinSolver(table).solve(fs, rs, new double[links]);
        double[] rates = new double[flows];
        for (int k = 0; k < flows; k++) {
            rates[k] = fs.get(k).rate;
        }
        return rates;
    }
}
