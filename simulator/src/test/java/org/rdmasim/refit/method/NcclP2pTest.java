package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.refit.layout.XferdtensorPlan.ReplicaFill;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.config.NcclIbHca;

/**
 * NCCL send/recv shard to shard (NeMo-RL's xferdtensor fallback), worked by hand on the fixture's hosts:
 * {@code train} holds trainer ranks 0 and 1 (TP2), inference rank i sits on {@code infer(i/2):GPU(i%2)}, every
 * GPU beside its own NIC, all links equal.
 */
class NcclP2pTest {
    private static Endpoint inference(int rank) {
        return new Endpoint("infer" + rank / 2, "GPU" + rank % 2);
    }

    private static RefitResult run(List<SliceRoute> routes, NcclP2p method) {
        // each trainer rank holds 2 GB: its half of the model, however many ranks read it
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, NcclP2pTest::inference, method).withBuffers(
                new RankBuffers(java.util.Map.of(0, new long[] {2 * GB, 4}, 1, new long[] {2 * GB, 4}),
                        RankBuffers.perRoute(routes).inference()));
        return RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    private static double wireRate() {
        List<Host> hosts = RefitFixture.threeHosts();
        return RefitFixture.wireRate(hosts, RefitFixture.trainer(0), inference(0));
    }

