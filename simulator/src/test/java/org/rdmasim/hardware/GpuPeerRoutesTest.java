package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;

class GpuPeerRoutesTest {
    private final Host nv = new Host("a", Presets.get("dgx-h100"));
    private final Host pcie = new Host("g", Presets.get("generic"));
    private final Cluster cluster = new Cluster(List.of(nv, pcie),
            new FabricSpec(FabricSpec.Kind.LEAF_SPINE, 1, 2.0, FabricSpec.DEFAULT_HOP_LATENCY),
            new FluidNetwork(new SimulationClock()));
    private final GpuPeerRoutes routes = new GpuPeerRoutes(cluster);

    @Test
    void nvlinkGpusMeetThroughTheirOwnPortsAtLinksTimesThePerLinkRate() {
        TopologyNode g0 = nv.gpus().get(0);
        TopologyNode g1 = nv.gpus().get(1);
        List<Resource> path = new ArrayList<>();
        List<Double> usage = new ArrayList<>();
        routes.addWithin(nv, g0, g1, path, usage);
        assertEquals(List.of("a:" + g0.name() + " nvlink tx", "a:" + g1.name() + " nvlink rx"),
                path.stream().map(Resource::name).toList());
        assertEquals(List.of(1.0, 1.0), usage);
        // H100 SXM: 18 links of 25 GB/s a direction
        assertEquals(450e9, path.get(0).capacity(), 1e-3);
        assertEquals(450e9, GpuPeerRoutes.peerBytesPerSecond(g0), 1e-3);
        // the ports are made once: the way back crosses g1's out and g0's in, the next way out the same tx
        List<Resource> back = new ArrayList<>();
        routes.addWithin(nv, g1, g0, back, new ArrayList<>());
        List<Resource> again = new ArrayList<>();
        routes.addWithin(nv, g0, g1, again, new ArrayList<>());
        assertSame(path.get(0), again.get(0));
        assertSame(path.get(1), again.get(1));
        assertEquals("a:" + g1.name() + " nvlink tx", back.get(0).name());
    }

    @Test
    void gpusWithoutNvlinkCrossTheHostsPcieAndTradeAtTheirHostLinkRate() {
        TopologyNode g0 = pcie.gpus().get(0);
        TopologyNode g1 = pcie.gpus().get(1);
        assertEquals(0, g0.gpu().nvlinks());
        List<Resource> path = new ArrayList<>();
        List<Double> usage = new ArrayList<>();
        routes.addWithin(pcie, g0, g1, path, usage);
        assertEquals(cluster.within(pcie, g0, g1, false), path);
        assertTrue(usage.stream().allMatch(u -> u == 1.0));
        assertEquals(path.size(), usage.size());
        assertEquals(g0.uplink().bytesPerSecond(), GpuPeerRoutes.peerBytesPerSecond(g0), 1e-3);
    }

    @Test
    void pxnHandsOverOnlyBetweenTwoNvlinkGpus() {
        List<Resource> path = new ArrayList<>();
        List<Double> usage = new ArrayList<>();
        TopologyNode g0 = nv.gpus().get(0);
        assertFalse(routes.addHandOver(nv, g0, g0, path, usage), "the GPU beside the NIC sends itself");
        assertFalse(routes.addHandOver(pcie, pcie.gpus().get(0), pcie.gpus().get(1), path, usage), "no NVLink");
        assertTrue(path.isEmpty() && usage.isEmpty());
        TopologyNode g3 = nv.gpus().get(3);
        assertTrue(routes.addHandOver(nv, g0, g3, path, usage));
        assertEquals(List.of("a:" + g0.name() + " nvlink tx", "a:" + g3.name() + " nvlink rx"),
                path.stream().map(Resource::name).toList());
        assertEquals(List.of(1.0, 1.0), usage);
    }
}
