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
import org.rdmasim.refit.layout.TrainerLayout;
import org.rdmasim.transport.Endpoint;

class ShardGatherTest {
    /** An H100's NVLink, per direction: 18 links x 25 GB/s. */
    private static final double NVLINK = 18 * 25e9;

    private static RefitResult run(long payload, ShardGather g) {
        NcclBroadcast m = NcclBroadcast.fromRankZero(new Buckets(payload, false));
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference, m)
                .withBroadcastBytes(payload).withPreparation(Preparation.NONE.withShardGather(g));
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /**
     * Hand-worked: a TP2 trainer on one host sends one 2 GB bucket of non-expert weights. Its TP all-gather is a ring
     * of two GPUs, each link carrying half the bucket (the half the sender does not hold) at NVLink's 450 GB/s a
     * direction: 1 GB / 450 GB/s = 2.22 ms, all of it before the bucket is sent (one buffer: nothing to hide it
     * under), so the cycle grows by exactly that.
     */
    @Test
    void aTp2GatherOfOneBucketIsHalfTheBucketOverNvlinkBeforeItsBroadcast() {
        long bucket = 2 * GB;
        RefitResult.Cycle plain = run(bucket, ShardGather.NONE).cycles().get(0);
        RefitResult.Cycle tp2 = run(bucket, new ShardGather(new TrainerLayout(2, 1, 1, 1, 1, 1), bucket, 1))
                .cycles().get(0);
        double gather = (bucket / 2.0) / NVLINK;
        assertEquals(gather, tp2.stage(RefitStage.GATHER), 1e-12, "the stage breakdown carries the gather");
        assertEquals(0.0, plain.stage(RefitStage.GATHER), "no Megatron gather, no gather stage");
        assertEquals(plain.seconds() + gather, tp2.seconds(), 1e-9, "the broadcast waits for its bucket's gather");
        assertEquals(plain.wireBytes(), tp2.wireBytes(), "the gather is not broadcast bytes");
    }

    /**
     * Expert bytes go over the EP group instead: EP2 with the same 2 GB bucket all expert costs the same ring; a bucket
     * half dense, half expert on a TP2 x EP2 trainer (ranks 0 and 1 both groups) runs the two gathers one after the
     * other, each moving half of its half; the first rank of each group is the sender, so the groups are Megatron's.
     */
    @Test
    void expertBytesAreGatheredOverTheExpertGroupAfterTheDenseOnes() {
        long bucket = 2 * GB;
        double ep2 = run(bucket, new ShardGather(new TrainerLayout(1, 1, 2, 1, 1, 2), 0, 1)).cycles().get(0)
                .stage(RefitStage.GATHER);
        assertEquals((bucket / 2.0) / NVLINK, ep2, 1e-12);
        double both = run(bucket, new ShardGather(new TrainerLayout(2, 1, 2, 1, 1, 1), bucket / 2, 1)).cycles().get(0)
                .stage(RefitStage.GATHER);
        assertEquals(2 * (bucket / 4.0) / NVLINK, both, 1e-12);
        // BF16 gathered, FP8 sent: twice the bytes on NVLink
        double fp8 = run(bucket, new ShardGather(new TrainerLayout(2, 1, 1, 1, 1, 1), bucket, 2)).cycles().get(0)
                .stage(RefitStage.GATHER);
        assertEquals(2 * (bucket / 2.0) / NVLINK, fp8, 1e-12);
    }

