package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.config.NcclIbHca;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.transport.ucx.UcxLaneSelection;

class RdmaPullTest {
    private static RefitResult direct(RefitRun.Transport transport) {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                RdmaPull.direct());
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, transport);
    }

    @Test
    void everyInferenceRankReadsExactlyItsRoutesThroughUcxLanes() {
        RefitRun.Transport ucx = RefitRun.Transport.of(
                new UcxLaneSelection(StackProfile.plainUcx(), UcxLaneSelection.Api.RMA));
        RefitResult r = direct(ucx);
        RefitResult.Cycle c = r.cycles().get(0);
        assertEquals(2 * GB, c.received().get(0));
        assertEquals(2 * GB, c.received().get(1));
        assertEquals(r.minimumBytes(), c.wireBytes(), "a pull moves the slice map's bytes and nothing more");
        assertEquals(4, r.transfers().size());
        for (TransferResult t : r.transfers()) {
            assertEquals(GB, t.lanes().stream().mapToLong(l -> l.bytes()).sum(), t.spec().id());
            assertEquals(4, t.spec().descriptors(), "one descriptor per contiguous run");
        }
        assertEquals(0, c.stage(RefitStage.INSTALL), "READs land in the engine's tensors");
    }

    /**
     * With a NIC pin each inference GPU takes both its routes through its own NIC, and each trainer GPU sends
     * both of its through its own: every NIC carries two flows, so the pull ends at 2 GB over one path's rate
     * (plus microseconds of latency), held by a NIC.
     */
    @Test
    void pullTimeIsTheReceiverPathsBytesOverItsRate() {
        List<Host> hosts = RefitFixture.twoHosts();
        double r = RefitFixture.wireRate(hosts, RefitFixture.trainer(0), RefitFixture.inference(0));
        RefitResult.Cycle c = direct(RefitFixture.nearestNic()).cycles().get(0);
        assertEquals(2 * GB / r, c.seconds(), 2 * GB / r * 1e-3);
        assertTrue(c.boundBy().contains(":mlx5_"), c.boundBy());
    }

    /**
     * Tree fan-out: ranks 0 and 1 hold the same shard; rank 0 pulls from the trainers, rank 1 then reads the
     * whole shard from rank 0 in one READ. The trainers send half the bytes, the receivers still get theirs.
     */
    @Test
    void treeFanOutServesTheSecondReplicaFromTheFirst() {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                RdmaPull.tree(1, rank -> 0));
        RefitResult tree = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(), plan,
                RefitFixture.nearestNic());
        RefitResult direct = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(),
                plan.withMethod(RdmaPull.direct()), RefitFixture.nearestNic());
        RefitResult.Cycle c = tree.cycles().get(0);
        assertEquals(2 * GB, c.received().get(0));
        assertEquals(2 * GB, c.received().get(1));
        assertEquals(2 * GB, sentBy(tree, "train"));
        assertEquals(4 * GB, sentBy(direct, "train"));
        TransferResult copy = tree.transfers().stream().filter(t -> t.spec().id().equals("c0/tree/i0-i1")).findFirst()
                .orElseThrow();
        double leaderDone = tree.transfers().stream().filter(t -> t.spec().sink().host().equals("infer0"))
                .mapToDouble(TransferResult::finishSeconds).max().orElseThrow();
        assertTrue(copy.startSeconds() >= leaderDone, "rank 1 reads from rank 0 only once rank 0 holds the shard");
        assertEquals(8, copy.spec().descriptors(), "the shard's runs");
    }

    @Test
    void ranksGivenOneShardMustNeedTheSameBytes() {
        var routes = List.of(new org.rdmasim.refit.layout.SliceRoute(0, 0, GB, 1, 1),
                new org.rdmasim.refit.layout.SliceRoute(0, 1, 2 * GB, 1, 1));
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                RdmaPull.tree(1, rank -> 0));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()));
        assertTrue(e.getMessage().contains("same shard"), e.getMessage());
    }

    /** Trainer rank 0 serves inference ranks 0 and 1, 1 GB each; {@code engineRankOf} says which share a load. */
    private static RefitResult replica(java.util.function.IntUnaryOperator engineRankOf, int buckets) {
        var routes = List.of(new org.rdmasim.refit.layout.SliceRoute(0, 0, GB, 1, 1),
                new org.rdmasim.refit.layout.SliceRoute(0, 1, GB, 1, 1));
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference,
                RdmaPull.hostReplica(engineRankOf, rank -> buckets));
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    private static double copySeconds() {
        return GB / RefitFixture.h2dRate(RefitFixture.twoHosts(), RefitFixture.trainer(0));
    }

    /**
     * miles' P2P update in one bucket: the sender writes from host memory, after copying each engine rank's bytes
     * down from its GPU; the second engine rank's load waits for the first's write (it overwrites the same
     * replica). So the cycle holds two device-to-host copies of 1 GB and two writes back to back, which a GPU pull
     * of the same routes does not.
     */
    @Test
    void hostReplicaCopiesEachEngineRankDownThenWritesItFromHostMemory() {
        RefitResult r = replica(rank -> rank, 1);
        RefitResult.Cycle c = r.cycles().get(0);
        assertEquals(GB, c.received().get(0));
        assertEquals(GB, c.received().get(1));
        assertEquals(2, r.transfers().size());
        for (TransferResult t : r.transfers()) {
            assertEquals(new org.rdmasim.transport.Endpoint("train", "CPU0"), t.spec().source(), t.spec().id());
            assertEquals(org.rdmasim.transport.Operation.WRITE, t.spec().operation(), t.spec().id());
        }
        TransferResult first = byId(r, "c0/replica/t0-i0/b0");
        TransferResult second = byId(r, "c0/replica/t0-i1/b0");
        double copy = copySeconds();
        assertTrue(first.startSeconds() >= copy * 0.999, "the first write waits for its engine rank's load");
        assertTrue(second.startSeconds() >= first.finishSeconds() + copy * 0.999,
                "the replica is reloaded only once written, and written once reloaded");
        double writes = (first.finishSeconds() - first.startSeconds()) + (second.finishSeconds() - second.startSeconds());
        assertTrue(c.seconds() >= 2 * copy + writes * 0.999, c.seconds() + " s holds two copies and two writes");
        assertEquals(2 * copy, c.stage(RefitStage.H2D), 2 * copy * 0.01, "both loads are host copies");
        RefitResult pull = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(),
                RefitPlan.of(List.of(new org.rdmasim.refit.layout.SliceRoute(0, 0, GB, 1, 1),
                        new org.rdmasim.refit.layout.SliceRoute(0, 1, GB, 1, 1)), RefitFixture::trainer,
                        RefitFixture::inference, RdmaPull.direct()), RefitFixture.nearestNic());
        assertTrue(c.seconds() > pull.cycles().get(0).seconds() + 2 * copy, "the loads add to a GPU pull's time");
    }

    /** Ranks of one engine rank in two engines share one load: one copy, both writes at once. */
    @Test
    void ranksOfOneEngineRankShareOneLoad() {
        RefitResult r = replica(rank -> 0, 1);
        RefitResult.Cycle shared = r.cycles().get(0);
        double copy = copySeconds();
        assertEquals(copy, shared.stage(RefitStage.H2D), copy * 0.01, "one 1 GB load");
        assertTrue(shared.seconds() < replica(rank -> rank, 1).cycles().get(0).seconds());
        assertEquals(byId(r, "c0/replica/t0-i0/b0").startSeconds(), byId(r, "c0/replica/t0-i1/b0").startSeconds(),
                1e-12);
    }

    /**
     * In buckets, the last engine rank's writes of one bucket run while the next bucket is loaded: the loads and
     * writes overlap, so four buckets end sooner than one, each write after its own bucket's load.
     */
    @Test
    void bucketsOverlapTheLastEngineRanksWritesWithTheNextLoad() {
        RefitResult one = replica(rank -> 0, 1);
        RefitResult four = replica(rank -> 0, 4);
        double copy = copySeconds();
        assertEquals(8, four.transfers().size(), "two routes, four buckets");
        for (int j = 0; j < 4; j++) {
            TransferResult w = byId(four, "c0/replica/t0-i0/b" + j);
            assertEquals(GB / 4, w.spec().bytes());
            assertTrue(w.startSeconds() >= (j + 1) * copy / 4 * 0.999, "bucket " + j + " is written once loaded");
        }
        assertTrue(four.cycles().get(0).seconds() < one.cycles().get(0).seconds() - copy / 2,
                four.cycles().get(0).seconds() + " vs " + one.cycles().get(0).seconds());
        assertEquals(one.cycles().get(0).received(), four.cycles().get(0).received());
    }

    /** A sender's writes share {@code p2p_transfer_num_workers} threads: never more than four at once. */
    @Test
    void aSenderRunsAtMostFourWritesAtOnce() {
        List<org.rdmasim.refit.layout.SliceRoute> routes = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            routes.add(new org.rdmasim.refit.layout.SliceRoute(0, i, GB, 1, 1));
        }
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, rank -> RefitFixture.inference(rank % 2),
                RdmaPull.hostReplica(rank -> 0, rank -> 1));
        RefitResult r = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        assertEquals(6, r.transfers().size());
        for (TransferResult t : r.transfers()) {
            long overlapping = r.transfers().stream().filter(o -> o.startSeconds() <= t.startSeconds()
                    && o.finishSeconds() > t.startSeconds()).count();
            assertTrue(overlapping <= RdmaPull.REPLICA_WRITERS, t.spec().id() + " starts beside " + overlapping);
        }
        double firstEnd = r.transfers().stream().mapToDouble(TransferResult::finishSeconds).min().orElseThrow();
        assertEquals(2, r.transfers().stream().filter(t -> t.startSeconds() >= firstEnd).count(),
                "the fifth and sixth wait for a thread");
    }

    /** As {@link #replica}, with the replica's load at {@code perGb} seconds a GB beyond its copy. */
    private static RefitResult replica(java.util.function.IntUnaryOperator engineRankOf, double perGb,
            RefitMethod method) {
        var routes = List.of(new org.rdmasim.refit.layout.SliceRoute(0, 0, GB, 1, 1),
                new org.rdmasim.refit.layout.SliceRoute(0, 1, GB, 1, 1));
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference, method)
                .withCalibration(RefitCalibration.defaults().with(RefitCalibration.REPLICA_LOAD, perGb,
                        org.rdmasim.hardware.CalibrationProfile.Kind.ASSUMED, "test"));
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /**
     * The replica's load_weights beyond its copy ({@link RefitCalibration#REPLICA_LOAD}) is paid per GB the sender
     * loads, in series with its loop: two engine ranks of 1 GB each load 2 GB, so the cycle grows by twice the
     * per-GB cost, logged as conversion, and each engine rank's write starts only once its load is done; ranks of
     * one engine rank share one load and pay it once. A GPU pull of the same routes runs no replica: it neither
     * pays the term, whatever its value, nor lists it among what it rests on.
     */
    @Test
    void theReplicaLoadIsPaidPerGbLoadedInSeriesAndByHostReplicasOnly() {
        double x = 0.25;
        RefitMethod twoRanks = RdmaPull.hostReplica(rank -> rank, rank -> 1);
        RefitResult without = replica(rank -> rank, 0, twoRanks);
        RefitResult with = replica(rank -> rank, x, twoRanks);
        assertEquals(without.cycles().get(0).seconds() + 2 * x, with.cycles().get(0).seconds(), 1e-6,
                "two 1 GB loads, each in series with the writes that follow it");
        assertEquals(2 * x, with.cycles().get(0).stage(RefitStage.CONVERT), 1e-9);
        assertEquals(0.0, without.cycles().get(0).stage(RefitStage.CONVERT));
        double copy = copySeconds();
        assertTrue(byId(with, "c0/replica/t0-i0/b0").startSeconds() >= copy * 0.999 + x,
                "the first write waits for its rank's whole load");
        assertTrue(with.restsOn().stream().map(org.rdmasim.workload.StageParameter::line).toList()
                .contains(RefitCalibration.REPLICA_LOAD + " = 0.25 s/GB, assumed (test)"),
                with.restsOn().toString());
        RefitMethod oneRank = RdmaPull.hostReplica(rank -> 0, rank -> 1);
        assertEquals(replica(rank -> 0, 0, oneRank).cycles().get(0).seconds() + x,
                replica(rank -> 0, x, oneRank).cycles().get(0).seconds(), 1e-6, "one shared load, paid once");
        RefitResult pull = replica(rank -> rank, x, RdmaPull.direct());
        assertEquals(replica(rank -> rank, 0, RdmaPull.direct()).cycles().get(0).seconds(),
                pull.cycles().get(0).seconds(), 0.0);
        assertTrue(pull.restsOn().stream().noneMatch(r -> r.key().equals(RefitCalibration.REPLICA_LOAD)),
                pull.restsOn().toString());
    }

    /**
     * miles' P2P update with a sharded trainer: an EP2 stage on one host (trainer ranks 0 and 1), all of its 2 GB
     * routed experts, each rank serving one engine rank 1 GB, in one bucket. Both ranks all-gather the bucket first
     * (mixin.py L115-126 @9a6fc9e6): one ring of two GPUs, each link carrying the half a rank does not hold, 1 GB at
     * NVLink's 450 GB/s a direction (one hop: no step of lag behind it). No write leaves before that gather ends, and the cycle
     * grows by it against the same update with nothing to gather.
     */
    @Test
    void hostReplicaGathersEachBucketOverItsStagesGroupsBeforeAnyLoad() {
        var routes = List.of(new org.rdmasim.refit.layout.SliceRoute(0, 0, GB, 1, 1),
                new org.rdmasim.refit.layout.SliceRoute(1, 1, GB, 1, 1));
        List<ShardGather.StageBytes> stage = List.of(new ShardGather.StageBytes(0, 2 * GB));
        ShardGather ep2 = new ShardGather(new org.rdmasim.refit.layout.TrainerLayout(1, 1, 2, 1, 1, 2), 0, 1);
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference,
                RdmaPull.hostReplica(rank -> rank, rank -> 1, stage)).withPreparation(Preparation.NONE.withShardGather(ep2));
        RefitResult gathered = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan,
                RefitFixture.nearestNic());
        RefitResult plain = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(),
                plan.withMethod(RdmaPull.hostReplica(rank -> rank, rank -> 1)), RefitFixture.nearestNic());
        double nvlink = 18 * 25e9;
        double gather = GB / nvlink;
        RefitResult.Cycle c = gathered.cycles().get(0);
        assertEquals(gather, c.stage(RefitStage.GATHER), gather * 1e-6, "one EP2 ring over NVLink");
        assertEquals(0, plain.cycles().get(0).stage(RefitStage.GATHER), 1e-12, "no groups, nothing gathered");
        for (TransferResult t : gathered.transfers()) {
            assertTrue(t.startSeconds() >= gather * 0.999, t.spec().id() + " waits for the bucket's gather");
        }
        assertEquals(plain.cycles().get(0).seconds() + gather, c.seconds(), gather * 0.01,
                "the gather comes before the loads and writes, with nothing under it");
    }

    /** A per-bucket gather needs the host replica's buckets: a GPU pull has none. */
    @Test
    void aStageGatherBelongsToAHostReplica() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new RdmaPull(0, rank -> rank, null, List.of(new ShardGather.StageBytes(0, GB)), NcclIbHca.unset()));
        assertTrue(e.getMessage().contains("host replica"), e.getMessage());
    }

    private static TransferResult byId(RefitResult r, String id) {
        return r.transfers().stream().filter(t -> t.spec().id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void sameInputsGiveIdenticalResults() {
        RefitRun.Transport ucx = RefitRun.Transport.of(
                new UcxLaneSelection(new StackProfile(List.of(), Optional.empty(),
                        StackProfile.plainUcx().ucx()), UcxLaneSelection.Api.RMA));
        RefitResult a = direct(ucx);
        RefitResult b = direct(ucx);
        assertEquals(a.cycles(), b.cycles());
        assertEquals(a.transfers().stream().map(t -> t.spec().id() + "@" + t.finishSeconds()).toList(),
                b.transfers().stream().map(t -> t.spec().id() + "@" + t.finishSeconds()).toList());
    }

    private static long sentBy(RefitResult r, String host) {
        return r.transfers().stream().filter(t -> t.spec().source().host().equals(host)).mapToLong(t -> t.spec().bytes())
                .sum();
    }
}
