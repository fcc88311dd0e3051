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

/**
 * The dgx-b200 preset names its devices as the public DGX B200 dumps show them (NVIDIA/nccl #1646's
 * NCCL_IB_HCA; nvidia-smi topo -m in vllm-project/vllm #32862 and #42186), and its non-compute ports stay
 * out of GPU lanes unless named.
 */
class DgxB200DeviceNamesTest {

    /** GPU k's port: the eight names of NCCL_IB_HCA in nccl #1646, each PXB to its GPU in the vllm dumps. */
    private static final String[] COMPUTE = {"mlx5_4", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10", "mlx5_13", "mlx5_14",
        "mlx5_15"};
    private static final List<String> OTHERS = List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_5", "mlx5_6",
            "mlx5_11", "mlx5_12");

    private static StackProfile stack(String env) {
        return new StackProfile(org.rdmasim.transport.config.TestEnv.parse(env, "test"), Optional.empty(),
                StackVersion.parse("1.20.0"));
    }

    private static LaneDecision decide(String env, String gpu) {
        Cluster cluster = new Cluster(List.of(new Host("a", Presets.get("dgx-b200")), new Host("b", Presets.get("dgx-b200"))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("a", gpu), new Endpoint("b", gpu), 1L << 30,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        return new UcxLaneSelection(stack(env), UcxLaneSelection.Api.RMA).decide(cluster, ts);
    }

    private static List<String> pickedNics(LaneDecision d) {
        return d.picked().stream().map(LaneSplit.Candidate::sinkNic).distinct().toList();
    }

    @Test
    void eachGpuSitsBesideThePortTheDumpsShowNearestIt() {
        Host h = new Host("a", Presets.get("dgx-b200"));
        for (int g = 0; g < 8; g++) {
            TopologyNode gpu = h.gpu("GPU" + g);
            TopologyNode nic = h.nic(COMPUTE[g]);
            assertSame(gpu.parent(), nic.parent(), "one PCIe switch tree holds GPU" + g + " and " + COMPUTE[g]);
            assertEquals(COMPUTE[g], h.nearestNic(gpu).name());
            assertEquals(g < 4 ? 0 : 1, nic.socket(), COMPUTE[g]);
            assertEquals(NicRole.COMPUTE, nic.nic().role());
            assertEquals(LinkLayer.INFINIBAND, nic.nic().linkLayer());
        }
        assertEquals(16, h.nics().size());
        assertEquals(OTHERS, h.listedOnlyNics().stream().sorted((x, y) -> Integer.compare(
                Integer.parseInt(x.substring(5)), Integer.parseInt(y.substring(5)))).toList());
    }

    /** vllm #32862: mlx5_0-9 NODE to GPU0 (socket 0), mlx5_10-15 SYS; #42186: mlx5_5 and mlx5_6 PIX to each other. */
    @Test
    void nonComputePortsSitOnTheDumpsSocketsAndBesideNoGpu() {
        Host h = new Host("a", Presets.get("dgx-b200"));
        for (String name : OTHERS) {
            TopologyNode port = h.nic(name);
            int number = Integer.parseInt(name.substring(5));
            assertEquals(number <= 9 ? 0 : 1, port.socket(), name);
            assertEquals(NicRole.STORAGE, port.nic().role(), name);
            for (TopologyNode gpu : h.gpus()) {
                PathType r = h.relation(gpu, port);
                assertEquals(gpu.socket() == port.socket() ? PathType.NODE : PathType.SYS, r, gpu.name() + "-" + name);
            }
        }
        assertSame(h.nic("mlx5_5").parent(), h.nic("mlx5_6").parent(), "one dual-port card");
        assertEquals(PathType.PIX, h.relation(h.nic("mlx5_5"), h.nic("mlx5_6")));
    }

    @Test
    void ucxNetDevicesMlx5ThirteenIsGpuFivesPortAndIsAcceptedWithoutWarning() {
        LaneDecision d = decide("export UCX_NET_DEVICES=mlx5_13:1", "GPU5");
        assertEquals(List.of("mlx5_13"), pickedNics(d));
        assertTrue(d.warnings().stream().noneMatch(w -> w.contains("not available")), d.warnings().toString());
        assertEquals(PathType.PIX, d.local().get(0).relation());
        // mlx5_4 is GPU0's own port, two sockets away from GPU5
        LaneDecision d0 = decide("export UCX_NET_DEVICES=mlx5_4:1", "GPU5");
        assertEquals(PathType.SYS, d0.local().get(0).relation());
    }

    @Test
    void nonComputePortsAreNoLaneCandidatesUnderAllButAreWhenListed() {
        LaneDecision all = decide("export UCX_NET_DEVICES=all\nexport UCX_MAX_RMA_RAILS=16\n"
                + "export UCX_MULTI_LANE_MAX_RATIO=1000", "GPU0");
        List<String> candidates = all.local().stream().map(HcaEstimate::nic).toList();
        assertEquals(List.of(COMPUTE).stream().sorted().toList(), candidates.stream().sorted().toList());
        for (String s : OTHERS) {
            assertFalse(pickedNics(all).contains(s), s + " under UCX_NET_DEVICES=all");
        }
        LaneDecision listed = decide("export UCX_NET_DEVICES=mlx5_4:1,mlx5_5:1\nexport UCX_MAX_RMA_RAILS=2\n"
                + "export UCX_MULTI_LANE_MAX_RATIO=1000", "GPU0");
        assertEquals(List.of("mlx5_4", "mlx5_5"), pickedNics(listed));
    }
}
