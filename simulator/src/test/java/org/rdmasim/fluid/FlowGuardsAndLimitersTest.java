package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/** The network's and the problem's guards, zero-byte flows, and the bytes each limiter held back. */
class FlowGuardsAndLimitersTest {
    @Test
    void aZeroByteFlowReportsItsCompletionAtOnce() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        List<Flow> done = new ArrayList<>();
        Flow f = net.start("empty", List.of(link), 1, Double.POSITIVE_INFINITY, 0, done::add);
        assertEquals(List.of(f), done);
        assertEquals(0.0, f.finishTime());
        assertEquals(0, net.activeFlows());
    }

    @Test
    void badFlowsAreRefusedWithTheirReason() {
        FluidNetwork net = new FluidNetwork(new SimulationClock());
        Resource link = net.addResource("link", ResourceKind.NIC_TX, 100);
        FlowListener none = f -> { };
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> net.start("a", List.of(), 1, 1, 10, none)).getMessage().contains("crosses no resource"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> net.start("a", List.of(link), 0, 1, 10, none)).getMessage().contains("positive weight"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> net.start("a", List.of(link), 1, 0, 10, none)).getMessage().contains("positive rate cap"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> net.start("a", List.of(link), 1, 1, -1, none)).getMessage().contains("negative size"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> net.start("a", List.of(link), List.of(0.0), 1, 1, 10, none)).getMessage().contains("non-positive usage"));
        assertThrows(IllegalArgumentException.class, () -> net.addResource("x", ResourceKind.NIC_TX, 0));
        assertThrows(IllegalArgumentException.class, () -> net.setCapacity(link, Double.POSITIVE_INFINITY));
    }

    @Test
    void eachLimiterIsCreditedWithTheBytesItHeldAndTheLongestHeldDominates() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource a = net.addResource("a", ResourceKind.NIC_TX, 100);
        Resource b = net.addResource("b", ResourceKind.NIC_RX, 60);
        List<Flow> done = new ArrayList<>();
        // f crosses a and b; g crosses a only. Both at 50 B/s on a (b's 60 does not bind f) until g
        // (100 B) ends at t=2; then f alone is held by b at 60 B/s for its last 300 B (t=7).
        Flow f = net.start("f", List.of(a, b), 1, Double.POSITIVE_INFINITY, 400, done::add);
        net.start("g", List.of(a), 1, Double.POSITIVE_INFINITY, 100, done::add);
        clock.run();
        assertEquals(7.0, f.finishTime(), 1e-9);
        Map<Limit, Double> by = f.bytesByLimiter();
        assertEquals(100.0, by.get(a.limit()), 1e-9);
        assertEquals(300.0, by.get(b.limit()), 1e-9);
        assertSame(b.limit(), f.dominantLimiter(), "b held it 5 s, a 2 s");
        assertEquals("b", f.dominantLimiter().id());
    }

    @Test
    void eachLimiterIsCreditedWithTheTimeItHeldTheFlowWhichNeedNotFollowItsBytes() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        Resource a = net.addResource("a", ResourceKind.NIC_TX, 100);
        Resource b = net.addResource("b", ResourceKind.NIC_RX, 300);
        List<Flow> done = new ArrayList<>();
        // f and g share a at 50 B/s until g (150 B) ends at t=3: a held f 3 s for 150 B. Then f alone at a's
        // own cap of 80 B/s holds it (a has 100 to give, b 300) for its last 200 B: 2.5 s.
        Flow f = net.start("f", List.of(a, b), 1, 80, 350, done::add);
        net.start("g", List.of(a), 1, Double.POSITIVE_INFINITY, 150, done::add);
        clock.run();
        assertEquals(5.5, f.finishTime(), 1e-9);
        Map<Limit, Double> bytes = f.bytesByLimiter();
        assertEquals(150.0, bytes.get(a.limit()), 1e-9);
        assertEquals(200.0, bytes.get(Limit.OWN_CAP), 1e-9);
        assertSame(a.limit(), f.dominantLimiter(), "its own cap carried the most bytes, the shared link held it longest");
        Map<Limit, Double> seconds = f.secondsByLimiter();
        assertEquals(3.0, seconds.get(a.limit()), 1e-9, "yet the shared link held it longer");
        assertEquals(2.5, seconds.get(Limit.OWN_CAP), 1e-9);
        assertEquals(List.of(a.limit(), Limit.OWN_CAP), List.copyOf(seconds.keySet()), "in the order met");
        assertEquals(2, f.limitsMet());
    }
}