    /**
     * TP2 -> TP4, one engine: inference rank i needs its quarter (1 GB of a 4 GB model) from trainer rank i/2,
     * which holds that half. Each trainer GPU stacks its 2 GB (one HBM copy), sends 1 GB to each of two
     * receivers on another host through its one NIC (two flows sharing the NIC: 2 GB at the path's rate), and
     * each receiver copies 2/3 of its gigabyte back into the fused w13.
     */
    @Test
    void tp2ToTp4SendsEachQuarterFromTheHalfHoldingItAtTheTrainerNicsRate() {
        List<SliceRoute> routes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i / 2, i, GB, 8, 4));
        }
        RefitResult r = run(routes, new NcclP2p(NcclIbHca.unset(), true));
        RefitResult.Cycle c = r.cycles().get(0);
        for (int i = 0; i < 4; i++) {
            assertEquals(GB, c.received().get(i), "rank " + i);
        }
        assertEquals(4 * GB, c.wireBytes(), "each byte crosses once");
        assertEquals(r.minimumBytes(), c.wireBytes());
        double expected = 2.0 * 2 * GB / RefitFixture.hbm() + 2 * GB / wireRate()
                + 2.0 * Math.round(GB * 2.0 / 3) / RefitFixture.hbm();
        assertEquals(expected, c.seconds(), expected * 1e-3);
        assertEquals("tie of 2: train:{mlx5_0, mlx5_1} tx", c.boundBy(), "the trainer NICs carry two flows each");
        assertEquals(0, c.stage(RefitStage.REGISTER), "NCCL stages through buffers it registered at init");
    }

    /**
     * TP2 -> TP4 again: each trainer NIC carries two receivers' gigabytes at its transmit line rate for the same
     * time, so neither NIC alone set the wire's length; the cycle's bound is the tie of both, as a striped pull's
     * is (the rule of {@link org.rdmasim.transport.HeldLongest}), not whichever NIC's flow finished first. When
     * trainer rank 0 sends a third more, its NIC is busy longer and is named alone.
     */
    @Test
    void twoTrainerNicsHoldingTheWireForTheSameTimeAreATieNamingBoth() {
        List<SliceRoute> even = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            even.add(new SliceRoute(i / 2, i, GB, 8, 4));
        }
        RefitResult.Cycle c = run(even, new NcclP2p(NcclIbHca.unset(), true)).cycles().get(0);
        assertEquals("tie of 2: train:{mlx5_0, mlx5_1} tx", c.boundBy());
        assertEquals("a tie of 2 limits of one kind, each holding it for the same time: NIC {mlx5_0, mlx5_1}'s transmit"
                + " line rate on train", c.boundWords());
        // each NIC's two gigabytes at the path's rate are the wire stage: the NICs were saturated all of it
        assertEquals(2 * GB / wireRate(), c.stage(RefitStage.WIRE), 2 * GB / wireRate() * 1e-3);

        List<SliceRoute> uneven = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            uneven.add(new SliceRoute(i / 2, i, i < 2 ? GB * 4 / 3 : GB, 8, 4));
        }
        RefitPlan plan = RefitPlan.of(uneven, RefitFixture::trainer, NcclP2pTest::inference,
                new NcclP2p(NcclIbHca.unset(), true)).withBuffers(new RankBuffers(java.util.Map.of(
                        0, new long[] {GB * 8 / 3, 4}, 1, new long[] {2 * GB, 4}), RankBuffers.perRoute(uneven).inference()));
        RefitResult.Cycle one = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(), plan,
                RefitFixture.nearestNic()).cycles().get(0);
        assertEquals("train:mlx5_0 tx", one.boundBy(), "trainer rank 0's NIC carries 8/3 GB against rank 1's 2 GB");
    }

    /** Only FFN projections go shard to shard, as nccl_reshard_utils.is_nccl_reshard_param decides. */
    @Test
    void onlyFfnProjectionsGoShardToShard() {
        assertTrue(NcclP2p.shardToShard("model.layers.3.mlp.experts.17.gate_proj.weight"));
        assertTrue(NcclP2p.shardToShard("model.layers.0.mlp.down_proj.weight"));
        assertTrue(NcclP2p.shardToShard("model.layers.0.mlp.experts.gate_up_proj"));
        assertTrue(!NcclP2p.shardToShard("model.layers.3.mlp.shared_expert.up_proj.weight"));
        assertTrue(!NcclP2p.shardToShard("model.layers.3.self_attn.q_proj.weight"));
        assertTrue(!NcclP2p.shardToShard("model.layers.3.mlp.gate.weight"));
        assertTrue(!NcclP2p.shardToShard("model.embed_tokens.weight"));
        // NeMo-RL's packed buffer: 2% of an 80 GB GPU, 5 GiB at most
        assertEquals(1_600_000_000L, NcclP2p.packedBufferBytes(80_000_000_000L));
        assertEquals(5L << 30, NcclP2p.packedBufferBytes(1L << 40));
    }

    /**
     * NeMo-RL's Python fallback costs each inference rank a fixed host time per xferdtensor call, the calls one after
     * another ({@link RefitCalibration#RESHARD_CALL}): the cycle grows by exactly calls x the cost, in its own stage,
     * on every rank at once (so twice the calls, twice the time, and the bytes unchanged); no calls, no cost and
     * nothing listed; the every-parameter form (PR #2413, before the fallback) pays none whatever the value.
     */
    @Test
    void eachXferdtensorCallAddsItsHostCostInSeriesAndNoCallsAddNothing() {
        List<SliceRoute> ffn = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ffn.add(new SliceRoute(i / 2, i, GB, 8, 4));
        }
        double call = 0.01;
        RefitCalibration calibration = RefitCalibration.defaults().with(RefitCalibration.RESHARD_CALL, call,
                org.rdmasim.hardware.CalibrationProfile.Kind.ASSUMED, "test");
        java.util.function.IntFunction<RefitResult> withCalls = n -> RefitRun.run(RefitFixture.threeHosts(),
                FabricSpec.nonBlocking(), RefitPlan.of(ffn, RefitFixture::trainer, NcclP2pTest::inference,
                        new NcclP2p(NcclIbHca.unset(), true, ffn, List.of(), n, null)).withBuffers(new RankBuffers(
                                java.util.Map.of(0, new long[] {2 * GB, 4}, 1, new long[] {2 * GB, 4}),
                                RankBuffers.perRoute(ffn).inference())).withCalibration(calibration),
                RefitFixture.nearestNic());
        RefitResult none = withCalls.apply(0);
        RefitResult.Cycle zero = none.cycles().get(0);
        assertEquals(0.0, zero.stage(RefitStage.DISPATCH));
        assertTrue(none.restsOn().stream().noneMatch(r -> r.key().equals(RefitCalibration.RESHARD_CALL)),
                none.restsOn().toString());
        for (int n : new int[] {72, 144}) {
            RefitResult r = withCalls.apply(n);
            RefitResult.Cycle c = r.cycles().get(0);
            assertEquals(n * call, c.stage(RefitStage.DISPATCH), 1e-9, n + " calls");
            assertEquals(zero.seconds() + n * call, c.seconds(), 1e-9, n + " calls");
            assertEquals(zero.wireBytes(), c.wireBytes(), "the calls move no bytes");
            assertTrue(r.restsOn().stream().map(org.rdmasim.workload.StageParameter::line).toList()
                    .contains("refit.reshardCallSeconds = 10.0 ms, assumed (test)"), r.restsOn().toString());
        }
        RefitResult everyParameter = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(),
                RefitPlan.of(ffn, RefitFixture::trainer, NcclP2pTest::inference, new NcclP2p(NcclIbHca.unset(),
                        true)).withBuffers(new RankBuffers(java.util.Map.of(0, new long[] {2 * GB, 4}, 1,
                        new long[] {2 * GB, 4}), RankBuffers.perRoute(ffn).inference())).withCalibration(calibration),
                RefitFixture.nearestNic());
        assertEquals(zero.seconds(), everyParameter.cycles().get(0).seconds(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new NcclP2p(NcclIbHca.unset(), true, ffn, List.of(), -1, null));
    }

    /**
     * One xferdtensor call per FFN parameter, a layer's experts of one projection grouped into one (as
     * group_expert_params_in_metadata does): 2 MoE layers of 4 experts make 2 x 3 calls whatever the expert count,
     * a dense MLP's projections one each; a name that is not an expert's FFN weight stays its own.
     */
    @Test
    void aLayersExpertsOfOneProjectionAreOneCall() {
        List<String> names = new ArrayList<>();
        for (int layer = 0; layer < 2; layer++) {
            for (int e = 0; e < 4; e++) {
                for (String proj : List.of("gate_proj", "up_proj", "down_proj")) {
                    names.add("model.layers." + layer + ".mlp.experts." + e + "." + proj + ".weight");
                }
            }
        }
        assertEquals(6, NcclP2p.calls(names));
        names.add("model.layers.2.mlp.gate_proj.weight");
        names.add("model.layers.2.mlp.up_proj.weight");
        names.add("model.layers.2.mlp.down_proj.weight");
        assertEquals(9, NcclP2p.calls(names));
        assertEquals(0, NcclP2p.calls(List.of()));
    }

    /**
     * The misc parameters follow the FFN path: trainer rank 0 broadcasts them to every inference rank, which
     * loads each tensor through load_weights. Every rank receives them whole on top of its FFN share, and the
     * cycle grows by at least the loads, which nothing overlaps (the misc phase starts once the FFN path is done).
     */
    @Test
    void theMiscParametersFollowFromTrainerRankZeroAndAreLoadedTensorByTensor() {
        List<SliceRoute> routes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i / 2, i, GB, 8, 4));
        }
        NcclP2p method = new NcclP2p(NcclIbHca.unset(), true);
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, NcclP2pTest::inference, method).withBuffers(
                new RankBuffers(java.util.Map.of(0, new long[] {2 * GB, 4}, 1, new long[] {2 * GB, 4}),
                        RankBuffers.perRoute(routes).inference()));
        long misc = GB / 10;
        long tensors = 500;
        RefitResult without = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(), plan,
                RefitFixture.nearestNic());
        RefitResult with = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(),
                plan.withBroadcastBytes(misc).withBroadcastTensors(tensors), RefitFixture.nearestNic());
        double loads = tensors * plan.calibration().value(RefitCalibration.LOAD_TENSOR);
        for (int i = 0; i < 4; i++) {
            assertEquals(GB + misc, with.cycles().get(0).received().get(i), "rank " + i);
        }
        double added = with.cycles().get(0).seconds() - without.cycles().get(0).seconds();
        // every trainer rank is in the communicator: the trainer host's two GPUs, each beside its own NIC, give two channels
        assertTrue(added > loads + misc / (2 * wireRate()), added + " s: the loads and the broadcast's wire, one after "
                + "the other");
        assertTrue(added < loads + 4 * misc / wireRate() + 2.0 * misc / RefitFixture.hbm() * 3, added + " s");
    }

    /**
     * With the misc parameters apart (the plan's routes hold all of each rank's gigabyte, the FFN slice map 0.9 GB
     * of it), only the FFN part goes shard to shard and the 0.2 GB of misc parameters reach every rank whole from
     * trainer rank 0: each rank receives 0.9 + 0.2 GB, and the wire carries 4 x 0.9 + 4 x 0.2 GB.
     */
    @Test
    void onlyTheFfnSliceMapGoesShardToShardAndTheRestFollowsWhole() {
        List<SliceRoute> routes = new ArrayList<>();
        List<SliceRoute> ffn = new ArrayList<>();
        long bulk = GB / 10 * 9;
        long misc = GB / 5;
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i / 2, i, GB, 8, 4));
            ffn.add(new SliceRoute(i / 2, i, bulk, 6, 3));
        }
        NcclP2p method = new NcclP2p(NcclIbHca.unset(), true, ffn, List.of(), 0, null);
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, NcclP2pTest::inference, method).withBuffers(
                new RankBuffers(java.util.Map.of(0, new long[] {2 * GB, 4}, 1, new long[] {2 * GB, 4}),
                        RankBuffers.perRoute(routes).inference()))
                .withBroadcastBytes(misc).withBroadcastTensors(40);
        RefitResult.Cycle c = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(), plan,
                RefitFixture.nearestNic()).cycles().get(0);
        for (int i = 0; i < 4; i++) {
            assertEquals(bulk + misc, c.received().get(i), "rank " + i);
        }
        assertEquals(4 * bulk + 4 * misc, c.wireBytes());
    }

    /**
     * TP2 -> TP2 x DP2 in separate engines: ranks i and i+2 (on infer0 and infer1) hold the same shard, the
     * 2 GB half trainer rank i%2 holds. Each replica receives one 1 GB stripe from the trainer (the trainer
     * NIC carries 2 GB, not 4), then the two swap stripes (1 GB each way, on separate NICs): 2 GB + 1 GB at
     * the path's rate, against 4 GB for every replica receiving the whole shard from the trainer.
     */
    @Test
    void replicasReceiveAStripeEachThenAllGather() {
        List<SliceRoute> routes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i % 2, i, 2 * GB, 8, 4));
        }
        RefitResult striped = run(routes, pairsStriped());
        RefitResult direct = run(routes, new NcclP2p(NcclIbHca.unset(), true));
        RefitResult.Cycle c = striped.cycles().get(0);
        for (int i = 0; i < 4; i++) {
            assertEquals(2 * GB, c.received().get(i), "rank " + i + ": its stripe and its replica's");
        }
        assertEquals(8 * GB, c.wireBytes(), "every byte lands once on each rank needing it");
        double rate = wireRate();
        double stack = 2.0 * 2 * GB / RefitFixture.hbm();
        double install = 2.0 * Math.round(2 * GB * 2.0 / 3) / RefitFixture.hbm();
        assertEquals(stack + 3 * GB / rate + install, c.seconds(), c.seconds() * 1e-3);
        assertEquals(stack + 4 * GB / rate + install, direct.cycles().get(0).seconds(), c.seconds() * 1e-3);
        assertTrue(c.stage(RefitStage.WIRE) > 0);
    }

    /**
     * Four replicas of one 2 GB shard, two on each inference host (ranks 0, 1 on infer0; 2, 3 on infer1): each
     * receives a 0.5 GB stripe, then NCCL's ring all-gather sends all stripes but one over every link of the ring,
     * 1.5 GB, so 1.5 GB leaves each inference host over its two NICs (two channels), where one broadcast of each
     * stripe would send the host's own two stripes, 1 GB. The all-gather therefore holds the wire for 0.75 GB at
     * the path's rate after the stripes arrive.
     */
    @Test
    void aReplicaGroupOverTwoHostsAllGathersAroundARing() {
        List<SliceRoute> routes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i % 2, i, 2 * GB, 8, 4));
        }
        List<SliceRoute> quarters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            quarters.add(new SliceRoute(i % 2, i, GB / 2, 2, 4));
        }
        long half = GB / 2;
        RefitResult.Cycle c = run(routes, new NcclP2p(NcclIbHca.unset(), true, quarters, List.of(new ReplicaFill(
                List.of(0, 1, 2, 3), new long[] {half, half, half, half}, 0)), 0, null)).cycles().get(0);
        for (int i = 0; i < 4; i++) {
            assertEquals(2 * GB, c.received().get(i), "rank " + i + ": its stripe and the other three");
        }
        assertEquals(8 * GB, c.wireBytes(), "every byte lands once on each rank needing it");
        double rate = wireRate();
        double stripes = GB / rate;
        // the stripes, then the ring's 1.5 GB a link over two channels (plus the ring's pipeline fill, a few NCCL
        // steps); broadcasts of each stripe would take 0.5 GB at the path's rate, not 0.75
        assertEquals(stripes + 0.75 * GB / rate, c.stage(RefitStage.WIRE), c.stage(RefitStage.WIRE) * 5e-3);
    }

    /**
     * The generic plan's groups: each pair of replicas (0 and 2, 1 and 3) has its 2 GB sent whole to its first
     * rank, which broadcasts it to the other. Every rank ends with its 2 GB and every byte lands once on each rank
     * needing it, as striped; but each trainer NIC now carries the whole 2 GB to one rank, and the broadcast then
     * carries 2 GB more between the inference hosts: 2 GB + 2 GB at the path's rate, against striping's 1 + 1.
     */
    @Test
    void aGroupTheStripedPlanCannotCutIsSentToOneReplicaThenBroadcast() {
        List<SliceRoute> routes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i % 2, i, 2 * GB, 8, 4));
        }
        List<SliceRoute> whole = List.of(new SliceRoute(0, 0, 2 * GB, 8, 4), new SliceRoute(1, 1, 2 * GB, 8, 4));
        NcclP2p generic = new NcclP2p(NcclIbHca.unset(), true, whole, List.of(
                new ReplicaFill(List.of(0, 2), new long[2], 2 * GB), new ReplicaFill(List.of(1, 3), new long[2], 2 * GB)),
                0, null);
        RefitResult.Cycle c = run(routes, generic).cycles().get(0);
        for (int i = 0; i < 4; i++) {
            assertEquals(2 * GB, c.received().get(i), "rank " + i);
        }
        assertEquals(8 * GB, c.wireBytes());
        double rate = wireRate();
        double stack = 2.0 * 2 * GB / RefitFixture.hbm();
        double install = 2.0 * Math.round(2 * GB * 2.0 / 3) / RefitFixture.hbm();
        assertEquals(stack + 4 * GB / rate + install, c.seconds(), c.seconds() * 2e-3);
        assertTrue(c.seconds() > run(routes, pairsStriped()).cycles().get(0).seconds());
    }

    @Test
    void aReplicaGroupHasTwoRanksOrMoreAndAStripeEach() {
        assertThrows(IllegalArgumentException.class, () -> new ReplicaFill(List.of(0), new long[1], 0));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaFill(List.of(0, 1), new long[3], 0));
        ReplicaFill f = new ReplicaFill(List.of(4, 5, 6), new long[] {1, 2, 3}, 10);
        assertEquals(5, f.landed(0), "the representative lands the other stripes, and broadcasts");
        assertEquals(14, f.landed(1));
        assertEquals(13, f.landed(2));
    }

    /** TP2 -> TP2 x DP2: ranks i and i + 2 replicas of trainer rank i % 2's 2 GB half, a 1 GB stripe each. */
    private static NcclP2p pairsStriped() {
        List<SliceRoute> stripes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            stripes.add(new SliceRoute(i % 2, i, GB, 4, 4));
        }
        return new NcclP2p(NcclIbHca.unset(), true, stripes, List.of(new ReplicaFill(List.of(0, 2), new long[] {GB, GB}, 0),
                new ReplicaFill(List.of(1, 3), new long[] {GB, GB}, 0)), 0, null);
    }

    @Test
    void sameInputsGiveIdenticalCycles() {
        List<SliceRoute> routes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routes.add(new SliceRoute(i % 2, i, 2 * GB, 8, 4));
        }
        assertEquals(run(routes, pairsStriped()).cycles(), run(routes, pairsStriped()).cycles());
    }
}
