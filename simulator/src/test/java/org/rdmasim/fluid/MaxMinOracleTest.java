package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * The checking oracle behind {@code run --check} catches what it is there to catch: a rate that is not
 * the one a solve from scratch gives, a resource over capacity, a recorded load that its flows do not
 * carry, a flow held below its fair share, and a flow running with no completion event.
 */
class MaxMinOracleTest {
    private final SimulationClock clock = new SimulationClock();
    private final FluidNetwork net = new FluidNetwork(clock);
    private final Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
    private final Flow a = net.start("a", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, f -> { });
    private final Flow b = net.start("b", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, f -> { });

    @Test
    void aFairStateHasNoViolation() {
        MaxMinOracle oracle = net.oracle();
        assertEquals(List.of(), oracle.scratchMismatches());
        assertEquals(List.of(), oracle.invariantViolations());
    }

    @Test
    void aRateAboveItsShareIsCaughtAsMismatchAndOverload() {
        a.rate = 70; // 70 + 50 on a link of 100
        MaxMinOracle oracle = net.oracle();
        assertTrue(oracle.scratchMismatches().stream().anyMatch(m -> m.startsWith("flow a ") && m.contains("70")),
                oracle.scratchMismatches().toString());
        List<String> v = oracle.invariantViolations();
        assertTrue(v.stream().anyMatch(m -> m.contains("over capacity")), v.toString());
        assertTrue(v.stream().anyMatch(m -> m.contains("records load")), v.toString());
    }

    @Test
    void aFlowHeldBelowItsShareIsCaught() {
        a.rate = 20;
        b.rate = 80;
        List<String> v = net.oracle().invariantViolations();
        assertTrue(v.stream().anyMatch(m -> m.contains("flow a")), v.toString());
    }

    @Test
    void aRunningFlowWithoutACompletionEventIsCaught() {
        a.completion.cancel();
        List<String> v = net.oracle().invariantViolations();
        assertTrue(v.stream().anyMatch(m -> m.equals("flow a runs at 50.0 B/s with no completion event")), v.toString());
    }
}
