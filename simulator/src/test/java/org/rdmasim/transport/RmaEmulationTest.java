package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;

/**
 * UCX's software RMA emulation on one lane: a fragment per the slower side's synchronous cuda_copy
 * (openucx/ucx v1.20.0 cuda_copy_iface.c L195-198: 4.0 us + 1.8 us + bytes at 0.95 x the copy bandwidth),
 * through host memory on both sides, without the RDMA READ limits of a real READ.
 */
class RmaEmulationTest {
    private final Cluster cluster = new Cluster(List.of(new Host("a", Presets.get("dgx-h100")),
            new Host("b", Presets.get("dgx-h100"))), FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
    private final TransferEngine engine = new TransferEngine(cluster, ProtocolParameters.defaults());

    private static TransferSpec spec(String from, String to, Operation op, DataPath src, DataPath snk) {
        return new TransferSpec("t", new Endpoint("a", from), new Endpoint("b", to), 1 << 24, op, 1, src, snk, false, 0);
    }

    @Test
    void theSlowerCopyPacesTheLane() {
        TransferSpec both = spec("GPU0", "GPU0", Operation.WRITE, DataPath.RMA_EMULATION, DataPath.RMA_EMULATION);
        double fragment = 8192 - 1 - 20;
        double d2h = 5.8e-6 + fragment / (0.95 * 11660 * 1048576.0);
        double h2d = 5.8e-6 + fragment / (0.95 * 8300 * 1048576.0);
        assertEquals(d2h, RmaEmulation.sourceSeconds(both), 1e-12);
        assertEquals(h2d, RmaEmulation.sinkSeconds(both), 1e-12);
        Lane lane = new Lane("mlx5_0", "mlx5_0", 1 << 24);
        assertEquals(fragment / h2d, engine.laneCap(both, lane), 1e-3);
        // a host buffer packs by memcpy: only the GPU side's copy remains, and it is device-to-host here
        TransferSpec fromGpuToHost = spec("GPU0", "CPU0", Operation.WRITE, DataPath.RMA_EMULATION, DataPath.HOST_MEMORY);
        assertEquals(fragment / d2h, engine.laneCap(fromGpuToHost, lane), 1e-3);
    }

    @Test
    void anEmulatedGetIsNoRdmaRead() {
        TransferSpec get = spec("GPU0", "GPU0", Operation.READ, DataPath.RMA_EMULATION, DataPath.RMA_EMULATION);
        Lane lane = new Lane("mlx5_0", "mlx5_0", 1 << 24);
        List<String> path = engine.lanePath(get, lane, new ArrayList<>()).stream().map(Resource::name).toList();
        assertFalse(path.stream().anyMatch(n -> n.contains("READ")), path.toString());
        // both hosts' memory carries every byte twice (written by one side, read by the other)
        assertTrue(path.stream().anyMatch(n -> n.startsWith("a:CPU0 memory")), path.toString());
        assertTrue(path.stream().anyMatch(n -> n.startsWith("b:CPU0 memory")), path.toString());
        assertTrue(engine.laneCap(get, lane) < 1.3e9, "a few GB/s at most, far below one QP's READ rate");
    }

    @Test
    void latencyAddsOneFragmentCopyOnEachSide() {
        Lane lane = new Lane("mlx5_0", "mlx5_0", 1 << 24);
        TransferSpec direct = spec("GPU0", "GPU0", Operation.WRITE, DataPath.GPUDIRECT, DataPath.GPUDIRECT);
        TransferSpec emulated = spec("GPU0", "GPU0", Operation.WRITE, DataPath.RMA_EMULATION, DataPath.RMA_EMULATION);
        assertEquals(RmaEmulation.sourceSeconds(emulated) + RmaEmulation.sinkSeconds(emulated),
                engine.oneWayLatency(emulated, lane) - engine.oneWayLatency(direct, lane), 1e-9);
    }

    @Test
    void onlyEmulatedTransfersDropToOneLane() {
        List<String> planned = List.of("l0", "l1", "l2");
        assertEquals(List.of("l0"), RmaEmulation.lanes(
                spec("GPU0", "GPU0", Operation.READ, DataPath.RMA_EMULATION, DataPath.RMA_EMULATION), planned));
        assertEquals(planned, RmaEmulation.lanes(
                spec("GPU0", "GPU0", Operation.READ, DataPath.STAGED, DataPath.STAGED), planned));
        assertEquals(planned, RmaEmulation.lanes(
                spec("CPU0", "CPU0", Operation.READ, DataPath.HOST_MEMORY, DataPath.HOST_MEMORY), planned));
    }
}
