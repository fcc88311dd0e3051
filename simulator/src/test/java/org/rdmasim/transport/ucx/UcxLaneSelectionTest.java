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
        return pixNics(4);
    }

    /** One GPU and {@code n} NICs under one PCIe switch (all PIX), with links wide enough not to limit. */
    private static HostSpec pixNics(int n) {
        return pixNics(n, NicModel.CX7);
    }

    /** The same with NICs of {@code model}. */
    private static HostSpec pixNics(int n, NicModel model) {
        List<HostSpec.DeviceSpec> under = new ArrayList<>();
        under.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(1e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        for (int i = 0; i < n; i++) {
            under.add(HostSpec.NicSpec.of("mlx5_" + i, model, LinkLayer.INFINIBAND));
        }
        HostSpec.SwitchSpec sw = new HostSpec.SwitchSpec("sw0", LinkSpec.c2c(1e12), under);
        return new HostSpec("four-pix", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 0,
                List.of(new HostSpec.SocketSpec(0, 1e12, 1L << 40, "", List.of(sw))), "test");
    }

    private static StackProfile stack(String env, String nixl) {
        return new StackProfile(org.rdmasim.transport.config.TestEnv.parse(env, "test"),
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

    /** The NICs of the picked lanes, initiator side, in pick order of the lane list. */
    private static List<String> pickedNics(Outcome o) {
        return o.decision().picked().stream().map(LaneSplit.Candidate::sinkNic).toList();
    }

    /** The minimum-chunk rule UCX applies to a pull from {@code fourPixNics} at a release, for an API. */
    private static LaneSplit.MinChunk minChunk(String env, String ucx, UcxLaneSelection.Api api) {
        Cluster cluster = new Cluster(List.of(new Host("src", fourPixNics()), new Host("dst", fourPixNics())),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        StackProfile stack = new StackProfile(org.rdmasim.transport.config.TestEnv.parse(env, "t"), Optional.empty(),
                StackVersion.parse(ucx));
        return new UcxLaneSelection(stack, api).plan(cluster, ts).minChunk();
    }

    @Test
    void theMinimumChunkFollowsTheProtocolAndTheUcxRelease() {
        // get_offload.c / rndv_get.c pass MIN_RMA_CHUNK_SIZE / MIN_RNDV_CHUNK_SIZE as params.min_chunk (v1.20.0 L112, L50)
        assertEquals(LaneSplit.MinChunk.rma(8192), minChunk("", "1.20.0", UcxLaneSelection.Api.RMA));
        assertEquals(LaneSplit.MinChunk.rma(32768), minChunk("UCX_MIN_RMA_CHUNK_SIZE=32k", "1.22.0",
                UcxLaneSelection.Api.RMA));
        assertEquals(LaneSplit.MinChunk.rendezvous(16384), minChunk("", "1.22.0", UcxLaneSelection.Api.RENDEZVOUS));
        // v1.19.0: RMA passes min_chunk 0 and keeps only the UCP_MIN_BCOPY rule; rendezvous has no 64-byte floor
        assertEquals(LaneSplit.MinChunk.RMA_UNTIL_1_19, minChunk("UCX_MIN_RMA_CHUNK_SIZE=32k", "1.19.0",
                UcxLaneSelection.Api.RMA));
        assertEquals(new LaneSplit.MinChunk(16384, 0, LaneSplit.MinChunk.Split.RENDEZVOUS_END),
                minChunk("", "1.17.0", UcxLaneSelection.Api.RENDEZVOUS));
        // before v1.17.0 the rendezvous lanes end where their running weight says, no minimum
        assertEquals(new LaneSplit.MinChunk(0, 0, LaneSplit.MinChunk.Split.RENDEZVOUS_END),
                minChunk("", "1.16.0", UcxLaneSelection.Api.RENDEZVOUS));
        assertEquals(LaneSplit.MinChunk.rma(Long.MAX_VALUE), minChunk("UCX_MIN_RMA_CHUNK_SIZE=inf", "1.20.0",
                UcxLaneSelection.Api.RMA));
    }

    @Test
    void fourRailsOnFourEquivalentPixNicsUseFourDevicesBeforeSecondPaths() {
        // Each CX-7 port opens 2 paths (NDR, UCX >= 1.13). For a GET, path_ratio = 38e9 / 49.47e9 = 0.768:
        // a device's first path ranks at 0.768 x bw, its second at 0.232 x bw, so 4 rails take path0
        // of all four NICs, and 2 rails path0 of two NICs (proto_multi.c avail_bw, v1.20.0 L23-58).
        Outcome two = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=2", null));
        Outcome four = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=4", null));
        assertEquals(List.of("mlx5_0", "mlx5_1"), pickedNics(two));
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), pickedNics(four));
        assertEquals(2.0, four.result().gbps() / two.result().gbps(), 0.01);
    }

    @Test
    void railsCountLanesNotDevices() {
        // One NIC listed, 2 rails: UCX uses both paths of that NIC, 50% each (NIXL #1195's
        // "rc_mlx5/mlx5_0:1 50% on path0 and 50% on path1").
        Outcome o = pull(fourPixNics(), stack("UCX_NET_DEVICES=mlx5_0:1\nUCX_MAX_RMA_RAILS=2", null));
        List<LaneSplit.Candidate> lanes = o.decision().picked();
        assertEquals(2, lanes.size());
        assertEquals(List.of(0, 1), lanes.stream().map(LaneSplit.Candidate::path).toList());
        List<Lane> split = LaneSplit.split(SIZE, lanes, LaneSplit.MinChunk.rma(8192));
        assertEquals(SIZE / 2, split.get(0).bytes());
        // UCX_IB_NUM_PATHS=1 leaves one lane per device
        Outcome one = pull(fourPixNics(), stack("UCX_NET_DEVICES=mlx5_0:1\nUCX_MAX_RMA_RAILS=2\nUCX_IB_NUM_PATHS=1", null));
        assertEquals(1, one.decision().picked().size());
    }

    @Test
    void lanesSkipHcasMissingFromTheRegistration() {
        // proto_common.c (v1.20.0): a lane whose remote md is not in the rkey is not used. Only mlx5_0 holds the
        // buffers here, so 2 rails give both paths of the lane wired mlx5_0 to mlx5_0.
        SimulationClock clock = new SimulationClock();
        Cluster cluster = new Cluster(List.of(new Host("src", fourPixNics()), new Host("dst", fourPixNics())),
                FabricSpec.nonBlocking(), new FluidNetwork(clock));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        UcxLaneSelection onlyMlx50 = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=2", null), UcxLaneSelection.Api.RMA,
                (host, device, nic) -> nic.equals("mlx5_0"));
        LaneDecision d = onlyMlx50.decide(cluster, ts);
        assertEquals(List.of("mlx5_0", "mlx5_0"), d.picked().stream().map(LaneSplit.Candidate::sinkNic).toList());
        assertTrue(d.lanes().stream().filter(l -> !l.nic().equals("mlx5_0"))
                .allMatch(l -> l.verdict() == LaneVerdict.NOT_REGISTERED), d.lanes().toString());
        // the remote side alone lacking a registration is enough to skip the lane
        UcxLaneSelection remoteOnly = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=2", null), UcxLaneSelection.Api.RMA,
                (host, device, nic) -> !host.equals("src") || nic.equals("mlx5_3"));
        assertEquals(List.of("mlx5_3", "mlx5_3"), remoteOnly.decide(cluster, ts).picked().stream()
                .map(LaneSplit.Candidate::sourceNic).toList());
    }

    @Test
    void theInitiatorsOwnRegistrationNeverRemovesALane() {
        // Only the far end's rkey filters lanes (proto_common.c, ucp_proto_common_find_lanes); UCX registers the
        // initiator's buffer on a lane's device when the lane first uses it (datatype_iter.inl v1.20.0 L276-282).
        // The reader (dst) holds its buffer on mlx5_0 only, the source on all four: 4 rails still take 4 devices.
        Cluster cluster = new Cluster(List.of(new Host("src", fourPixNics()), new Host("dst", fourPixNics())),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        UcxLaneSelection readerOnMlx50 = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null),
                UcxLaneSelection.Api.RMA, (host, device, nic) -> !host.equals("dst") || nic.equals("mlx5_0"));
        LaneDecision d = readerOnMlx50.decide(cluster, ts);
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"),
                d.picked().stream().map(LaneSplit.Candidate::sinkNic).sorted().toList());
        assertEquals(List.of("mlx5_1", "mlx5_2", "mlx5_3"), d.registeredAtFirstUse());
        // the same decision with every buffer registered everywhere registers nothing late
        assertEquals(List.of(), new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts).registeredAtFirstUse());
    }

    @Test
    void aLaneIsWiredToItsOwnRemoteDeviceNotToWhicheverHoldsTheBuffer() {
        // Lanes are wired pairwise when the endpoint is made (select.c ucp_wireup_add_bw_lanes_pairwise), before
        // any buffer exists, one remote device per local one (rdmasim pairs them by rank): the source holds its
        // buffer on mlx5_2 only, so of the four lanes only the one wired to mlx5_2 survives the rkey, and no two
        // local devices crowd onto mlx5_2.
        Cluster cluster = new Cluster(List.of(new Host("src", fourPixNics()), new Host("dst", fourPixNics())),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null), UcxLaneSelection.Api.RMA,
                (host, device, nic) -> !host.equals("src") || nic.equals("mlx5_2")).decide(cluster, ts);
        assertEquals(List.of("mlx5_2"), d.picked().stream().map(LaneSplit.Candidate::sinkNic).distinct().toList());
        assertEquals(List.of("mlx5_2"), d.picked().stream().map(LaneSplit.Candidate::sourceNic).distinct().toList());
        assertEquals(3, d.nicVerdicts().values().stream().filter(v -> v == LaneVerdict.NOT_REGISTERED).count());
    }

    @Test
    void aRemoteHcaIsWiredOnceSoLocalHcasPastTheLastRemoteOneAreNotWired() {
        // ucp_wireup_add_bw_lanes_pairwise drops a remote device once its paths carry lanes: four local HCAs
        // reading from a host with two get lanes on two of them, and the other two are not wired, never doubled up
        Cluster cluster = new Cluster(List.of(new Host("src", pixNics(2)), new Host("dst", fourPixNics())),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=16", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        assertEquals(List.of("mlx5_0", "mlx5_1"), d.picked().stream().map(LaneSplit.Candidate::sourceNic).distinct()
                .sorted().toList());
        // each remote HCA carries as many lanes as it has paths, no more
        for (String remote : List.of("mlx5_0", "mlx5_1")) {
            assertEquals(d.remote().stream().filter(e -> e.nic().equals(remote)).findFirst().orElseThrow().paths(),
                    d.picked().stream().filter(c -> c.sourceNic().equals(remote)).count(), remote);
        }
        assertEquals(2, d.nicVerdicts().values().stream().filter(v -> v == LaneVerdict.NOT_WIRED).count(),
                d.lanes().toString());
    }

    @Test
    void aRemoteHcaTakesAsManyLocalHcasAsItHasPaths() {
        // four one-path ConnectX-5 readers and one two-path ConnectX-7 source: the source's two paths take two
        // readers' lanes (UCX drops a remote device once its paths carry lanes, not after one), the other two
        // readers are not wired
        Cluster cluster = new Cluster(List.of(new Host("src", pixNics(1)), new Host("dst", pixNics(4, NicModel.CX5))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        assertEquals(1, d.local().get(0).paths());
        assertEquals(2, d.remote().get(0).paths());
        assertEquals(List.of("mlx5_0", "mlx5_1"), d.picked().stream().map(LaneSplit.Candidate::sinkNic).sorted().toList());
        assertEquals(2, d.nicVerdicts().values().stream().filter(v -> v == LaneVerdict.NOT_WIRED).count());
    }

    @Test
    void tiesGoByPciOrderNeverByName() {
        // four equal PIX NICs whose names run against their PCI order: 2 rails take the first two in PCI
        // order (mlx5_3, mlx5_2), not the first two names
        List<HostSpec.DeviceSpec> under = new ArrayList<>();
        under.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(1e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        for (int i = 3; i >= 0; i--) {
            under.add(HostSpec.NicSpec.of("mlx5_" + i, NicModel.CX7, LinkLayer.INFINIBAND));
        }
        HostSpec reversed = new HostSpec("reversed", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 0, List.of(new HostSpec.SocketSpec(0,
                1e12, 1L << 40, "", List.of(new HostSpec.SwitchSpec("sw0", LinkSpec.c2c(1e12), under)))), "test");
        assertEquals(List.of("mlx5_3", "mlx5_2"), pickedNics(pull(reversed, stack("UCX_MAX_RMA_RAILS=2", null))));
    }

    @Test
    void equalHcasSplitEvenly() {
        Outcome four = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=4", null));
        List<Lane> lanes = LaneSplit.split(SIZE, four.decision().picked(), LaneSplit.MinChunk.rma(8192));
        assertEquals(SIZE, lanes.stream().mapToLong(Lane::bytes).sum());
        for (Lane l : lanes) {
            assertEquals(SIZE / 4.0, l.bytes(), SIZE * 2.0 / 65536);
        }
    }

    @Test
    void nixlDefaultsGiveTwoRailsAndAUserSettingWins() {
        assertEquals(2, pull(fourPixNics(), stack("", "1.1.0")).decision().picked().size());
        assertEquals(1, pull(fourPixNics(), stack("", null)).decision().picked().size(), "UCX's own default is 1 rail");
        assertEquals(3, pull(fourPixNics(), stack("export UCX_MAX_RMA_RAILS=3", "1.1.0")).decision().picked().size());
    }

    @Test
    void gb200WithoutUcxConfKeepsTheOtherGracesNicsOut() {
        // gb200-tray: GPU0's Grace has mlx5_0 and mlx5_1 (NODE: 17000 MiB/s, packed to 16384); the other
        // Grace's mlx5_2 and mlx5_3 are SYS (220 MiB/s, packed up to 512): more than 4x below, dropped.
        // 4 rails then take path0 and path1 of the two NODE NICs.
        StackProfile noConf = new StackProfile(org.rdmasim.transport.config.TestEnv.parse("UCX_MAX_RMA_RAILS=4", "t"), Optional.empty(),
                new StackVersion(1, 20, 0), org.rdmasim.transport.config.UcxInstall.NIXL_WHEEL, true,
                org.rdmasim.transport.config.ModelExpressBuild.LATEST_RELEASE);
        Outcome o = pull(Presets.get("gb200-tray"), noConf);
        assertEquals(List.of("mlx5_0", "mlx5_0", "mlx5_1", "mlx5_1"), pickedNics(o));
        for (UcxLane l : o.decision().lanes()) {
            if (l.nic().equals("mlx5_2") || l.nic().equals("mlx5_3")) {
                assertEquals(LaneVerdict.DROPPED_BY_RATIO, l.verdict(), l.toString());
            }
        }
    }

    @Test
    void gb200WithGraceUcxConfRatesTheOtherGracesNicsEqually() {
        // ucx.conf [Grace Hopper] UCX_DISTANCE_BW=auto,sys:16500MBs: packed to 16384 MiB/s, equal to NODE,
        // so 4 rails take path0 of all four NICs.
        Outcome o = pull(Presets.get("gb200-tray"), stack("UCX_MAX_RMA_RAILS=4", null));
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), pickedNics(o));
        assertEquals(16384.0 * (1 << 20), o.decision().local().get(3).estimate(), 1);
        // UCX 1.17 ships no ucx.conf: the SYS NICs are dropped again
        StackProfile old = new StackProfile(org.rdmasim.transport.config.TestEnv.parse("UCX_MAX_RMA_RAILS=4", "t"), Optional.empty(),
                new StackVersion(1, 17, 0), org.rdmasim.transport.config.UcxInstall.PREFIX, true,
                org.rdmasim.transport.config.ModelExpressBuild.LATEST_RELEASE);
        assertEquals(2, pull(Presets.get("gb200-tray"), old).decision().picked().stream()
                .map(LaneSplit.Candidate::sinkNic).distinct().count());
    }

    @Test
    void pinnedNicComesFromModelExpressAndUsesBothPaths() {
        Outcome o = pull(Presets.get("dgx-h100"), stack("MX_RDMA_NIC_PIN=auto", "1.1.0"));
        assertEquals(List.of("mlx5_0", "mlx5_0"), pickedNics(o));
    }

    @Test
    void dgxH100RailsOneTwoFourEight() {
        // GPU0: mlx5_0 PIX (no distance limit, 49.47 GB/s), GPU1-3's mlx5_3..5 NODE (16384 MiB/s = 17.18 GB/s),
        // GPU4-7's mlx5_6, 9, 10, 11 SYS (512 MiB/s: dropped by the 4x ratio); storage mlx5_1-2, 7-8 not candidates. avail_bw: mlx5_0 path0 38.0, NODE path0 13.2,
        // mlx5_0 path1 11.5, NODE path1 3.98 GB/s.
        assertEquals(List.of("mlx5_0"), pickedNics(pull(Presets.get("dgx-h100"), stack("UCX_MAX_RMA_RAILS=1", null))));
        assertEquals(List.of("mlx5_0", "mlx5_3"),
                pickedNics(pull(Presets.get("dgx-h100"), stack("UCX_MAX_RMA_RAILS=2", null))));
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5"),
                pickedNics(pull(Presets.get("dgx-h100"), stack("UCX_MAX_RMA_RAILS=4", null))));
        // reported in lane order: a device's paths together
        assertEquals(List.of("mlx5_0", "mlx5_0", "mlx5_3", "mlx5_3", "mlx5_4", "mlx5_4", "mlx5_5", "mlx5_5"),
                pickedNics(pull(Presets.get("dgx-h100"), stack("UCX_MAX_RMA_RAILS=8", null))));
    }

    @Test
    void beforeUcx119LanesGoInWireupOrderBothPathsOfADeviceFirst() {
        StackProfile old = new StackProfile(org.rdmasim.transport.config.TestEnv.parse("UCX_MAX_RMA_RAILS=2", "t"), Optional.empty(),
                new StackVersion(1, 18, 0), org.rdmasim.transport.config.UcxInstall.PREFIX, true,
                org.rdmasim.transport.config.ModelExpressBuild.LATEST_RELEASE);
        assertEquals(List.of("mlx5_0", "mlx5_0"), pickedNics(pull(fourPixNics(), old)));
    }

    @Test
    void estimatesSkewTheSplitAndThePixLaneStraggles() {
        // DGX H100, 2 rails: mlx5_0 (PIX, 49.47 GB/s) and mlx5_3 (GPU1's, NODE, 17.18 GB/s) split 74.2/25.8 by
        // ceil(bw x 65536 / sum). Both lanes leave through GPU0's one PCIe link and share it equally
        // until the short NODE lane ends; the PIX lane then runs alone at its NIC's wire rate.
        Outcome o = pull(Presets.get("dgx-h100"), stack("UCX_MAX_RMA_RAILS=2", null));
        List<LaneSplit.Candidate> lanes = o.decision().picked();
        assertEquals("mlx5_0", lanes.get(0).sinkNic());
        double share = lanes.get(0).weight() / (lanes.get(0).weight() + lanes.get(1).weight());
        assertEquals(49.469e9 / (49.469e9 + 17.180e9), share, 0.001);
        assertTrue(o.result().gbps() < 2 * 395, "well below two NICs at wire rate: " + o.result().gbps());
    }

    @Test
    void unknownDeviceWarnsAndEmptySelectionFails() {
        // a DGX H100 has mlx5_0..mlx5_11 (mlx5_9 is GPU5's port); mlx5_12 is no device of it
        Outcome o = pull(Presets.get("dgx-h100"), stack("UCX_NET_DEVICES=mlx5_0:1,mlx5_12:1", null));
        assertTrue(o.decision().warnings().stream().anyMatch(w -> w.contains("mlx5_12")), o.decision().warnings().toString());
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> pull(Presets.get("dgx-h100"), stack("UCX_NET_DEVICES=mlx5_12:1", null)));
    }

    @Test
    void pcieEstimateMatchesUcxModel() {
        Host h = new Host("h", Presets.get("dgx-h100"));
        HcaEstimate e = UcxLaneSelection.estimates(h, h.gpu("GPU0"), StackProfile.plainUcx().configFor(h, h.gpu("GPU0")),
                Operation.READ, new ArrayList<>()).get(0);
        assertEquals("mlx5_0", e.nic());
        assertEquals(PcieGen.GEN5.payloadBytesPerSecond(16), e.pcieBytesPerSecond(), 1);
        assertEquals(400e9 / 8 * 4096 / 4140, e.estimate(), 1e6);
    }
}
