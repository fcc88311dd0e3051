package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicRole;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.StackVersion;

/** The dgx-h100 preset names its devices as the DGX H100 user guide does, and storage ports stay out of GPU lanes. */
class DgxH100DeviceNamesTest {

    private static StackProfile stack(String env) {
        return new StackProfile(org.rdmasim.transport.config.TestEnv.parse(env, "test"), Optional.empty(),
                StackVersion.parse("1.20.0"));
    }

    private static LaneDecision decide(String env, String gpu) {
        Cluster cluster = new Cluster(List.of(new Host("a", Presets.get("dgx-h100")), new Host("b", Presets.get("dgx-h100"))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("a", gpu), new Endpoint("b", gpu), 1L << 30,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        return new UcxLaneSelection(stack(env), UcxLaneSelection.Api.RMA).decide(cluster, ts);
    }

    private static List<String> pickedNics(LaneDecision d) {
        return d.picked().stream().map(LaneSplit.Candidate::sinkNic).distinct().toList();
    }

    @Test
    void eachGpuSharesItsSwitchWithThePortTheGuideNames() {
        Host h = new Host("a", Presets.get("dgx-h100"));
        String[] guide = {"mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"};
        for (int g = 0; g < 8; g++) {
            TopologyNode gpu = h.gpu("GPU" + g);
            TopologyNode nic = h.nic(guide[g]);
            assertEquals(PathType.PIX, h.relation(gpu, nic), "GPU" + g + " and " + guide[g]);
            assertSame(gpu.parent(), nic.parent(), "one PCIe switch holds GPU" + g + " and " + guide[g]);
            assertEquals(gpu.socket(), nic.socket());
            assertEquals(guide[g], h.nearestNic(gpu).name());
        }
        assertEquals(12, h.nics().size());
        assertEquals(List.of("mlx5_1", "mlx5_2", "mlx5_7", "mlx5_8"), List.copyOf(h.listedOnlyNics()));
        for (String s : h.listedOnlyNics()) {
            assertEquals(NicRole.STORAGE, h.nic(s).nic().role());
            for (TopologyNode gpu : h.gpus()) {
                assertTrue(h.relation(gpu, h.nic(s)).compareTo(PathType.PIX) > 0, s + " is no GPU's switch mate");
            }
        }
        assertEquals(0, h.nic("mlx5_1").socket());
        assertEquals(1, h.nic("mlx5_8").socket());
    }

    /** The guide's Table 5: slot 2 (bus 0x29) is mlx5_1-2 on CPU 0, slot 1 (0xaa) mlx5_7-8 on CPU 1; port 1 IB, port 2 Ethernet. */
    @Test
    void storageCardsSitOnTheSocketsAndLinkLayersOfTheGuidesPortTable() {
        Host h = new Host("a", Presets.get("dgx-h100"));
        assertEquals(0, h.nic("mlx5_2").socket());
        assertEquals(1, h.nic("mlx5_7").socket());
        assertSame(h.nic("mlx5_1").parent(), h.nic("mlx5_2").parent(), "one card, two ports");
        assertSame(h.nic("mlx5_7").parent(), h.nic("mlx5_8").parent(), "one card, two ports");
        assertEquals(LinkLayer.INFINIBAND, h.nic("mlx5_1").nic().linkLayer());
        assertEquals(LinkLayer.INFINIBAND, h.nic("mlx5_7").nic().linkLayer());
        assertEquals(LinkLayer.ROCE, h.nic("mlx5_2").nic().linkLayer());
        assertEquals(LinkLayer.ROCE, h.nic("mlx5_8").nic().linkLayer());
        for (TopologyNode nic : h.computeNics()) {
            assertEquals(LinkLayer.INFINIBAND, nic.nic().linkLayer(), nic.name());
        }
    }

    @Test
    void ucxNetDevicesMlx5NineIsGpuFivesPortAndIsAcceptedWithoutWarning() {
        LaneDecision d = decide("export UCX_NET_DEVICES=mlx5_9:1", "GPU5");
        assertEquals(List.of("mlx5_9"), pickedNics(d));
        assertTrue(d.warnings().stream().noneMatch(w -> w.contains("not available")), d.warnings().toString());
        assertEquals(PathType.PIX, d.local().get(0).relation());
        // and mlx5_5 is GPU3's own port
        LaneDecision d3 = decide("export UCX_NET_DEVICES=mlx5_5:1", "GPU3");
        assertEquals(PathType.PIX, d3.local().get(0).relation());
    }

    @Test
    void storagePortsAreNoLaneCandidatesUnderAllButAreWhenListed() {
        LaneDecision all = decide("export UCX_NET_DEVICES=all\nexport UCX_MAX_RMA_RAILS=16\nexport UCX_MULTI_LANE_MAX_RATIO=1000", "GPU0");
        List<String> candidates = all.local().stream().map(HcaEstimate::nic).toList();
        assertEquals(8, candidates.size(), candidates.toString());
        for (String s : List.of("mlx5_1", "mlx5_2", "mlx5_7", "mlx5_8")) {
            assertFalse(candidates.contains(s), s + " under UCX_NET_DEVICES=all");
            assertFalse(pickedNics(all).contains(s));
        }
        LaneDecision listed = decide("export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\nexport UCX_MAX_RMA_RAILS=2\n"
                + "export UCX_MULTI_LANE_MAX_RATIO=1000", "GPU0");
        assertEquals(List.of("mlx5_0", "mlx5_1"), pickedNics(listed));
    }
}
