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
