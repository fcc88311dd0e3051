package org.rdmasim.crosscheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;

/** The synthetic fan-out the SimGrid cross-check solves, checked against values worked out by hand. */
class RailFanoutTest {
    private static RailFanout fanout(int sources, int receivers, long bytes, RailFanout.Arrival arrival,
            RailFanout.Sizes sizes) {
        return new RailFanout(RailFanout.fourRailHost(), sources, receivers, 4, bytes, arrival, 0.001, sizes,
                FabricSpec.nonBlocking(), false, 1);
    }

    @Test
    void eachReceiverGetsOneLanePerRailFromSourceRModSources() {
        FlowProblem p = fanout(2, 3, 1_000_000_003L, RailFanout.Arrival.ALL_AT_ONCE, RailFanout.Sizes.EQUAL).build();
        assertEquals(12, p.flows().size());
        // 1,000,000,003 bytes over 4 rails: the first three rails carry one byte more
        FlowProblem.FlowSpec r1rail0 = p.flows().stream().filter(f -> f.id().equals("rcv1.rail0")).findFirst().orElseThrow();
        FlowProblem.FlowSpec r1rail3 = p.flows().stream().filter(f -> f.id().equals("rcv1.rail3")).findFirst().orElseThrow();
        assertEquals(250_000_001L, r1rail0.bytes());
        assertEquals(250_000_000L, r1rail3.bytes());
        assertEquals(0.0, r1rail0.start());
        // receiver 1 pulls from source 1 (1 mod 2): its route starts at src1 and ends at rcv1
        assertTrue(r1rail0.route().get(0).startsWith("src1:"), r1rail0.route().toString());
        assertTrue(r1rail0.route().get(r1rail0.route().size() - 1).startsWith("rcv1:"), r1rail0.route().toString());
        assertTrue(r1rail0.route().stream().noneMatch(l -> l.startsWith("src0:")));
        // receiver 2 goes back to source 0
        assertTrue(p.flows().stream().filter(f -> f.id().startsWith("rcv2.")).allMatch(f -> f.route().get(0).startsWith("src0:")));
    }

    @Test
    void poissonArrivalsStartLaterReceiversLaterAndUnequalSizesStayInRange() {
        FlowProblem p = fanout(1, 50, 4_000_000L, RailFanout.Arrival.POISSON, RailFanout.Sizes.UNEQUAL).build();
        double last = -1;
        for (int r = 0; r < 50; r++) {
            String id = "rcv" + r + ".rail0";
            FlowProblem.FlowSpec f = p.flows().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
            assertTrue(f.start() >= last, "arrivals in order");
            last = f.start();
            String receiver = "rcv" + r + ".";
            long total = p.flows().stream().filter(x -> x.id().startsWith(receiver)).mapToLong(FlowProblem.FlowSpec::bytes).sum();
            // drawn from 0.25x to 1.75x of 4 MB
            assertTrue(total >= 1_000_000L && total <= 7_000_000L, "receiver " + r + ": " + total);
        }
        assertTrue(last > 0, "50 Poisson arrivals 1 ms apart on average do not all fall at 0");
    }

    @Test
    void aSoloPullIsTheModelOverFourWireRates() {
        RailFanout f = fanout(1, 1, 16_000_000_000L, RailFanout.Arrival.ALL_AT_ONCE, RailFanout.Sizes.EQUAL);
        // four 400G NICs, each at its wire efficiency (InfiniBand: 4096 of every 4140 bytes are payload)
        double wire = 400e9 / 8 * (4096.0 / 4140.0);
        assertEquals(16e9 / (4 * wire), f.soloPullSeconds(), 1e-12);
    }

    @Test
    void nonsenseFanoutsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> fanout(0, 1, 1000, RailFanout.Arrival.ALL_AT_ONCE, RailFanout.Sizes.EQUAL));
        assertThrows(IllegalArgumentException.class,
                () -> fanout(1, 1, 3, RailFanout.Arrival.ALL_AT_ONCE, RailFanout.Sizes.EQUAL));
        assertThrows(IllegalArgumentException.class, () -> new RailFanout(RailFanout.fourRailHost(), 1, 1, 4, 1000,
                RailFanout.Arrival.POISSON, 0, RailFanout.Sizes.EQUAL, FabricSpec.nonBlocking(), false, 1));
    }
}
