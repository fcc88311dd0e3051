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

/** Invariants of the fluid model over random topologies, flow sets and arrival times. */
class FluidNetworkProperties {

    @Property(tries = 300)
    void invariantsHoldAtEveryEventAndBytesAreConserved(@ForAll @LongRange(min = 1, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 1, max = 12) int resourceCount,
            @ForAll @IntRange(min = 1, max = 40) int flowCount) {
        Random rnd = new Random(seed);
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        List<Resource> resources = new ArrayList<>();
        for (int i = 0; i < resourceCount; i++) {
            resources.add(net.addResource("r" + i, ResourceKind.OTHER, 1 + rnd.nextInt(1000)));
        }
        List<String> violations = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        List<List<Resource>> paths = new ArrayList<>();
        long[] sizes = new long[flowCount];
        for (int i = 0; i < flowCount; i++) {
            int len = 1 + rnd.nextInt(Math.min(4, resourceCount));
            List<Resource> path = new ArrayList<>();
            while (path.size() < len) {
                Resource r = resources.get(rnd.nextInt(resourceCount));
                if (!path.contains(r)) {
                    path.add(r);
                }
            }
            double cap = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(300) : Double.POSITIVE_INFINITY;
            double weight = 1 + rnd.nextInt(3);
            long bytes = 1 + rnd.nextInt(100_000);
            sizes[i] = bytes;
            paths.add(path);
            double at = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * 50;
            clock.schedule(at, () -> {
                flows.add(net.start("f", path, weight, cap, bytes, f -> violations.addAll(net.invariantViolations())));
                violations.addAll(net.invariantViolations());
            });
        }
        clock.run();
        assertTrue(violations.isEmpty(), () -> String.join("\n", violations));
        assertEquals(flowCount, flows.size());
        for (Flow f : flows) {
            assertTrue(f.isFinished(), "every flow finishes");
            assertTrue(f.finishTime() >= f.startTime());
            // A flow can never beat its size over its best case rate.
            double best = f.rateCap();
            for (Resource r : f.path()) {
                best = Math.min(best, r.capacity());
            }
            assertTrue(f.finishTime() - f.startTime() >= f.bytes() / best * (1 - 1e-9));
        }
        // Byte conservation: each resource carried exactly the bytes of the flows that crossed it.
        for (Resource r : resources) {
            double expected = 0;
            for (Flow f : flows) {
                for (Resource q : f.path()) {
                    if (q == r) {
                        expected += f.bytes();
                    }
                }
            }
            assertEquals(expected, r.bytesCarried(clock.now()), 1e-6 * Math.max(1, expected), r.name());
            assertEquals(0, r.activeFlows());
        }
    }
}
