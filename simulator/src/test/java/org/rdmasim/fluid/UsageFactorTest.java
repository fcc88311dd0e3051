package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

class UsageFactorTest {
    @Test
    void aFlowThatUsesAResourceTwiceGetsHalfItsCapacity() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource memory = net.addResource("memory", ResourceKind.HOST_MEMORY, 100);
        Resource link = net.addResource("link", ResourceKind.PCIE_LINK, 1000);
        Flow staged = net.start("staged", List.of(link, memory), List.of(1.0, 2.0), 1.0, Double.POSITIVE_INFINITY, 500, f -> { });
        assertEquals(50.0, staged.rate(), 1e-12);
        Flow plain = net.start("plain", List.of(memory), 1.0, Double.POSITIVE_INFINITY, 500, f -> { });
        // Equal rates r: 2r + r = 100.
        assertEquals(100.0 / 3, staged.rate(), 1e-12);
        assertEquals(100.0 / 3, plain.rate(), 1e-12);
        assertEquals(true, net.invariantViolations().isEmpty());
        clock.run();
        assertEquals(1500.0, memory.bytesCarried(clock.now()), 1e-6);
    }
}
