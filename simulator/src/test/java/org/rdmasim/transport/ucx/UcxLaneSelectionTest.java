package org.rdmasim.transport.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.Presets;
import org.rdmasim.importers.env.EnvBlock;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Lane;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ProtocolParameters;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.StackVersion;

class UcxLaneSelectionTest {
    private static final long SIZE = 16_000_000_000L;

    /** One GPU and four NICs under one PCIe switch (all PIX), with links wide enough not to limit. */
    private static HostSpec fourPixNics() {
        List<HostSpec.DeviceSpec> under = new ArrayList<>();
        under.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(1e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        for (int i = 0; i < 4; i++) {
            under.add(HostSpec.NicSpec.of("mlx5_" + i, NicModel.CX7, LinkLayer.INFINIBAND));
        }
        HostSpec.SwitchSpec sw = new HostSpec.SwitchSpec("sw0", LinkSpec.c2c(1e12), under);
        return new HostSpec("four-pix", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 0,
                List.of(new HostSpec.SocketSpec(0, 1e12, 1L << 40, "", List.of(sw))), "test");
    }

    private static StackProfile stack(String env, String nixl) {
        return new StackProfile(EnvBlock.parse(env, "test").entries(),
                nixl == null ? Optional.empty() : Optional.of(StackVersion.parse(nixl)), StackVersion.parse("1.20.0"));
    }

    private record Outcome(LaneDecision decision, TransferResult result) {
    }

    private static Outcome pull(HostSpec spec, StackProfile stack) {
        SimulationClock clock = new SimulationClock();
        Cluster cluster = new Cluster(List.of(new Host("src", spec), new Host("dst", spec)), FabricSpec.nonBlocking(),
                new FluidNetwork(clock));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        UcxLaneSelection selection = new UcxLaneSelection(stack, UcxLaneSelection.Api.RMA);
        LaneDecision d = selection.decide(cluster, ts);
        LanePolicy.Plan plan = selection.plan(cluster, ts);
        List<TransferResult> out = new ArrayList<>();
        new TransferEngine(cluster, ProtocolParameters.defaults()).post(ts, LaneSplit.split(SIZE, plan.lanes(), plan.minChunk()),
                out::add);
        clock.run();
        return new Outcome(d, out.get(0));
    }

    @Test
    void fourRailsOnFourEquivalentPixNicsGiveTwiceTwoRails() {
        Outcome two = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=2", null));
        Outcome four = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=4", null));
        assertEquals(2, two.decision().lanes().size());
        assertEquals(4, four.decision().lanes().size());
        assertEquals(2.0, four.result().gbps() / two.result().gbps(), 0.01);
    }

    @Test
    void equalHcasSplitEvenly() {
        Outcome four = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=4", null));
        List<Lane> lanes = LaneSplit.split(SIZE, four.decision().lanes(), 8192);
        assertEquals(SIZE, lanes.stream().mapToLong(Lane::bytes).sum());
        for (Lane l : lanes) {
            assertEquals(SIZE / 4.0, l.bytes(), SIZE * 2.0 / 65536);
        }
    }

    @Test
    void nixlDefaultsGiveTwoRailsAndAUserSettingWins() {
        assertEquals(2, pull(fourPixNics(), stack("", "1.1.0")).decision().lanes().size());
        assertEquals(1, pull(fourPixNics(), stack("", null)).decision().lanes().size(), "UCX's own default is 1 rail");
        assertEquals(3, pull(fourPixNics(), stack("export UCX_MAX_RMA_RAILS=3", "1.1.0")).decision().lanes().size());
    }

    @Test
    void ratioFilterKeepsCrossSocketNicsOut() {
        // gb200-tray: GPU0's Grace has mlx5_0 and mlx5_1 (NODE, 17 GB/s estimate); the other Grace's
        // mlx5_2 and mlx5_3 are SYS (0.22 GB/s), more than 4x below, so 4 rails still give 2 lanes.
        Outcome o = pull(Presets.get("gb200-tray"), stack("UCX_MAX_RMA_RAILS=4", null));
        List<String> sinks = o.decision().lanes().stream().map(LaneSplit.Candidate::sinkNic).toList();
        assertEquals(List.of("mlx5_0", "mlx5_1"), sinks);
        for (HcaEstimate e : o.decision().local()) {
            if (e.nic().equals("mlx5_2") || e.nic().equals("mlx5_3")) {
                assertTrue(e.verdict().startsWith("dropped"), e.toString());
            }
        }
        // With the ratio opened up UCX takes them, weighted by its (tiny) estimate.
        Outcome forced = pull(Presets.get("gb200-tray"), stack("UCX_MAX_RMA_RAILS=4\nUCX_MULTI_LANE_MAX_RATIO=1000", null));
        assertEquals(4, forced.decision().lanes().size());
    }

    @Test
    void pinnedNicComesFromModelExpress() {
        Outcome o = pull(Presets.get("dgx-h100"), stack("MX_RDMA_NIC_PIN=auto", "1.1.0"));
        assertEquals(1, o.decision().lanes().size());
        assertEquals("mlx5_0", o.decision().lanes().get(0).sinkNic());
    }

    @Test
    void estimatesSkewTheSplitAndThePixLaneStraggles() {
        // DGX H100, 2 rails: the PIX NIC (49.5 GB/s estimate) and a NODE NIC (17.8 GB/s) pass the ratio
        // filter; bytes are split ~74/26. Both lanes leave through GPU0's one PCIe link (P = 56.4 GB/s)
        // and share it equally until the short NODE lane ends; the PIX lane then runs alone at one QP's
        // READ rate and finishes last while the NODE NIC idles.
        Outcome o = pull(Presets.get("dgx-h100"), stack("UCX_MAX_RMA_RAILS=2", null));
        List<LaneSplit.Candidate> lanes = o.decision().lanes();
        assertEquals("mlx5_0", lanes.get(0).sinkNic());
        double share = lanes.get(0).weight() / (lanes.get(0).weight() + lanes.get(1).weight());
        assertEquals(0.735, share, 0.01);
        double pcie = PcieGen.GEN5.payloadBytesPerSecond(16);
        double pixBytes = SIZE * share;
        double nodeBytes = SIZE - pixBytes;
        double phase1 = nodeBytes / (pcie / 2);
        double expected = phase1 + (pixBytes - nodeBytes) / NicModel.CX7.readBytesPerSecondPerPath();
        assertEquals(expected, o.result().seconds(), 1e-4);
        assertTrue(o.result().gbps() < 2 * 304, "well below two lanes at the READ rate");
    }

    @Test
    void unknownDeviceWarnsAndEmptySelectionFails() {
        Outcome o = pull(Presets.get("dgx-h100"), stack("UCX_NET_DEVICES=mlx5_0:1,mlx5_9:1", null));
        assertTrue(o.decision().warnings().stream().anyMatch(w -> w.contains("mlx5_9")), o.decision().warnings().toString());
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> pull(Presets.get("dgx-h100"), stack("UCX_NET_DEVICES=mlx5_9:1", null)));
    }

    @Test
    void pcieEstimateMatchesUcxModel() {
        Host h = new Host("h", Presets.get("dgx-h100"));
        HcaEstimate e = UcxLaneSelection.estimates(h, h.gpu("GPU0"), StackProfile.plainUcx().configFor(h, h.gpu("GPU0")),
                new ArrayList<>()).get(0);
        assertEquals("mlx5_0", e.nic());
        assertEquals(PcieGen.GEN5.payloadBytesPerSecond(16), e.pcieBytesPerSecond(), 1);
        assertEquals(400e9 / 8 * 4096 / 4140, e.estimate(), 1e6);
    }
}
