package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** A host buffer lives on a NUMA node: its path crosses that node's memory, and the socket link when the NIC is elsewhere. */
class HostMemoryNumaTest {
    private final Cluster cluster = new Cluster(List.of(new Host("a", Presets.get("dgx-h100")),
            new Host("b", Presets.get("dgx-h100"))), FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
    private final TransferEngine engine = new TransferEngine(cluster, ProtocolParameters.defaults());
    private final TransferSpec socket1 = new TransferSpec("t", new Endpoint("a", "CPU1"), new Endpoint("b", "CPU1"),
            1_000_000, Operation.WRITE, 1, DataPath.HOST_MEMORY, DataPath.HOST_MEMORY, false, 0);

    private List<String> path(String nic) {
        return engine.lanePath(socket1, new Lane(nic, nic, 1_000_000), new ArrayList<>()).stream()
                .map(Resource::name).toList();
    }

    @Test
    void ownSocketNicStaysOnTheSocket() {
        // dgx-h100: GPU4-7's ports mlx5_6, 9, 10, 11 hang off socket 1
        List<String> p = path("mlx5_6");
        assertTrue(p.contains("a:CPU1 memory") && p.contains("b:CPU1 memory"), p.toString());
        assertTrue(p.stream().noneMatch(r -> r.contains("->")), p.toString());
    }

    @Test
    void otherSocketNicCrossesTheSocketLinkOnBothHosts() {
        List<String> p = path("mlx5_0");
        assertTrue(p.contains("a:CPU1->CPU0"), p.toString());
        assertTrue(p.contains("b:CPU0->CPU1"), p.toString());
        assertEquals(1, p.stream().filter(r -> r.equals("a:CPU1 memory")).count());
    }
}
