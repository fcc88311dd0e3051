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
        // any buffer exists, by score: equal hosts pair the i-th device with the i-th, and the source holds its
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
    void aFreshPairBeatsASecondPathSoFourReadersSpreadOverTwoSources() {
        // four two-path local HCAs reading from a host with two two-path HCAs: UCX's wireup score adds 0.001 of both
        // sides' bandwidths to the lesser (ucp_wireup_iface_avail_bandwidth), so after mlx5_0-mlx5_0 and
        // mlx5_1-mlx5_1 a fresh local HCA beats a second path of a busy one: every local HCA gets one lane, each
        // remote HCA carries two from two local HCAs, and the local second paths are not wired. Pairing in rank
        // order gave mlx5_0 and mlx5_1 both their paths and left mlx5_2 and mlx5_3 unwired.
        Cluster cluster = new Cluster(List.of(new Host("src", pixNics(2)), new Host("dst", fourPixNics())),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=16", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        assertEquals(List.of("mlx5_0->mlx5_0", "mlx5_1->mlx5_1", "mlx5_2->mlx5_0", "mlx5_3->mlx5_1"), d.lanes().stream()
                .filter(l -> l.verdict() != LaneVerdict.NOT_WIRED).map(l -> l.nic() + "->" + l.peerNic()).toList());
        assertTrue(d.lanes().stream().filter(l -> l.path() == 1).allMatch(l -> l.verdict() == LaneVerdict.NOT_WIRED),
                d.lanes().toString());
        // each remote HCA carries as many lanes as it has paths, no more
        for (String remote : List.of("mlx5_0", "mlx5_1")) {
            assertEquals(d.remote().stream().filter(e -> e.nic().equals(remote)).findFirst().orElseThrow().paths(),
                    d.picked().stream().filter(c -> c.sourceNic().equals(remote)).count(), remote);
        }
    }

    /** One GPU and one NIC of each of {@code models}, in that PCI order, under one PCIe switch. */
    private static HostSpec pixNics(NicModel... models) {
        List<HostSpec.DeviceSpec> under = new ArrayList<>();
        under.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(1e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        for (int i = 0; i < models.length; i++) {
            under.add(HostSpec.NicSpec.of("mlx5_" + i, models[i], LinkLayer.INFINIBAND));
        }
        return new HostSpec("mixed", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 0, List.of(new HostSpec.SocketSpec(0, 1e12,
                1L << 40, "", List.of(new HostSpec.SwitchSpec("sw0", LinkSpec.c2c(1e12), under)))), "test");
    }

    @Test
    void aSecondPathGoesToAFreshSlowerHcaWhenItMatchesTheHalfRatedSecondPath() {
        // one two-path ConnectX-7 reading from a ConnectX-6 (one HDR path, first in PCI order) and a ConnectX-7 (two
        // paths): the first path pairs the two ConnectX-7s. For the second, wireup rates the local path and the
        // remote ConnectX-7's second path at half their interface (1 - 1/2, ucp_tl_iface_bandwidth_ratio), which is
        // what the whole ConnectX-6 offers (200 of 400 Gb/s): the two pairs score the same, and the tie goes to the
        // first remote HCA in address order, the ConnectX-6. Rank order sent both paths to the ConnectX-7, the
        // higher estimate.
        Cluster cluster = new Cluster(List.of(new Host("src", pixNics(NicModel.CX6, NicModel.CX7)),
                new Host("dst", pixNics(1))), FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        assertEquals(List.of("path0->mlx5_1", "path1->mlx5_0"), d.lanes().stream()
                .map(l -> "path" + l.path() + "->" + l.peerNic()).toList());
        HcaEstimate cx6 = d.remote().stream().filter(e -> e.nic().equals("mlx5_0")).findFirst().orElseThrow();
        HcaEstimate cx7 = d.remote().stream().filter(e -> e.nic().equals("mlx5_1")).findFirst().orElseThrow();
        assertEquals(cx7.wireupBandwidth() / 2, cx6.wireupBandwidth(), cx6.wireupBandwidth() * 1e-9);
        // the lane to the ConnectX-6 is rated at the ConnectX-6's estimate
        assertEquals(cx6.estimate(), d.lanes().get(1).bandwidth(), 1);
    }

    @Test
    void aFasterRemoteHcaTakesTheFirstPathWhateverItsPciOrder() {
        // the same hosts with the remote ConnectX-7 first: the first path still goes to the ConnectX-7 (a higher
        // score, not a tie), the second ties and goes to the first in address order, now the ConnectX-7's second path
        Cluster cluster = new Cluster(List.of(new Host("src", pixNics(NicModel.CX7, NicModel.CX6)),
                new Host("dst", pixNics(1))), FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        assertEquals(List.of("path0->mlx5_0", "path1->mlx5_0"), d.lanes().stream()
                .map(l -> "path" + l.path() + "->" + l.peerNic()).toList());
    }

    @Test
    void aFarRemoteHcaLosesToTheNearOnesSecondPath() {
        // the source's GPU shares a switch with mlx5_0 only; mlx5_1 hangs off another switch of the same socket, so
        // UCX measures it at 300 ns and 17000 MB/s from the GPU. The reader's two HCAs share its GPU's switch. After
        // mlx5_0-mlx5_0, the reader's mlx5_1 scores better against the source's mlx5_0 second path (half of 49 GB/s)
        // than against the far mlx5_1 (17.8 GB/s and 150 ns more), so both reader HCAs reach the near mlx5_0 first
        // and the far one takes their second paths. Rank order wired mlx5_0's two paths to mlx5_0 and mlx5_1's two to
        // mlx5_1.
        List<HostSpec.DeviceSpec> near = new ArrayList<>();
        near.add(new HostSpec.GpuSpec("GPU0", GpuModel.B200, LinkSpec.c2c(1e12), GpuModel.B200.hbmBytes(),
                GpuModel.B200.bar1Bytes(), 0));
        near.add(HostSpec.NicSpec.of("mlx5_0", NicModel.CX7, LinkLayer.INFINIBAND));
        HostSpec source = new HostSpec("one-near", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 0, List.of(new HostSpec.SocketSpec(0,
                1e12, 1L << 40, "", List.of(new HostSpec.SwitchSpec("sw0", LinkSpec.c2c(1e12), near),
                        new HostSpec.SwitchSpec("sw1", LinkSpec.c2c(1e12),
                                List.of(HostSpec.NicSpec.of("mlx5_1", NicModel.CX7, LinkLayer.INFINIBAND)))))),
                "test");
        Cluster cluster = new Cluster(List.of(new Host("src", source), new Host("dst", pixNics(2))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=2", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        HcaEstimate far = d.remote().stream().filter(e -> e.nic().equals("mlx5_1")).findFirst().orElseThrow();
        assertEquals(org.rdmasim.hardware.PathType.NODE, far.relation());
        assertEquals(List.of("mlx5_0/0->mlx5_0", "mlx5_0/1->mlx5_1", "mlx5_1/0->mlx5_0", "mlx5_1/1->mlx5_1"),
                d.lanes().stream().map(l -> l.nic() + "/" + l.path() + "->" + l.peerNic()).toList());
        // two rails: each reader HCA's first path, both to the source's near HCA, whose two paths they fill
        assertEquals(List.of("mlx5_0", "mlx5_0"), d.picked().stream().map(LaneSplit.Candidate::sourceNic).toList());
        assertEquals(List.of("mlx5_0", "mlx5_1"), d.picked().stream().map(LaneSplit.Candidate::sinkNic).toList());
    }

    @Test
    void aSecondPathReachesAnotherRemoteHcaWhenTheFirstHasNoPathLeft() {
        // one two-path ConnectX-7 reading from two one-path ConnectX-6s: the second path is wired to the second
        // ConnectX-6 (rank order wired the first path only)
        Cluster cluster = new Cluster(List.of(new Host("src", pixNics(2, NicModel.CX6)), new Host("dst", pixNics(1))),
                FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=4", null), UcxLaneSelection.Api.RMA)
                .decide(cluster, ts);
        assertEquals(List.of("mlx5_0", "mlx5_1"), d.picked().stream().map(LaneSplit.Candidate::sourceNic).toList());
        assertEquals(List.of(0, 1), d.lanes().stream().map(UcxLane::path).toList());
    }

    @Test
    void equalHostsPairTheIthHcaWithTheIth() {
        // equal scores tie, and a tie goes to the first local HCA, then the first remote one: on equal hosts every
        // lane, first paths and second, reaches the remote HCA of its own index; one-path HCAs the same
        for (NicModel model : List.of(NicModel.CX7, NicModel.CX6)) {
            Cluster cluster = new Cluster(List.of(new Host("src", pixNics(4, model)), new Host("dst", pixNics(4, model))),
                    FabricSpec.nonBlocking(), new FluidNetwork(new SimulationClock()));
            TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                    Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
            LaneDecision d = new UcxLaneSelection(stack("UCX_MAX_RMA_RAILS=16", null), UcxLaneSelection.Api.RMA)
                    .decide(cluster, ts);
            assertEquals(model == NicModel.CX7 ? 8 : 4, d.lanes().size(), model.name());
            assertTrue(d.lanes().stream().allMatch(l -> l.nic().equals(l.peerNic())), d.lanes().toString());
        }
    }

    @Test
    void theWireupScoreFollowsUcx() {
        // ucp_wireup_iface_avail_bandwidth: min(a, b) + 0.001 (a + b), each side times 1 - path index / paths
        BwLanePairing.Device l = new BwLanePairing.Device("l", 40e9, 0, 2);
        BwLanePairing.Device r = new BwLanePairing.Device("r", 30e9, 300e-9, 1);
        assertEquals(20e9 + 1e-3 * (20e9 + 30e9), BwLanePairing.availableBandwidth(l, 1, r, 0), 1);
        // ucp_wireup_rma_bw_score_func: 256 KiB over avail_bw plus the mean distance latency
        assertEquals(1 / (262144 / (30e9 + 70e6) + 150e-9), BwLanePairing.score(l, 0, r, 0), 1e-9);
        // ucp_score_cmp: within (s1 + s2) x 1e-6 is a tie
        assertEquals(0, BwLanePairing.compare(1.0, 1.0 + 1.9e-6));
        assertEquals(1, BwLanePairing.compare(1.0 + 2.1e-6, 1.0));
        // the ratio never falls below 1e-5
        assertEquals(1e-5, BwLanePairing.pathShare(4, 4), 0);
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

    /** A stack without ucx.conf (NIXL's wheel) at UCX {@code ucx}, with {@code env}. */
    private static StackProfile wheel(String env, StackVersion ucx) {
        return new StackProfile(org.rdmasim.transport.config.TestEnv.parse(env, "t"), Optional.empty(), ucx,
                org.rdmasim.transport.config.UcxInstall.NIXL_WHEEL, true,
                org.rdmasim.transport.config.ModelExpressBuild.LATEST_RELEASE);
    }

    @Test
    void gb200WithoutUcxConfKeepsTheOtherGracesNicsOut() {
        // gb200-tray: GPU0's Grace has mlx5_0 and mlx5_1 (NODE: 17000 MiB/s); the other Grace's mlx5_2 and mlx5_3
        // are SYS (220 MiB/s). Wireup's fast-lane filter rates each wired lane the lesser of its two HCAs' interface
        // bandwidths capped by distance, unpacked: the best is 17000 MiB/s (below the CX-7 interface), so 220 MiB/s
        // is under a quarter of it and the SYS lanes are never wired. 4 rails then take path0 and path1 of the two
        // NODE NICs.
        Outcome o = pull(Presets.get("gb200-tray"), wheel("UCX_MAX_RMA_RAILS=4", new StackVersion(1, 20, 0)));
        assertEquals(List.of("mlx5_0", "mlx5_0", "mlx5_1", "mlx5_1"), pickedNics(o));
        for (UcxLane l : o.decision().lanes()) {
            if (l.nic().equals("mlx5_2") || l.nic().equals("mlx5_3")) {
                assertEquals(LaneVerdict.DROPPED_AT_WIREUP, l.verdict(), l.toString());
            }
        }
        WireupFastLanes f = o.decision().wireupFilter();
        assertTrue(f.inForce());
        assertEquals(17000 * UcxTopoDistance.UCS_MBYTE, f.best(), 1e-3);
        assertEquals(17000 * UcxTopoDistance.UCS_MBYTE / 4, f.threshold(), 1e-3);
        assertEquals(8, f.wired().size(), "4 HCAs x 2 paths, each wired to its like on the other tray");
        assertEquals(4, f.dropped().size());
        for (WireupFastLanes.Rated r : f.dropped()) {
            assertEquals(220 * UcxTopoDistance.UCS_MBYTE, r.bandwidth(), 1e-3, r.toString());
        }
    }

    @Test
    void lanesWireupDropsCarryNoByteSoTheRateIsThatOfTheNicsItKeeps() {
        // the four listed NICs give the pull exactly what the two NODE NICs alone give: the SYS lanes are never
        // wired, so they move nothing and take no share of the split
        Outcome four = pull(Presets.get("gb200-tray"), wheel("UCX_MAX_RMA_RAILS=4", new StackVersion(1, 20, 0)));
        Outcome two = pull(Presets.get("gb200-tray"),
                wheel("UCX_MAX_RMA_RAILS=4\nUCX_NET_DEVICES=mlx5_0:1,mlx5_1:1", new StackVersion(1, 20, 0)));
        assertEquals(pickedNics(two), pickedNics(four));
        assertEquals(two.result().seconds(), four.result().seconds(), 1e-12);
        assertTrue(four.result().lanes().stream().allMatch(l -> l.sinkNic().equals("mlx5_0")
                || l.sinkNic().equals("mlx5_1")), four.result().lanes().toString());
        // and a GB200 NODE NIC is held at its distance estimate only for ranking: the pull runs near two CX-7 wires
        assertTrue(four.result().gbps() > 2 * 300, four.result().gbps() + " Gbps");
    }

    @Test
    void wireupKeepsEveryLaneWhenNoneIsFourTimesSlower() {
        // four equal PIX CX-7 HCAs: every wired lane has the same bandwidth, the filter keeps all 8
        Outcome equal = pull(fourPixNics(), stack("UCX_MAX_RMA_RAILS=8", null));
        WireupFastLanes f = equal.decision().wireupFilter();
        assertEquals(8, f.wired().size());
        assertEquals(List.of(), f.dropped());
        assertEquals(8, equal.decision().picked().size());
        // GB200 without ucx.conf and the ratio opened to 1000: 220 MiB/s is above 1/1000 of 17000, nothing is
        // dropped at wireup, and the rail limit alone leaves the SYS NICs out
        Outcome opened = pull(Presets.get("gb200-tray"),
                wheel("UCX_MAX_RMA_RAILS=4\nUCX_MULTI_LANE_MAX_RATIO=1000", new StackVersion(1, 20, 0)));
        assertEquals(List.of(), opened.decision().wireupFilter().dropped());
        assertTrue(opened.decision().lanes().stream().filter(l -> l.nic().equals("mlx5_2") || l.nic().equals("mlx5_3"))
                .allMatch(l -> l.verdict() == LaneVerdict.OVER_RAIL_LIMIT), opened.decision().lanes().toString());
    }

    @Test
    void wireupFiltersFromUcx1141TheProtocolBefore() {
        // UCX v1.14.0 has no fast-lane filter at wireup (it comes with openucx/ucx c34529db4d in v1.14.1): the SYS
        // lanes are wired, and the protocol's own filter drops them instead; the lanes picked are the same
        Outcome before = pull(Presets.get("gb200-tray"), wheel("UCX_MAX_RMA_RAILS=4", new StackVersion(1, 14, 0)));
        Outcome with = pull(Presets.get("gb200-tray"), wheel("UCX_MAX_RMA_RAILS=4", new StackVersion(1, 14, 1)));
        assertTrue(!before.decision().wireupFilter().inForce() && before.decision().wireupFilter().dropped().isEmpty());
        assertTrue(before.decision().lanes().stream().filter(l -> l.nic().equals("mlx5_2") || l.nic().equals("mlx5_3"))
                .allMatch(l -> l.verdict() == LaneVerdict.DROPPED_BY_RATIO), before.decision().lanes().toString());
        assertTrue(with.decision().lanes().stream().filter(l -> l.nic().equals("mlx5_2") || l.nic().equals("mlx5_3"))
                .allMatch(l -> l.verdict() == LaneVerdict.DROPPED_AT_WIREUP), with.decision().lanes().toString());
        assertEquals(pickedNics(before), pickedNics(with));
        // v1.18.0 to v1.22.0 run the same filter on the same bandwidths (ucp_wireup_add_fast_lanes in v1.18, the
        // _pairwise form from v1.19.0): the same lanes dropped at every release the scenarios name and before
        for (String v : List.of("1.18.0", "1.18.1", "1.19.0", "1.20.0", "1.21.0", "1.22.0")) {
            WireupFastLanes f = pull(Presets.get("gb200-tray"), wheel("UCX_MAX_RMA_RAILS=4", StackVersion.parse(v)))
                    .decision().wireupFilter();
            assertEquals(with.decision().wireupFilter().dropped(), f.dropped(), v);
        }
    }

    @Test
    void aLaneWireupDroppedIsGoneEvenWhenTheRkeyHoldsNoFasterOne() {
        // wireup runs before any buffer, over every wired lane; the protocol's filter runs over the lanes a buffer's
        // rkey leaves. A remote buffer registered on the other Grace's NICs alone: from v1.14.1 their lanes were
        // never wired and no lane is left; with v1.14.0 the protocol, seeing only those lanes, keeps them.
        SimulationClock clock = new SimulationClock();
        Cluster cluster = new Cluster(List.of(new Host("src", Presets.get("gb200-tray")),
                new Host("dst", Presets.get("gb200-tray"))), FabricSpec.nonBlocking(), new FluidNetwork(clock));
        TransferSpec ts = new TransferSpec("t", new Endpoint("src", "GPU0"), new Endpoint("dst", "GPU0"), SIZE,
                Operation.READ, 1, DataPath.GPUDIRECT, DataPath.GPUDIRECT, false, 0);
        UcxLaneSelection.Registrations otherGrace = (host, device, nic) -> !host.equals("src")
                || nic.equals("mlx5_2") || nic.equals("mlx5_3");
        UcxLaneSelection now = new UcxLaneSelection(wheel("UCX_MAX_RMA_RAILS=4", new StackVersion(1, 20, 0)),
                UcxLaneSelection.Api.RMA, otherGrace);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> now.decide(cluster, ts));
        assertTrue(e.getMessage().contains("wireup's fast-lane filter"), e.getMessage());
        UcxLaneSelection old = new UcxLaneSelection(wheel("UCX_MAX_RMA_RAILS=4", new StackVersion(1, 14, 0)),
                UcxLaneSelection.Api.RMA, otherGrace);
        assertEquals(List.of("mlx5_2", "mlx5_2", "mlx5_3", "mlx5_3"), old.decide(cluster, ts).picked().stream()
                .map(LaneSplit.Candidate::sourceNic).toList());
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

    @Test
    void noLaneNamesEachRefusedLaneAndWhy() {
        // a buffer registered only on mlx5_1, whose lane wireup's fast-lane filter left out: the error must say both
        List<UcxLane> lanes = List.of(
                new UcxLane("mlx5_0", 0, "mlx5_0", 50e9, 1, 50e9, LaneVerdict.NOT_REGISTERED),
                new UcxLane("mlx5_1", 0, "mlx5_1", 10e9, 1, 10e9, LaneVerdict.DROPPED_AT_WIREUP),
                new UcxLane("mlx5_1", 1, "", 10e9, 1, 10e9, LaneVerdict.NOT_WIRED));
        String why = UcxLaneSelection.noLaneReasons(lanes, "b:gpu0");
        assertTrue(why.contains("mlx5_0->mlx5_0 " + LaneVerdict.NOT_REGISTERED.words()), why);
        assertTrue(why.contains("mlx5_1->mlx5_1 " + LaneVerdict.DROPPED_AT_WIREUP.words()), why);
        assertTrue(why.startsWith("the buffer on b:gpu0"), why);
        assertEquals("no lane was wired to b:gpu0",
                UcxLaneSelection.noLaneReasons(List.of(lanes.get(2)), "b:gpu0"));
    }
}