    /**
     * An EP4 group over two hosts of two GPUs, each GPU beside its own NIC: NCCL's two channels each run a ring
     * through both hosts, entering and leaving each host through the channel's own NIC (the ring turns on every host,
     * the sender's too, to start at the GPU beside it), so each carries 3/8 of the bucket at one NIC pair's rate, with
     * no pipeline fill: unlike a broadcast chain's, every link of an all-gather ring carries from step 0, each rank
     * sending its own part (NVIDIA/nccl v2.29.7-1 src/device/all_gather.h:44-72).
     */
    @Test
    void anExpertGroupAcrossHostsGathersThroughEveryChannelsOwnNic() {
        long bucket = 2 * GB;
        NcclBroadcast m = NcclBroadcast.fromRankZero(new Buckets(bucket, false));
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB),
                r -> new Endpoint(r < 2 ? "train" : "train2", "GPU" + r % 2), RefitFixture::inference, m)
                .withBroadcastBytes(bucket).withPreparation(Preparation.NONE.withShardGather(
                        new ShardGather(new TrainerLayout(1, 1, 4, 1, 1, 4), 0, 1)));
        List<Host> hosts = new ArrayList<>(RefitFixture.twoHosts());
        hosts.add(new Host("train2", RefitFixture.twoPairs()));
        RefitResult r = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        double rate = RefitFixture.wireRate(hosts, new Endpoint("train", "GPU0"),
                new Endpoint("train2", "GPU0"));
        double perChannel = bucket * 3 / 4.0 / 2;
        assertEquals(perChannel / rate, r.cycles().get(0).stage(RefitStage.GATHER), 1e-9);
    }

    /** Megatron's rank order (tp-cp-ep-dp-pp): the groups of a TP4 CP2 EP16 DP2 PP4 trainer, as the Qwen3-235B row's. */
    @Test
    void groupsFollowMegatronsRankOrder() {
        ShardGather g = new ShardGather(new TrainerLayout(4, 4, 16, 1, 2, 2), 0, 1);
        assertEquals(List.of(0, 1, 2, 3), g.tensorGroup(0));
        assertEquals(List.of(20, 21, 22, 23), g.tensorGroup(22), "stage 1, cp 1: ranks 16 + 4");
        assertEquals(java.util.stream.IntStream.range(16, 32).boxed().toList(), g.expertGroup(16),
                "EP16 spans one stage's 16 ranks, two 8-GPU hosts");
        assertEquals(List.of(5), g.expertTensorGroup(5), "etp 1: no expert-TP gather");
        ShardGather half = new ShardGather(g.layout(), 500, 1);
        assertEquals(500, half.denseIn(0, 1_000), "the payload's non-expert bytes come first");
        assertEquals(100, half.denseIn(400, 1_000));
        assertEquals(0, half.denseIn(500, 1_000));
        assertTrue(new ShardGather(g.layout(), 0, 1).gathers());
        assertTrue(!ShardGather.NONE.gathers());
        assertThrows(IllegalArgumentException.class, () -> new ShardGather(g.layout(), -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ShardGather(g.layout(), 0, 0));
    }

    /**
     * Hand-worked Megatron-Bridge export (SkyRL's Megatron worker) on a TP2 PP2 EP2 trainer, stage 0 (ranks 0, 1)
     * on host train, stage 1 (ranks 2, 3) on host train2, each GPU beside its own NIC. The payload is stage 0's
     * 0.6 GB non-expert and 0.4 GB expert bytes, then stage 1's 1 GB and 1 GB; one 2 GB bucket from offset 1 GB is
     * stage 1's whole part. Each rank of stage 1 holds half its non-expert bytes (TP2) and half its experts (EP2,
     * etp 1): 0.5 + 0.5 = 1 GB, which it broadcasts over its PP group to its peer on stage 0 (rank 2 to rank 0,
     * rank 3 to rank 1, at once, each through its own NIC pair: 1 GB at one pair's rate, a one-hop chain with no
     * step lag). Then rank 0's TP group (0, 1) all-gathers the 1 GB of non-expert bytes and its EP group (0, 1) the
     * 1 GB of experts, each ring link carrying half over NVLink. Without the export's stages (miles: the sender
     * gathers only its own stage) the pipeline step is absent.
     */
    @Test
    void theExportBroadcastsEachStagesShardOverItsPipelineGroupBeforeTheTpAndEpGathers() {
        TrainerLayout layout = new TrainerLayout(2, 2, 2, 1, 1, 1);
        ShardGather g = ShardGather.exported(layout, List.of(new ShardGather.StageBytes(GB * 6 / 10, GB * 4 / 10),
                new ShardGather.StageBytes(GB, GB)), 1);
        long bucket = 2 * GB;
        // bytes per rank: the bucket is stage 1's, half of each kind on every rank of the stage
        assertEquals(List.of(new ShardGather.Owned(1, GB, GB)), g.owners(GB, bucket));
        assertEquals(GB, g.heldBy(GB, GB), "TP2 halves the non-expert bytes, EP2 the experts");
        assertEquals(List.of(2, 0), g.pipelineGroup(0, 1), "stage 1's rank 2 is the root of rank 0's PP group");
        assertEquals(List.of(3, 1), g.pipelineGroup(3, 1));
        assertEquals(List.of(new ShardGather.Owned(0, GB * 2 / 10, GB * 4 / 10), new ShardGather.Owned(1, GB / 2, 0)),
                g.owners(GB * 4 / 10, GB * 11 / 10), "a bucket across the stage boundary is split by owner");
        assertEquals(GB * 7 / 10, g.denseIn(GB * 4 / 10, GB * 11 / 10), "each stage's non-expert bytes lead");

        // the run: a payload of stage 1's part alone (stage 0 holds none of it), one 2 GB bucket
        java.util.function.IntFunction<Endpoint> ranks = r -> new Endpoint(r < 2 ? "train" : "train2", "GPU" + r % 2);
        List<Host> hosts = new ArrayList<>(RefitFixture.twoHosts());
        hosts.add(new Host("train2", RefitFixture.twoPairs()));
        double rate = RefitFixture.wireRate(hosts, ranks.apply(2), ranks.apply(0));
        double nvlink = (GB / 2.0) / NVLINK;
        ShardGather stageOne = ShardGather.exported(layout, List.of(new ShardGather.StageBytes(0, 0),
                new ShardGather.StageBytes(GB, GB)), 1);
        assertEquals(GB / rate + 2 * nvlink, gatherOfOneBucket(hosts, ranks, bucket, stageOne), 1e-9,
                "the PP broadcast of 1 GB a rank, then the TP and EP rings");
        assertEquals(2 * nvlink, gatherOfOneBucket(hosts, ranks, bucket, new ShardGather(layout, GB, 1)), 1e-9,
                "miles' form: the TP and EP rings only");
    }

    /** The gather stage of a one-sender broadcast of one {@code bucket}-byte bucket. */
    private static double gatherOfOneBucket(List<Host> hosts, java.util.function.IntFunction<Endpoint> ranks,
            long bucket, ShardGather g) {
        NcclBroadcast m = NcclBroadcast.fromRankZero(new Buckets(bucket, false));
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), ranks::apply, RefitFixture::inference, m)
                .withBroadcastBytes(bucket).withPreparation(Preparation.NONE.withShardGather(g));
        return RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()).cycles().get(0)
                .stage(RefitStage.GATHER);
    }

    /** The export's stages must cover every pipeline stage and add up to the payload's non-expert bytes. */
    @Test
    void theExportsStagesMatchThePipeline() {
        TrainerLayout pp2 = new TrainerLayout(1, 2, 1, 1, 1, 1);
        ShardGather.StageBytes one = new ShardGather.StageBytes(1, 1);
        assertThrows(IllegalArgumentException.class, () -> ShardGather.exported(pp2, List.of(one), 1));
        assertThrows(IllegalArgumentException.class, () -> new ShardGather(pp2, 3, 1, List.of(one, one)));
        assertThrows(IllegalArgumentException.class, () -> new ShardGather.StageBytes(-1, 0));
        assertTrue(ShardGather.exported(pp2, List.of(one, one), 1).overPipeline(), "PP2 alone still broadcasts");
        assertTrue(!ShardGather.exported(new TrainerLayout(2, 1, 1, 1, 1, 1), List.of(one), 1).overPipeline());
    }
}
