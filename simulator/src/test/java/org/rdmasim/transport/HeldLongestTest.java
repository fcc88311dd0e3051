package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;

/** The one rule for a lane's and a transfer's bound: the limit that held the last lane longest, ties named together. */
class HeldLongestTest {
    private static final Bottleneck PCIE = new Bottleneck.Link("h", "GPU0", org.rdmasim.hardware.LinkSpec.LinkType.PCIE,
            Bottleneck.Direction.UP);
    private static final Bottleneck TX0 = new Bottleneck.NicWire("h", "mlx5_0", Bottleneck.Side.TX, null);
    private static final Bottleneck TX1 = new Bottleneck.NicWire("h", "mlx5_1", Bottleneck.Side.TX, null);

    private static LaneResult lane(String nic, double start, double finish, Bottleneck limiter, LaneResult.Held... held) {
        return new LaneResult(nic, nic, 1000, start, finish, limiter, 0, List.of(held));
    }

    @Test
    void aLanesBoundIsTheLimitThatHeldItLongestNotTheOneItEndedUnder() {
        // shared a link for 0.6 s, then alone under its NIC for 0.4 s: the NIC carried more bytes, the link more time
        List<LaneResult.Held> held = List.of(new LaneResult.Held(PCIE, 0.6), new LaneResult.Held(TX0, 0.4));
        assertEquals(PCIE, HeldLongest.ofLane(held, TX0));
        // a limit met twice (before and after a stall) counts its seconds together
        List<LaneResult.Held> twice = List.of(new LaneResult.Held(TX0, 0.3), new LaneResult.Held(PCIE, 0.5),
                new LaneResult.Held(TX0, 0.3));
        assertEquals(TX0, HeldLongest.ofLane(HeldLongest.merged(twice), PCIE));
        assertEquals(2, HeldLongest.merged(twice).size());
    }

    @Test
    void whatHeldLongestIsEveryKeyWithinABillionthOfTheLongestInTheOrderMet() {
        // the rule on any key (a refit's GPU work has no Bottleneck): one key, a tie, nothing
        assertEquals(List.of("b"), HeldLongest.longest(ordered("a", 0.5, "b", 0.7, "c", 0.2)));
        assertEquals(List.of("a", "c"), HeldLongest.longest(ordered("a", 0.7, "b", 0.5, "c", 0.7 * (1 - 1e-12))));
        assertEquals(List.of("a"), HeldLongest.longest(ordered("a", 0.7, "b", 0.5, "c", 0.7 * (1 - 1e-6))));
        assertEquals(List.of(), HeldLongest.longest(java.util.Map.of()));
    }

