package org.rdmasim.crosscheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.crosscheck.RailFanout;
import org.rdmasim.crosscheck.RailFanout.Arrival;
import org.rdmasim.crosscheck.RailFanout.Sizes;

/**
 * rdmasim's max-min fluid model against SimGrid's (CM02, via tools/simgrid-peer/flowpeer.py) on the
 * same rail-aligned fan-outs built from a real cluster: every lane's finish time, and every receiver's
 * (its last lane), must agree within 0.1%. Needs Debian's python3-simgrid (tools/simgrid-peer/install.sh,
 * which .ci/run calls): without it the tests are skipped, reported as such with the reason and how to
 * install it, never passed.
 */
class SimgridCrossCheckTest {
    private static final double REL_TOL = 1e-3;
    private static final long MODEL = 2_000_000_000L;
    private static SimgridPeer peer;

    @BeforeAll
    static void peerIsInstalled() {
        peer = new SimgridPeer(java.nio.file.Path.of(System.getProperty("rdmasim.repo", "..")));
        peer.unavailable().ifPresent(why -> {
            System.out.println("NOTICE: SimgridCrossCheckTest skipped: " + why);
            Assumptions.assumeTrue(false, "SimGrid cross-check cannot run: " + why);
        });
    }

    private static RailFanout fanout(int sources, int receivers, Arrival arrival, Sizes sizes, FabricSpec fabric,
            boolean caps, long seed) {
        RailFanout probe = new RailFanout(RailFanout.fourRailHost(), sources, receivers, 4, MODEL, Arrival.ALL_AT_ONCE,
                0, sizes, fabric, caps, seed);
        // Arrivals about one solo pull per source apart: pulls overlap on every source, and some end
        // while others start.
        double gap = probe.soloPullSeconds() / sources;
        return new RailFanout(probe.host(), sources, receivers, 4, MODEL, arrival, gap, sizes, fabric, caps, seed);
    }

    @Test
    void allReceiversAtOnce() throws IOException {
        agree(fanout(3, 20, Arrival.ALL_AT_ONCE, Sizes.EQUAL, FabricSpec.nonBlocking(), false, 1).build());
    }

    @Test
    void poissonArrivalsWithReadCapsPerLane() throws IOException {
        FlowProblem p = fanout(2, 30, Arrival.POISSON, Sizes.EQUAL, FabricSpec.nonBlocking(), true, 2).build();
        assertTrue(p.flows().stream().allMatch(FlowProblem.FlowSpec::capped), "every lane carries its READ cap");
        agree(p);
    }

    @Test
    void unequalModelSizes() throws IOException {
        FlowProblem p = fanout(3, 24, Arrival.POISSON, Sizes.UNEQUAL, FabricSpec.nonBlocking(), false, 3).build();
        assertTrue(p.flows().stream().map(FlowProblem.FlowSpec::bytes).distinct().count() > 10, "sizes differ");
        agree(p);
    }

    @Test
    void sharedOversubscribedLeafUplink() throws IOException {
        // Leaves of 4 hosts, 4:1 oversubscribed: the sources' leaf uplink carries every pull to another
        // leaf and is the bottleneck they share; receivers on the sources' leaf bypass it.
        FabricSpec fabric = new FabricSpec(FabricSpec.Kind.LEAF_SPINE, 4, 4.0, FabricSpec.DEFAULT_HOP_LATENCY);
        FlowProblem p = fanout(2, 18, Arrival.POISSON, Sizes.EQUAL, fabric, false, 4).build();
        long viaUplink = p.flows().stream().filter(f -> f.route().contains("leaf0 uplink")).count();
        assertTrue(viaUplink > 0 && viaUplink < p.flows().size(), "some lanes, not all, cross leaf0's uplink");
        agree(p);
    }

    @Test
    void railOptimizedFabricAllAtOnceUnequal() throws IOException {
        FabricSpec fabric = new FabricSpec(FabricSpec.Kind.RAIL_OPTIMIZED, 4, 2.0, FabricSpec.DEFAULT_HOP_LATENCY);
        agree(fanout(2, 14, Arrival.ALL_AT_ONCE, Sizes.UNEQUAL, fabric, true, 5).build());
    }

    private static void agree(FlowProblem p) throws IOException {
        Map<String, Double> ours = p.solveInRdmasim().finishById();
        SimgridPeer.Result theirs = peer.solve(p);
        assertEquals(ours.keySet(), theirs.finishById().keySet(), "same flows");
        List<String> bad = new ArrayList<>();
        Map<String, double[]> byReceiver = new LinkedHashMap<>();
        for (FlowProblem.FlowSpec f : p.flows()) {
            double a = ours.get(f.id());
            double b = theirs.finishById().get(f.id());
            if (!(relative(a, b) <= REL_TOL)) {
                bad.add(f.id() + ": rdmasim " + a + " s, SimGrid " + b + " s");
            }
            double[] last = byReceiver.computeIfAbsent(f.group(), g -> new double[2]);
            last[0] = Math.max(last[0], a);
            last[1] = Math.max(last[1], b);
        }
        for (Map.Entry<String, double[]> e : byReceiver.entrySet()) {
            double[] t = e.getValue();
            if (!(relative(t[0], t[1]) <= REL_TOL)) {
                bad.add("receiver " + e.getKey() + ": rdmasim " + t[0] + " s, SimGrid " + t[1] + " s");
            }
        }
        assertTrue(bad.isEmpty(), bad.size() + " finish times differ by more than 0.1% from SimGrid "
                + theirs.simgridVersion() + ":\n" + String.join("\n", bad.subList(0, Math.min(20, bad.size()))));
    }

    private static double relative(double a, double b) {
        return Math.abs(a - b) / Math.max(Math.abs(b), 1e-12);
    }
}
