package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.backend.PegaflowBackend;
import org.rdmasim.transport.pegaflow.PegaflowLanes;
import org.rdmasim.workload.TransferItem;

/**
 * pegaflow deals a batch's descriptors over the HCAs of their local pages' NUMA node and posts HCA k to the
 * peer's HCA k (novitalabs/pegaflow e6c55f1 pegaflow-transfer/src/rc_backend/mod.rs L85-93, L376-420), with
 * qps_per_peer QPs per pair (PR #291).
 */
class PegaflowBackendTest {
    private static final String HOSTS = """
            hosts:
              a: {preset: dgx-h100, linkLayer: roce}
              b: {preset: dgx-h100, linkLayer: roce}
            """;

    private static List<LaneSplit.Candidate> lanes(String transport, String from, String to) {
        VariantSpec v = ScenarioLoader.parse("name: p\n" + HOSTS + "transport:\n" + transport
                + "workload:\n  transfers:\n    - {from: \"" + from + "\", to: \"" + to + "\", size: 1 GB}\n",
                "p.yaml").variants().get(0);
        PegaflowBackend backend = assertInstanceOf(PegaflowBackend.class, v.transport().backend());
        List<Host> hosts = new ArrayList<>();
        v.hosts().forEach((n, s) -> hosts.add(new Host(n, s)));
        TransferItem t = v.transfers().get(0);
        TransferSpec spec = new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                DataPath.HOST_MEMORY, DataPath.HOST_MEMORY, false, 0);
        return new PegaflowLanes(backend.visibleDevices(), backend.qpsPerPeer()).lanes(Hosts.of(hosts), spec);
    }

    @Test
    void aSocketsBufferUsesItsNodesHcasEachPairedWithThePeersSameIndexHca() {
        String t = "  backend: pegaflow\n  operation: write\n  qpsPerPeer: 1\n"
                + "  visibleDevices: [mlx5_0, mlx5_3, mlx5_6, mlx5_9]\n";
        assertEquals(List.of(new LaneSplit.Candidate("mlx5_6", "mlx5_6", 1.0),
                new LaneSplit.Candidate("mlx5_9", "mlx5_9", 1.0)), lanes(t, "a:CPU1", "b:CPU0"),
                "the local (source) buffer's node routes; the peer's buffer location plays no part");
    }

    @Test
    void aReadIsRoutedByTheInitiatorsBufferAndQpsMultiplyLanes() {
        String t = "  backend: pegaflow\n  operation: read\n  qpsPerPeer: 2\n"
                + "  visibleDevices: [mlx5_0, mlx5_3, mlx5_6, mlx5_9]\n";
        List<LaneSplit.Candidate> l = lanes(t, "a:CPU1", "b:CPU0");
        // READ: b pulls into its CPU0 buffer, so b's socket-0 HCAs route; lanes stay source -> sink
        assertEquals(4, l.size());
        assertEquals(List.of("mlx5_0", "mlx5_0", "mlx5_3", "mlx5_3"), l.stream().map(LaneSplit.Candidate::sinkNic).toList());
        assertEquals(List.of("mlx5_0", "mlx5_0", "mlx5_3", "mlx5_3"), l.stream().map(LaneSplit.Candidate::sourceNic).toList());
    }

    @Test
    void allHcasOnOneNodeFallBackToEveryHcaAndTheDefaultIsTwoQps() {
        String t = "  backend: pegaflow\n  operation: write\n  visibleDevices: [mlx5_0, mlx5_3]\n";
        List<LaneSplit.Candidate> l = lanes(t, "a:CPU1", "b:CPU1");
        assertEquals(4, l.size(), "socket 1's buffer, HCAs all on socket 0: round-robin over both, 2 QPs each");
        assertTrue(l.stream().allMatch(c -> c.sourceNic().equals(c.sinkNic())));
    }

    @Test
    void qpsPerPeerBelongsToPegaflowOnly() {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> lanes("  backend: mooncake\n  qpsPerPeer: 2\n", "a:CPU0", "b:CPU0"));
        assertTrue(e.getMessage().contains("pegaflow"), e.getMessage());
    }
}
