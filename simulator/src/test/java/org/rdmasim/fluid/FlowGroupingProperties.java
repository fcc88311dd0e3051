package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.rdmasim.engine.SimulationClock;

/**
 * Grouped flows (FluidNetwork#grouping) against flow-by-flow solving on random networks crowded enough
 * that groups form, dissolve and re-form: in verifying mode every event re-solves all flows from
 * scratch and checks the max-min invariants; bytes are conserved; finish times agree with the
 * ungrouped run to rounding.
 */
class FlowGroupingProperties {
    private record Run(double[] finish, double[] carried, long fallbacks) {
    }

    /**
     * With {@code tieProne}, capacities and caps come from a few powers of two, so resources fill at the same
     * level as often as not (a leaf's uplink as wide as the NICs behind it): where the groups' checks are
     * decided by ties.
     */
    private static Run run(long seed, int resourceCount, int flowCount, int groupMin, boolean tieProne) {
        Random rnd = new Random(seed);
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(groupMin).verifying(groupMin > 0);
        List<Resource> resources = new ArrayList<>();
        for (int i = 0; i < resourceCount; i++) {
            resources.add(net.addResource("r" + i, ResourceKind.OTHER, tieProne ? 100 << rnd.nextInt(3) : 1 + rnd.nextInt(1000)));
        }
        // Half the flows get a resource of their own, as a receiver's NIC and PCIe links are, so members
        // have private resources (and thresholds) and some of them bind; later flows sometimes cross one.
        double[] finish = new double[flowCount];
        List<Resource> owns = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        for (int i = 0; i < flowCount; i++) {
            int len = 1 + rnd.nextInt(Math.min(3, resourceCount));
            List<Resource> path = new ArrayList<>();
            while (path.size() < len) {
                Resource r = resources.get(rnd.nextInt(resourceCount));
                if (!path.contains(r)) {
                    path.add(r);
                }
            }
            List<Double> usage = new ArrayList<>();
            for (int k = 0; k < path.size(); k++) {
                usage.add(rnd.nextInt(5) == 0 ? 2.0 : 1.0);
            }
            if (rnd.nextBoolean()) {
                Resource own = net.addResource("own" + i, ResourceKind.OTHER, tieProne ? 50 << rnd.nextInt(3) : 5 + rnd.nextInt(200));
                owns.add(own);
                path.add(own);
                usage.add(1.0);
            } else if (!owns.isEmpty() && rnd.nextInt(3) == 0) {
                // Another flow's private resource: arriving there takes that flow out of its group.
                path.add(owns.get(rnd.nextInt(owns.size())));
                usage.add(1.0);
            }
            double cap = rnd.nextInt(4) == 0 ? (tieProne ? 25 << rnd.nextInt(3) : 1 + rnd.nextInt(300)) : Double.POSITIVE_INFINITY;
            double weight = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(3) : 1;
            long bytes = 1 + rnd.nextInt(100_000);
            double at = rnd.nextInt(4) == 0 ? 0 : rnd.nextDouble() * 200;
            int index = i;
            clock.schedule(at, () -> flows.add(net.start("f" + index, path, usage, weight, cap, bytes,
                    f -> finish[index] = f.finishTime())));
        }
        clock.run();
        assertEquals(flowCount, flows.size());
        double[] carried = new double[net.resources().size()];
        for (Resource r : net.resources()) {
            carried[r.index()] = r.bytesCarried(clock.now());
            assertEquals(0, r.activeFlows(), r.name());
        }
        // Byte conservation per resource.
        double[] expected = new double[carried.length];
        for (Flow f : flows) {
            assertTrue(f.isFinished());
            for (Resource q : f.path()) {
                expected[q.index()] += f.bytes() * f.usageOf(q);
            }
        }
        for (int i = 0; i < carried.length; i++) {
            assertEquals(expected[i], carried[i], 1e-6 * Math.max(1, expected[i]), "bytes through resource " + i);
        }
        return new Run(finish, carried, net.groupFallbacks());
    }

    @Property(tries = 300)
    void groupedRunMatchesFlowByFlow(@ForAll @LongRange(min = 1, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 6) int resourceCount,
            @ForAll @IntRange(min = 2, max = 60) int flowCount) {
        sameAsFlowByFlow(seed, resourceCount, flowCount, false);
    }

    @Property(tries = 300)
    void groupedRunMatchesFlowByFlowWhereResourcesTie(@ForAll @LongRange(min = 1, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 6) int resourceCount,
            @ForAll @IntRange(min = 2, max = 60) int flowCount) {
        sameAsFlowByFlow(seed, resourceCount, flowCount, true);
    }

    private static void sameAsFlowByFlow(long seed, int resourceCount, int flowCount, boolean tieProne) {
        Run plain = run(seed, resourceCount, flowCount, 0, tieProne);
        Run grouped = run(seed, resourceCount, flowCount, 2, tieProne);
        for (int i = 0; i < flowCount; i++) {
            double a = plain.finish()[i];
            double b = grouped.finish()[i];
            assertEquals(a, b, 1e-9 * Math.max(1, Math.abs(a)), "finish time of flow " + i);
        }
        for (int i = 0; i < plain.carried().length; i++) {
            assertEquals(plain.carried()[i], grouped.carried()[i], 1e-9 * Math.max(1, plain.carried()[i]));
        }
    }
}