    private static java.util.Map<String, Double> ordered(Object... keysAndSeconds) {
        java.util.Map<String, Double> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndSeconds.length; i += 2) {
            m.put((String) keysAndSeconds[i], (Double) keysAndSeconds[i + 1]);
        }
        return m;
    }

    @Test
    void aTransfersBoundComesFromItsLastLaneNotFromALongerHoldOfALaneThatEndedEarlier() {
        // lane 0 held by its NIC for 0.9 s and done; lane 1, last at 1.0 s, held 0.7 s by PCIe and 0.3 s by its NIC
        LaneResult early = lane("mlx5_0", 0, 0.9, TX0);
        LaneResult last = lane("mlx5_1", 0, 1.0, PCIE, new LaneResult.Held(PCIE, 0.7), new LaneResult.Held(TX1, 0.3));
        assertEquals(PCIE, HeldLongest.ofTransfer(List.of(early, last)));
    }

    /**
     * Whether lanes finished together does not depend on when in the run they did: within a nanosecond they did,
     * at 1 ms as at 1,000 s (a billionth of the clock reading gave one picosecond at 1 ms, a microsecond at
     * 1,000 s).
     */
    @Test
    void lanesFinishTogetherWithinANanosecondWheneverInTheRunTheyEnd() {
        for (double at : new double[] {1e-3, 1000}) {
            // lane 1 started a microsecond after lane 0 and ended half a nanosecond after it: both last, and lane
            // 0's NIC held its lane longer
            LaneResult last = lane("mlx5_1", at - 1e-3 + 1e-6, at, TX1);
            LaneResult halfNs = lane("mlx5_0", at - 1e-3, at - 0.5e-9, TX0);
            assertEquals(TX0, HeldLongest.ofTransfer(List.of(halfNs, last)), "ending at " + at + " s");
            // two nanoseconds earlier is not together: the last lane's NIC bounds the transfer
            LaneResult twoNs = lane("mlx5_0", at - 1e-3, at - 2e-9, TX0);
            assertEquals(TX1, HeldLongest.ofTransfer(List.of(twoNs, last)), "ending at " + at + " s");
        }
    }

    @Test
    void lanesEndingTogetherUnderTwoLimitsForTheSameTimeAreATie() {
        LaneResult a = lane("mlx5_0", 0, 0.5, TX0);
        LaneResult b = lane("mlx5_1", 0, 0.5, TX1);
        assertEquals(new Bottleneck.Tie(List.of(TX0, TX1)), HeldLongest.ofTransfer(List.of(a, b)));
        // limits that differ in one word (the NIC) are said once with that word listed; others in full
        assertEquals("tie of 2: h:{mlx5_0, mlx5_1} tx", HeldLongest.ofTransfer(List.of(a, b)).id());
        assertEquals("tie: h:GPU0 PCIe up = h:mlx5_0 tx", new Bottleneck.Tie(List.of(PCIE, TX0)).id());
        // a billionth apart is the same time (sums of the same seconds in another order); a millionth is not
        LaneResult c = lane("mlx5_1", 0, 0.5 * (1 + 1e-12), TX1);
        assertEquals(new Bottleneck.Tie(List.of(TX0, TX1)), HeldLongest.ofTransfer(List.of(a, c)));
        LaneResult d = lane("mlx5_1", 0, 0.5 * (1 + 1e-6), TX1);
        assertEquals(TX1, HeldLongest.ofTransfer(List.of(a, d)));
        // limits of two hosts differ in two words: each host's are said once, and a limit alike with none in full
        Bottleneck otherHost0 = new Bottleneck.NicWire("g", "mlx5_0", Bottleneck.Side.TX, null);
        Bottleneck otherHost1 = new Bottleneck.NicWire("g", "mlx5_1", Bottleneck.Side.TX, null);
        Bottleneck.Tie hosts = new Bottleneck.Tie(List.of(TX0, otherHost1, TX1, PCIE));
        assertEquals("a tie, 4 limits each holding it for the same time: NIC {mlx5_0, mlx5_1}'s transmit line rate on h;"
                + " NIC mlx5_1's transmit line rate on g and GPU0's PCIe link on h (towards the CPU)", hosts.words());
        assertEquals("a tie, 2 limits each holding it for the same time: NIC mlx5_0's transmit line rate on h and NIC"
                + " mlx5_1's transmit line rate on g", new Bottleneck.Tie(List.of(TX0, otherHost1)).words());
        // a text joins the first group it is alike with: g's mlx5_0 goes with h's (the host differs), not with g's mlx5_1
        assertEquals("a tie, 3 limits each holding it for the same time: NIC mlx5_0's transmit line rate on {h, g} and"
                + " NIC mlx5_1's transmit line rate on g", new Bottleneck.Tie(List.of(TX0, otherHost0, otherHost1)).words());
        assertEquals("tie of 2: {h:mlx5_0, g:mlx5_1} tx", new Bottleneck.Tie(List.of(TX0, otherHost1)).id());
        // a lane held by one limit for as long as by another is a tie too
        assertEquals(new Bottleneck.Tie(List.of(PCIE, TX0)),
                HeldLongest.ofLane(List.of(new LaneResult.Held(PCIE, 0.25), new LaneResult.Held(TX0, 0.25)), TX0));
    }
}
