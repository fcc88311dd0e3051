package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * A lane's resources, side by side, between two different hosts so that neither side can stand in for
 * the other: a (dgx-h100) sends from GPU0 over mlx5_0, both under pcie-switch0 on socket 0; b
 * (hgx-h200) receives into GPU1 over mlx5_1, both under pcie-switch1 on socket 0. The fabric is
 * non-blocking (no resource between the NICs). A usage of 2 is a bounce buffer written and read.
 */
class LanePathSidesTest {
    private final Cluster cluster = new Cluster(List.of(new Host("a", Presets.get("dgx-h100")),
            new Host("b", Presets.get("hgx-h200"))), FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
    private final TransferEngine engine = new TransferEngine(cluster, ProtocolParameters.defaults());

    private List<String> path(DataPath source, DataPath sink) {
        TransferSpec spec = new TransferSpec("t", new Endpoint("a", "GPU0"), new Endpoint("b", "GPU1"), 1000,
                Operation.WRITE, 1, source, sink, false, 0);
        List<Double> usage = new ArrayList<>();
        List<Resource> p = engine.lanePath(spec, new Lane("mlx5_0", "mlx5_1", 1000), usage);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < p.size(); i++) {
            out.add(p.get(i).name() + (usage.get(i) == 1.0 ? "" : " x" + usage.get(i)));
        }
        return out;
    }

    @Test
    void gpuDirectStaysInsideEachSwitch() {
        assertEquals(List.of("a:GPU0 PCIe up", "a:mlx5_0 PCIe down", "a:mlx5_0 tx",
                "b:mlx5_1 rx", "b:mlx5_1 PCIe up", "b:GPU1 PCIe down"), path(DataPath.GPUDIRECT, DataPath.GPUDIRECT));
    }

    @Test
    void aStagedSourceBouncesThroughItsSocketMemoryAndAHostMemorySinkEndsThere() {
        assertEquals(List.of("a:GPU0 PCIe up", "a:pcie-switch0 PCIe up", "a:CPU0 memory x2.0", "a:pcie-switch0 PCIe down",
                "a:mlx5_0 PCIe down", "a:mlx5_0 tx",
                "b:mlx5_1 rx", "b:mlx5_1 PCIe up", "b:pcie-switch1 PCIe up", "b:CPU0 memory"),
                path(DataPath.STAGED, DataPath.HOST_MEMORY));
    }

    @Test
    void aHostMemorySourceStartsInItsSocketMemoryAndAStagedSinkBouncesBeforeTheGpu() {
        assertEquals(List.of("a:CPU0 memory", "a:pcie-switch0 PCIe down", "a:mlx5_0 PCIe down", "a:mlx5_0 tx",
                "b:mlx5_1 rx", "b:mlx5_1 PCIe up", "b:pcie-switch1 PCIe up", "b:CPU0 memory x2.0",
                "b:pcie-switch1 PCIe down", "b:GPU1 PCIe down"), path(DataPath.HOST_MEMORY, DataPath.STAGED));
    }
}
