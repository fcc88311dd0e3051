package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * What a flow and the network keep beside the rates: start times, the limit that held a flow
 * longest, the tap that sees starts, aborts and capacity changes, observers of every kind, reserved
 * resource indices, group fallbacks. Expected values are worked by hand in the comments.
 */
class FlowBookkeepingTest {
    @Test
    void eachLimitIsCreditedInSeveralStepsAndTheOneThatHeldLongestDominatesNotTheOneThatCarriedMostBytes() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource a = net.addResource("a", ResourceKind.OTHER, 10);
        Resource b = net.addResource("b", ResourceKind.OTHER, 12);
        Flow f = net.start("f", List.of(a, b), 1, Double.POSITIVE_INFINITY, 180, x -> { });
        // Two rate-capped arrivals on b settle f (still held by a at 10 B/s) at t=3 and t=6: a is
        // credited 30, 30 and, when g arrives at t=10, 40 more: 100 bytes in three steps.
        clock.scheduleAt(3, () -> net.start("h1", List.of(b), 1, 1.0, 1_000, x -> { }));
        clock.scheduleAt(6, () -> net.start("h2", List.of(b), 1, 0.5, 1_000, x -> { }));
        clock.scheduleAt(10, () -> net.start("g", List.of(b), 1, Double.POSITIVE_INFINITY, 1_000, x -> { }));
        clock.scheduleAt(10, () -> assertSame(b, f.bottleneck, "f and g share b's 10.5 B/s left over"));
        clock.run();
        // From t=10, f runs at (12 - 1 - 0.5) / 2 = 5.25 B/s on b for its last 80 bytes.
        assertEquals(10 + 80 / 5.25, f.finishTime(), 1e-9);
        assertEquals(b.limit(), f.limiter());
        assertEquals(100.0, f.bytesByLimiter().get(a.limit()), 1e-9, "a carried 100 bytes in three steps, b 80");
        assertEquals(10.0, f.secondsByLimiter().get(a.limit()), 1e-9);
        assertEquals(80 / 5.25, f.secondsByLimiter().get(b.limit()), 1e-9);
        assertEquals(b.limit(), f.dominantLimiter(), "b held it 15.2 s against a's 10 s");
    }

    @Test
    void aFlowKeepsItsStartTimeAndLabelAndIsNotAbortedWhenItFinishes() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.OTHER, 100);
        List<Flow> started = new ArrayList<>();
        clock.scheduleAt(5, () -> started.add(net.start("lane 2", List.of(link), 1, Double.POSITIVE_INFINITY, 100, x -> { })));
        clock.run();
        Flow f = started.get(0);
        assertEquals(5, f.startTime());
        assertEquals(6, f.finishTime(), 1e-12);
        assertFalse(f.isAborted());
        assertEquals("lane 2", f.toString());
    }

    @Test
    void aResourceNamedTwiceOnAPathIsCrossedOnceWithTheUsagesSummed() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.OTHER, 90);
        Resource other = net.addResource("other", ResourceKind.OTHER, 1000);
        Flow f = net.start("f", List.of(link, other, link), List.of(1.0, 1.0, 2.0), 1, Double.POSITIVE_INFINITY, 300,
                x -> { });
        assertEquals(2, f.path().length);
        assertEquals(3.0, f.usageOf(link));
        assertEquals(30, f.rate(), 1e-12);
        assertEquals(90, link.load(), 1e-9);
    }

    @Test
    void theTapSeesEveryStartAbortAndCapacityChange() {
        SimulationClock clock = new SimulationClock();
        List<String> seen = new ArrayList<>();
        FlowTap tap = new FlowTap() {
            @Override
            public void started(Flow f) {
                seen.add("start " + f.label());
            }

            @Override
            public void aborted(Flow f) {
                seen.add("abort " + f.label());
            }

            @Override
            public void capacityChanged(Resource r) {
                seen.add("capacity " + r.name());
            }
        };
        FluidNetwork net = new FluidNetwork(clock);
        assertSame(net, net.logging(tap));
        Resource link = net.addResource("link", ResourceKind.OTHER, 100);
        Flow a = net.start("a", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, x -> { });
        net.start("b", List.of(link), 1, Double.POSITIVE_INFINITY, 0, x -> { });
        net.setCapacity(link, 50);
        net.abort(a);
        assertEquals(List.of("start a", "start b", "capacity link", "abort a"), seen);
    }

    @Test
    void anAbortedFlowLeavesTheRunningCountAndNeverCompletes() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        Resource link = net.addResource("link", ResourceKind.OTHER, 100);
        List<String> done = new ArrayList<>();
        Flow a = net.start("a", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, x -> done.add("a"));
        net.start("b", List.of(link), 1, Double.POSITIVE_INFINITY, 500, x -> done.add("b"));
        assertEquals(2, net.activeFlows());
        assertEquals(1000, net.abort(a), 1e-9, "aborted at t=0, nothing moved");
        assertEquals(1, net.activeFlows());
        assertEquals(1, link.activeFlows());
        clock.run();
        assertEquals(List.of("b"), done);
        assertEquals(5, clock.now(), 1e-12, "b alone at 100 B/s");
        assertThrows(IllegalStateException.class, () -> net.abort(a));
    }

    @Test
    void loweringAMembersPrivateCapacityTakesItOutOfItsGroup() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(2).verifying(true);
        List<Flow> ab = FlowGroupingTest.twoMembers(net, 1000, 1000);
        Flow a = ab.get(0);
        Flow b = ab.get(1);
        assertTrue(net.groupOf(a) != null && net.groupOf(a) == net.groupOf(b));
        net.setCapacity(a.path()[1], 5);
        // a is held by its own 5 B/s now; b takes the rest of the shared 20.
        assertEquals(5, a.rate(), 1e-12);
        assertEquals(15, b.rate(), 1e-12);
        assertEquals(null, net.groupOf(a));
        clock.run();
        assertEquals(200, a.finishTime(), 1e-9);
    }

    @Test
    void aGroupBrokenByItsMembersLeavingCountsAsAFallback() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(2).verifying(true);
        FlowGroupingTest.twoMembers(net, 1500, 1000);
        assertEquals(0, net.groupFallbacks());
        clock.run();
        // When b ends, a alone would run at 20 B/s in its group, past its own 15: the group is dissolved.
        assertEquals(1, net.groupFallbacks());
    }

    @Test
    void anObserverOfEveryKindSeesEveryResource() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).verifying(true);
        List<String> seen = new ArrayList<>();
        net.addObserver((r, now, load) -> seen.add(r.name() + " " + load));
        Resource tx = net.addResource("tx", ResourceKind.NIC_TX, 100);
        Resource pcie = net.addResource("pcie", ResourceKind.PCIE_LINK, 50);
        net.start("f", List.of(tx, pcie), 1, Double.POSITIVE_INFINITY, 100, x -> { });
        clock.run();
        assertEquals(List.of("tx 50.0", "pcie 50.0", "tx 0.0", "pcie 0.0"), seen);
    }

    @Test
    void reservedIndicesAreBuiltOnceAndOnlyInsideTheReservation() {
        FluidNetwork net = new FluidNetwork(new SimulationClock());
        int first = net.reserve(2);
        assertEquals(first + 2, net.reserve(0), "reserving nothing returns the next free index");
        assertThrows(IllegalArgumentException.class, () -> net.reserve(-1));
        Resource r = net.addResourceAt(first + 1, Limit.named("x"), ResourceKind.OTHER, 10);
        assertSame(r, net.resourceAt(first + 1));
        assertThrows(IllegalArgumentException.class, () -> net.addResourceAt(first + 1, Limit.named("y"), ResourceKind.OTHER, 10));
        assertThrows(IllegalArgumentException.class, () -> net.addResourceAt(first + 2, Limit.named("z"), ResourceKind.OTHER, 10));
        assertThrows(IllegalArgumentException.class, () -> net.addResourceAt(-1, Limit.named("w"), ResourceKind.OTHER, 10));
    }

    @Test
    void anObserverCannotBeAddedForAResourceAGroupAlreadyFollowsLazily() {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(2);
        List<Flow> ab = FlowGroupingTest.twoMembers(net, 1500, 1000);
        Resource ownA = ab.get(0).path()[1];
        assertSame(net.groupOf(ab.get(0)), net.followedBy(ownA), "a's private resource follows its group");
        net.addObserver((r, now, load) -> { }, EnumSet.of(ResourceKind.NIC_TX));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> net.addObserver((r, now, load) -> { }, EnumSet.of(ResourceKind.OTHER)));
        assertTrue(e.getMessage().contains("before flows start"), e.getMessage());
    }

    @Test
    void theInvariantCheckNamesARateAboveCapacity() {
        FluidNetwork net = new FluidNetwork(new SimulationClock());
        Resource link = net.addResource("link", ResourceKind.PCIE_LINK, 100);
        Flow f = net.start("f", List.of(link), 1, Double.POSITIVE_INFINITY, 1000, x -> { });
        assertEquals(List.of(), net.invariantViolations());
        f.rate = 150;
        List<String> bad = net.invariantViolations();
        assertTrue(bad.stream().anyMatch(m -> m.contains("link")), bad.toString());
        assertEquals("link", link.toString());
        assertEquals(ResourceKind.PCIE_LINK, link.kind());
        assertEquals("pcie x16", Limit.named("pcie x16").toString());
    }
}
