package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.CalibrationProfile;
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
import org.rdmasim.transport.config.ModelExpressBuild;
import org.rdmasim.transport.config.StackVersion;
import org.rdmasim.transport.config.UcxInstall;

/**
 * The dgx-gb200-tray preset names its ports as NVIDIA Mission Control's North-South network guide
 * for GB200 does, and its BlueField-3 ports stay out of GPU lanes unless named.
 */
class DgxGb200TrayDeviceNamesTest {
    private static final String PRESET = "dgx-gb200-tray";
    private static final List<String> COMPUTE = List.of("mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5");
    private static final List<String> BLUEFIELD = List.of("mlx5_2", "mlx5_3", "mlx5_6", "mlx5_7");

    private static StackProfile stack(String env, ModelExpressBuild mx) {
        Optional<StackVersion> nixl = Optional.of(StackVersion.parse("1.1.0"));
        return new StackProfile(org.rdmasim.transport.config.TestEnv.parse(env, "test"), nixl,
                StackVersion.parse("1.20.0"), UcxInstall.commonFor(nixl), false, mx);
    }

    private static LaneDecision decide(String env, ModelExpressBuild mx, String gpu) {
        Cluster cluster = new Cluster(List.of(new Host("a", Presets.get(PRESET)), new Host("b", Presets.get(PRESET))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("a", gpu), new Endpoint("b", gpu), 1L << 30,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        return new UcxLaneSelection(stack(env, mx), UcxLaneSelection.Api.RMA).decide(cluster, ts);
    }

    private static List<String> pickedNics(LaneDecision d) {
        return d.picked().stream().map(LaneSplit.Candidate::sinkNic).distinct().sorted().toList();
    }

    @Test
    void portsSitOnTheirGraceWithTheLinkLayerTheGuideGives() {
        Host h = new Host("a", Presets.get(PRESET));
        assertEquals(8, h.nics().size());
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"),
                h.nics().stream().map(TopologyNode::name).toList(), "PCI order");
        Map<String, Integer> grace = Map.of("mlx5_0", 0, "mlx5_1", 0, "mlx5_2", 0, "mlx5_3", 0,
                "mlx5_4", 1, "mlx5_5", 1, "mlx5_6", 1, "mlx5_7", 1);
        grace.forEach((nic, socket) -> assertEquals(socket, h.nic(nic).socket(), nic));
        for (String c : COMPUTE) {
            assertEquals(LinkLayer.INFINIBAND, h.nic(c).nic().linkLayer(), c);
            assertEquals(NicRole.COMPUTE, h.nic(c).nic().role(), c);
            assertEquals(400.0, h.nic(c).nic().lineRateGbps(), c);
        }
        for (String b : BLUEFIELD) {
            assertEquals(LinkLayer.ROCE, h.nic(b).nic().linkLayer(), b + " is an Ethernet port");
            assertEquals(NicRole.STORAGE, h.nic(b).nic().role(), b);
        }
        assertEquals(BLUEFIELD, List.copyOf(h.listedOnlyNics()));
        assertEquals(COMPUTE, h.computeNics().stream().map(TopologyNode::name).toList());
        // one BlueField-3's two ports share its card's link
        assertEquals(h.nic("mlx5_2").parent(), h.nic("mlx5_3").parent());
        assertEquals(h.nic("mlx5_6").parent(), h.nic("mlx5_7").parent());
        // Grace-attached: NODE on its own Grace, SYS across, never PIX
        for (TopologyNode gpu : h.gpus()) {
            for (TopologyNode nic : h.nics()) {
                PathType expected = gpu.socket() == nic.socket() ? PathType.NODE : PathType.SYS;
                assertEquals(expected, h.relation(gpu, nic), gpu.name() + " to " + nic.name());
            }
        }
        assertEquals("mlx5_0", h.nearestNic(h.gpu("GPU0")).name());
        assertEquals("mlx5_4", h.nearestNic(h.gpu("GPU2")).name());
    }

    @Test
    void sharesGb200TraysGraceAndGpusButNotItsRoceCalibration() {
        var cloud = Presets.get("gb200-tray");
        var dgx = Presets.get(PRESET);
        for (int s = 0; s < 2; s++) {
            var a = cloud.sockets().get(s);
            var b = dgx.sockets().get(s);
            assertEquals(a.memoryBandwidth(), b.memoryBandwidth());
            assertEquals(a.cpuAffinity(), b.cpuAffinity());
            assertEquals(a.devices().subList(0, 2), b.devices().subList(0, 2), "the same two B200 on C2C");
        }
        assertEquals(cloud.interSocket(), dgx.interSocket());
        // gb200-roce's 308 Gbps was measured on RoCE ConnectX-7s; this tray's compute ports are InfiniBand
        assertEquals("connectx7", CalibrationProfile.forHost(dgx).name());
        assertEquals("gb200-roce", CalibrationProfile.forHost(cloud).name());
    }

    @Test
    void blueFieldPortsAreNoLaneCandidatesUnderAll() {
        LaneDecision all = decide("export UCX_NET_DEVICES=all\nexport UCX_MAX_RMA_RAILS=16\n"
                + "export UCX_MULTI_LANE_MAX_RATIO=1000", ModelExpressBuild.LATEST_RELEASE, "GPU0");
        assertEquals(COMPUTE, all.local().stream().map(HcaEstimate::nic).sorted().toList());
        assertEquals(COMPUTE, pickedNics(all));
    }

    @Test
    void modelExpressStripeListsTheFourComputePortsAndUcxKeepsTheGpusGrace() {
        ModelExpressBuild stripe = ModelExpressBuild.parse("kavink/multi-nic-stripe-mode");
        LaneDecision d = decide("export MX_RDMA_NIC_PIN=stripe", stripe, "GPU0");
        assertEquals("mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1", d.initiatorConfig().get("UCX_NET_DEVICES").orElseThrow().rawValue());
        assertEquals(COMPUTE, d.local().stream().map(HcaEstimate::nic).sorted().toList());
        // the other Grace's ports are SYS to GPU0: UCX's distance estimate drops them by the lane ratio
        assertEquals(List.of("mlx5_0", "mlx5_1"), pickedNics(d));
        assertEquals(List.of("mlx5_4", "mlx5_5"), pickedNics(decide("export MX_RDMA_NIC_PIN=stripe", stripe, "GPU2")));
        // stripe's UCX_MAX_RMA_RAILS=4 is filled by the near ports' two paths each; with 8 rails and the ratio
        // lifted the far Grace's ports join
        LaneDecision wide = decide("export MX_RDMA_NIC_PIN=stripe\nexport UCX_MAX_RMA_RAILS=8\n"
                + "export UCX_MULTI_LANE_MAX_RATIO=1000", stripe, "GPU0");
        assertEquals(COMPUTE, pickedNics(wide));
        assertTrue(wide.warnings().isEmpty(), wide.warnings().toString());
    }

    @Test
    void aListOfMlx5ZeroToThreeNamesTwoBlueFieldPortsAndGetsThem() {
        // gb200-tray's four names on this tray: two are the left BlueField-3's ports. As with dgx-h100's
        // storage ports, a port named by the user is a lane, without a warning
        LaneDecision d = decide("export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1\n"
                + "export UCX_MAX_RMA_RAILS=4", ModelExpressBuild.LATEST_RELEASE, "GPU0");
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), pickedNics(d));
        assertTrue(d.warnings().stream().noneMatch(w -> w.contains("not available")), d.warnings().toString());
    }
}
