package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * Which limit a flow is reported against when two bind at the same level: a resource before the flow's
 * own cap, and of two resources the one built first, whatever order the path names them in. The rates
 * are the same either way; the bottleneck a report names must not depend on chance.
 */
class SolverTiesTest {
    @Test
    void aResourceSaturatingAtTheFlowsOwnCapIsTheBottleneck() {
        FluidNetwork net = new FluidNetwork(new SimulationClock()).verifying(true);
        Resource link = net.addResource("link", ResourceKind.OTHER, 100);
        Flow a = net.start("a", List.of(link), 1, 50, 1000, x -> { });
        Flow b = net.start("b", List.of(link), 1, 50, 1000, x -> { });
        for (Flow f : List.of(a, b)) {
            assertEquals(50, f.rate(), 1e-12);
            assertSame(link, f.bottleneck);
            assertFalse(f.cappedByItself);
            assertEquals(link.limit(), f.limiter());
        }
    }

    @Test
    void ofTwoResourcesSaturatingTogetherTheOneBuiltFirstIsTheBottleneck() {
        FluidNetwork net = new FluidNetwork(new SimulationClock()).verifying(true);
        Resource first = net.addResource("first", ResourceKind.OTHER, 100);
        Resource second = net.addResource("second", ResourceKind.OTHER, 100);
        Flow forward = net.start("forward", List.of(first, second), 1, Double.POSITIVE_INFINITY, 1000, x -> { });
        assertSame(first, forward.bottleneck);
        FluidNetwork other = new FluidNetwork(new SimulationClock()).verifying(true);
        Resource one = other.addResource("one", ResourceKind.OTHER, 100);
        Resource two = other.addResource("two", ResourceKind.OTHER, 100);
        Flow backward = other.start("backward", List.of(two, one), 1, Double.POSITIVE_INFINITY, 1000, x -> { });
        assertEquals(100, backward.rate(), 1e-12);
        assertSame(one, backward.bottleneck);
    }
}
