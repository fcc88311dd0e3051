package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.backend.MooncakeBackend;
import org.rdmasim.transport.backend.RegistrationSites;
import org.rdmasim.transport.mooncake.MooncakeLanes;
import org.rdmasim.transport.mooncake.MooncakeTopology;
import org.rdmasim.workload.TransferItem;

/**
 * Mooncake's Transfer Engine picks HCAs from its topology matrix (kvcache-ai/Mooncake 3b5a59413
 * mooncake-transfer-engine/src/topology.cpp): cpu:N prefers the HCAs whose numa_node is N (L473-480),
 * cuda:N the HCAs at the smallest PCIe distance on its NUMA node (L553-587), and a first attempt draws
 * only from the preferred list (L777-780).
 */
class MooncakeBackendTest {
    private static VariantSpec variant(String yaml) {
        return ScenarioLoader.parse(yaml, "mooncake.yaml").variants().get(0);
    }

    private static List<String> names(List<TopologyNode> nics) {
        return nics.stream().map(TopologyNode::name).toList();
    }

    @Test
    void hostMemoryPrefersItsOwnNumaNodesHcasOnly() {
        Host h = new Host("h", Presets.get("dgx-h100"));
        // the storage cards' ports (mlx5_1-2 on CPU 0, mlx5_7-8 on CPU 1) count too: the engine opens every RDMA
        // device it finds unless MC_TE_FILTERS names some
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5"),
                names(MooncakeTopology.preferred(h, h.find("CPU0").orElseThrow(), List.of())));
        assertEquals(List.of("mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10", "mlx5_11"),
                names(MooncakeTopology.preferred(h, h.find("CPU1").orElseThrow(), List.of())));
    }

    @Test
    void aGpuPrefersTheHcaBehindItsOwnSwitch() {
        Host h = new Host("h", Presets.get("dgx-h100"));
        assertEquals(List.of("mlx5_9"), names(MooncakeTopology.preferred(h, h.gpu("GPU5"), List.of())));
        // GB200: no HCA shares a switch with a GPU; both of the Grace's HCAs are at the same distance
        Host g = new Host("g", Presets.get("gb200-tray"));
        assertEquals(List.of("mlx5_2", "mlx5_3"), names(MooncakeTopology.preferred(g, g.gpu("GPU2"), List.of())));
    }

    @Test
    void aSocketBufferSpreadsOverEveryPairOfPreferredHcasAndNeverCrossesToTheOtherSocket() {
        VariantSpec v = variant("""
                name: mc
                hosts:
                  a: {preset: dgx-h100, linkLayer: roce}
                  b: {preset: dgx-h100, linkLayer: roce}
                transport:
                  backend: mooncake
                  operation: write
                  descriptors: 1000
                workload:
                  transfers:
                    - {from: "a:CPU1", to: "b:CPU0", size: 4 GB}
                """);
        assertInstanceOf(MooncakeBackend.class, v.transport().backend());
        List<Host> hosts = new ArrayList<>();
        v.hosts().forEach((n, s) -> hosts.add(new Host(n, s)));
        TransferItem t = v.transfers().get(0);
        TransferSpec spec = new TransferSpec(t.id(), t.from(), t.to(), t.bytes(), t.operation(), t.descriptors(),
                DataPath.HOST_MEMORY, DataPath.HOST_MEMORY, false, 0);
        List<LaneSplit.Candidate> lanes = MooncakeLanes.lanes(Hosts.of(hosts), spec, List.of());
        assertEquals(36, lanes.size(), "6 source HCAs x 6 sink HCAs (4 compute and 2 storage ports a socket)");
        Set<String> src = new TreeSet<>();
        Set<String> dst = new TreeSet<>();
        for (LaneSplit.Candidate c : lanes) {
            src.add(c.sourceNic());
            dst.add(c.sinkNic());
            assertEquals(1.0, c.weight());
        }
        assertEquals(Set.of("mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10", "mlx5_11"), src, "a:CPU1's own socket");
        assertEquals(Set.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5"), dst, "b:CPU0's own socket");
        // registration: every HCA the engine opened, one MR each (rdma_transport.cpp L489-495)
        RegistrationSites sites = VariantRunner.sites(v).of(hosts.get(0), "CPU1");
        assertEquals(new RegistrationSites.OnDevices(names(hosts.get(0).nics()), 1), sites);
    }

    @Test
    void mcTeFiltersKeepsTheEngineOffTheOtherHcasEvenOnTheBuffersSocket() {
        Host h = new Host("h", Presets.get("dgx-h100"));
        List<String> filters = List.of("mlx5_0", "mlx5_3", "mlx5_6", "mlx5_9");
        assertEquals(List.of("mlx5_0", "mlx5_3"), names(MooncakeTopology.preferred(h, h.find("CPU0").orElseThrow(),
                filters)));
        // GPU2's own HCA (mlx5_4) is filtered out: the nearest opened HCAs on its NUMA node are preferred
        assertEquals(List.of("mlx5_0", "mlx5_3"), names(MooncakeTopology.preferred(h, h.gpu("GPU2"), filters)));
        assertEquals(filters, new MooncakeBackend(filters).registration(null, h, h.gpu("GPU2"), true) instanceof
                RegistrationSites.OnDevices d ? d.devices() : List.of());
    }

    @Test
    void efaHostsAreRefusedBecauseTheEngineUsesItsEfaTransportThere() {
        Host h = new Host("a", Presets.get("p5.48xlarge"));
        Host g = new Host("b", Presets.get("p5.48xlarge"));
        TransferSpec t = new TransferSpec("t", new org.rdmasim.transport.Endpoint("a", "CPU0"),
                new org.rdmasim.transport.Endpoint("b", "CPU0"), 1 << 30, org.rdmasim.transport.Operation.WRITE, 1,
                DataPath.HOST_MEMORY, DataPath.HOST_MEMORY, false, 0);
        var e = assertThrows(org.rdmasim.transport.backend.BackendRefusal.class,
                () -> new MooncakeBackend(List.of()).checkLanes(null, Hosts.of(List.of(h, g)), List.of(t)));
        assertTrue(e.getMessage().contains("EFA transport"), e.getMessage());
    }

    @Test
    void nixlBeforeItsMooncakePluginIsRefused() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> variant("""
                name: mc
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  nixl: "0.2.0"
                  backend: mooncake
                workload:
                  transfers:
                    - {from: "a:CPU0", to: "b:CPU0", size: 1 GB}
                """));
        assertTrue(e.getMessage().contains("0.2.1"), e.getMessage());
    }

    private static final String TWO_HOSTS = """
            name: t
            hosts:
              a: {preset: dgx-h100, linkLayer: roce}
              b: {preset: dgx-h100, linkLayer: roce}
            transport:
              backend: mooncake
              operation: write
              descriptors: 64
            %s
            workload:
              transfers:
            %s
            """;

    private static org.rdmasim.workload.RunResult run(String transport, String transfers) {
        VariantSpec v = variant(String.format(TWO_HOSTS, transport, transfers));
        org.rdmasim.workload.VariantOutcome o = VariantRunner.run(v, 1);
        assertEquals(org.rdmasim.workload.VariantOutcome.Status.OK, o.status(), o.error());
        return o.result();
    }

    @Test
    void aGpusTransferRunsAtItsContextThreadBelowTheNicsWire() {
        // 64 requests of 1 MiB from GPU0 over its own NIC (mlx5_0, 400G: 48.9 GB/s of payload): every slice of
        // the context passes one thread, one 64 KiB slice every 3.304 us (calibrated), 19.8 GB/s
        var r = run("", "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 64 MiB}").transfers().get(0);
        double rate = r.spec().bytes() / r.seconds();
        double thread = 65536 / MooncakeBackend.DEFAULT_SLICE_THREAD_SECONDS;
        assertEquals(thread, rate, thread * 0.01);
        assertInstanceOf(org.rdmasim.hardware.Bottleneck.SliceThread.class, r.bottleneck());
        assertEquals("slice thread (a:mlx5_0), calibrated on MC-VLLM-KV-MARGIN", r.bottleneck().id());
    }

    @Test
    void aSliceThreadTheScenarioSetsIsNotCalledCalibrated() {
        // 2x the calibrated time a slice: the thread still binds, and the limit names the scenario's figure
        var r = run("  sliceThread: 6.608 us", "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 64 MiB}").transfers().get(0);
        assertInstanceOf(org.rdmasim.hardware.Bottleneck.SliceThread.class, r.bottleneck());
        assertEquals("slice thread (a:mlx5_0), the scenario's transport.sliceThread", r.bottleneck().id());
        assertFalse(r.bottleneck().words().contains("CALIBRATED"), r.bottleneck().words());
    }

    @Test
    void twoEnginesOnOneNicEachHaveTheirThreadAndAFasterThreadMovesTheRate() {
        // two ranks' engines on one NIC: a thread each, 39.7 GB/s together, under the NIC's 48.9
        var two = run("", "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 64 MiB}\n"
                + "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 64 MiB}").transfers();
        double thread = 65536 / MooncakeBackend.DEFAULT_SLICE_THREAD_SECONDS;
        for (var t : two) {
            assertEquals(thread, t.spec().bytes() / t.seconds(), thread * 0.01);
        }
        // half the time a slice: the NIC's wire binds instead (48.9 GB/s, shared by the two)
        var fast = run("  sliceThread: 1.652 us", "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 64 MiB}\n"
                + "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 64 MiB}").transfers();
        double sum = 0;
        for (var t : fast) {
            sum += t.spec().bytes() / t.seconds();
            assertFalse(t.bottleneck() instanceof org.rdmasim.hardware.Bottleneck.SliceThread);
        }
        assertTrue(sum < 2 * 2 * thread * 0.99, "the wire, not twice the threads' rate: " + sum);
    }

    @Test
    void sliceThreadBelongsToTheMooncakeBackend() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> variant("""
                name: t
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  sliceThread: 2 us
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GiB}
                """));
        assertTrue(e.getMessage().contains("sliceThread applies to the mooncake backend"), e.getMessage());
    }
}
