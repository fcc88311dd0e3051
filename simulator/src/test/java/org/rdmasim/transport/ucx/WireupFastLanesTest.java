package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.transport.config.StackVersion;

class WireupFastLanesTest {
    private static final StackVersion V1_20 = new StackVersion(1, 20, 0);

    private static BwLanePairing.Device hca(String nic, double bytesPerSecond) {
        return new BwLanePairing.Device(nic, bytesPerSecond, 0, 1);
    }

    @Test
    void aLaneExactlyAtAQuarterOfTheBestIsKeptAndOneJustBelowIsDropped() {
        // select.c drops on lane_bw < max_bw * (1 / ratio): strictly below; equal stays
        List<BwLanePairing.Device> local = List.of(hca("a", 40e9), hca("b", 10e9), hca("c", 10e9 - 1));
        List<BwLanePairing.Device> remote = List.of(hca("a", 40e9), hca("b", 10e9), hca("c", 10e9 - 1));
        List<BwLanePairing.Wire> wires = BwLanePairing.pair(local, remote);
        WireupFastLanes f = WireupFastLanes.over(wires, local, remote, 4, V1_20);
        assertEquals(40e9, f.best());
        assertEquals(10e9, f.threshold());
        assertFalse(f.drops("b", 0));
        assertTrue(f.drops("c", 0));
        assertEquals(List.of("c"), f.dropped().stream().map(r -> r.wire().localNic()).toList());
    }

    @Test
    void aLanesBandwidthIsTheSlowerSideWithNoPathShare() {
        // a fast local HCA wired to a slow remote one is rated at the remote's bandwidth; a second path of a
        // two-path HCA is rated like its first (the path share only scores the pairing)
        List<BwLanePairing.Device> local = List.of(new BwLanePairing.Device("a", 50e9, 0, 2), hca("b", 50e9));
        List<BwLanePairing.Device> remote = List.of(new BwLanePairing.Device("a", 50e9, 0, 2), hca("b", 5e9));
        List<BwLanePairing.Wire> wires = BwLanePairing.pair(local, remote);
        WireupFastLanes f = WireupFastLanes.over(wires, local, remote, 4, V1_20);
        // wired: a path0 -> a, then local b -> a's second path (a fresh local HCA beats the slow remote b), then
        // a path1 -> b; every local HCA is 50e9, so each lane is rated at its remote HCA, both paths of a alike
        assertEquals(List.of("a0->a", "b0->a", "a1->b"), f.wired().stream()
                .map(r -> r.wire().localNic() + r.wire().localPath() + "->" + r.wire().remoteNic()).toList());
        assertEquals(List.of(50e9, 50e9, 5e9), f.wired().stream().map(WireupFastLanes.Rated::bandwidth).toList());
        assertEquals(1, f.dropped().size(), f.toString());
        assertEquals("b", f.dropped().get(0).wire().remoteNic());
        // a ratio of 20 keeps it: 5e9 is not below 50e9 / 20
        assertEquals(List.of(), WireupFastLanes.over(wires, local, remote, 20, V1_20).dropped());
    }

    @Test
    void beforeUcx1141ThereIsNoFilter() {
        List<BwLanePairing.Device> local = List.of(hca("a", 40e9), hca("b", 1e9));
        List<BwLanePairing.Wire> wires = BwLanePairing.pair(local, local);
        assertEquals(1, WireupFastLanes.over(wires, local, local, 4, new StackVersion(1, 14, 1)).dropped().size());
        WireupFastLanes before = WireupFastLanes.over(wires, local, local, 4, new StackVersion(1, 14, 0));
        assertFalse(before.inForce());
        assertEquals(List.of(), before.dropped());
        assertEquals(2, before.wired().size());
    }
}
