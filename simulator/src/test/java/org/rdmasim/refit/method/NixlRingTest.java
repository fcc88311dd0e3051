package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferResult;

/**
 * verl's NIXL ring (verl-project/verl verl/checkpoint_engine/nixl_checkpoint_engine.py): trainer rank 0 alone
 * sends, each inference rank READs each whole bucket from the one before it and offers it to the next only once
 * it has fully arrived, two buffers a rank.
 */
class NixlRingTest {
    private static final long PAYLOAD = 4 * GB;

    /** Hosts train, infer0, infer1, infer2: two H100s each, each GPU beside its own ConnectX-7. */
    private static List<Host> fourHosts() {
        HostSpec s = RefitFixture.twoPairs();
        return List.of(new Host("train", s), new Host("infer0", s), new Host("infer1", s), new Host("infer2", s));
    }

    /** Each of {@code receivers} inference ranks needs half the payload, from trainer ranks 0 and 1. */
    private static List<SliceRoute> routes(int receivers) {
        List<SliceRoute> out = new ArrayList<>();
        for (int i = 0; i < receivers; i++) {
            for (int t = 0; t < 2; t++) {
                out.add(new SliceRoute(t, i, PAYLOAD / 4, 4, 2));
            }
        }
        return out;
    }

    private static RefitResult run(List<Host> hosts, int receivers, IntFunction<Endpoint> inference, long bucket) {
        RefitPlan plan = RefitPlan.of(routes(receivers), RefitFixture::trainer, inference, NixlRing.of(bucket))
                .withBroadcastBytes(PAYLOAD);
        return RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /** The install of an inference rank's share (half) of a bucket: read and written once at HBM speed. */
    private static double install(long bucket) {
        return 2.0 * (bucket / 2) / RefitFixture.hbm();
    }

    /**
     * The hand-worked case: trainer rank 0 on train, three receivers each alone on its own host, so every hop is
     * one READ of time T over equal links, and the sender pays the per-bucket cost d before offering each
     * bucket. Store and forward with two buffers: receiver p holds bucket k at (k + 1) d + (k + p) T, so the
     * last of N receivers has the last of B buckets at B d + (B + N - 1) T, then installs it. B = 4, N = 3:
     * 4 d + 6 T. With one bucket the chain cannot overlap at all: d + 3 T, three times a hop, where a chain
     * that forwarded bytes as they arrived would take about one hop's time.
     */
    /**
     * Each receiver hands every bucket's tensors to its engine during the bucket's step: with loads far slower than
     * the wire (4,000 tensors at 1 ms), the chain waits on them, every rank loading the whole model's tensors.
     */
    @Test
    void everyReceiverLoadsEveryTensorOfTheModel() {
        long tensors = 4_000;
        RefitPlan plain = RefitPlan.of(routes(3), RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                NixlRing.of(GB)).withBroadcastBytes(PAYLOAD).withCalibration(RefitCalibration.defaults().with(
                        RefitCalibration.LOAD_TENSOR, 1e-3, org.rdmasim.hardware.CalibrationProfile.Kind.ASSUMED,
                        "test"));
        double without = RefitRun.run(fourHosts(), FabricSpec.nonBlocking(), plain, RefitFixture.nearestNic())
                .cycles().get(0).seconds();
        double with = RefitRun.run(fourHosts(), FabricSpec.nonBlocking(), plain.withBroadcastTensors(tensors),
                RefitFixture.nearestNic()).cycles().get(0).seconds();
        assertTrue(with >= tensors * 1e-3, with + " s: one rank's loads alone take 4 s");
        assertTrue(with - without >= 0.9 * tensors * 1e-3, (with - without) + " s added by the loads");
    }

    @Test
    void chainTimeIsBucketsPlusHopsMinusOneBucketSteps() {
        List<Host> hosts = fourHosts();
        double d = RefitFixture.dispatch();
        for (long bucket : new long[] {GB, PAYLOAD}) {
            int b = (int) (PAYLOAD / bucket);
            double t = RefitFixture.readSeconds(hosts, RefitFixture.trainer(0), RefitFixture.inferenceOwnHost(0), bucket);
            assertTrue(install(bucket) < t, "the test's premise: installs hide under the reads");
            RefitResult.Cycle c = run(hosts, 3, RefitFixture::inferenceOwnHost, bucket).cycles().get(0);
            double expected = b * d + (b + 3 - 1) * t + install(bucket);
            assertEquals(expected, c.seconds(), expected * 1e-6, "bucket " + bucket);
            assertEquals(b * d, c.stage(RefitStage.DISPATCH), 1e-12);
        }
    }

    /**
     * Who sends to whom, as build_topology wires it: trainer rank 0 to inference rank 0, then each inference
     * rank to the next in rank order, every bucket whole, as one-descriptor READs posted by the receiver;
     * trainer rank 1 sends nothing. Every receiver gets the whole payload (bytes conserved: 3 x 4 GB on the wire).
     */
    @Test
    void trainerRankZeroFeedsAChainInRankOrder() {
        RefitResult r = run(fourHosts(), 3, RefitFixture::inferenceOwnHost, GB);
        List<TransferResult> moved = r.transfers();
        assertEquals(3 * 4, moved.size(), "4 buckets over 3 hops");
        for (TransferResult x : moved) {
            String id = x.spec().id();
            int hop = Integer.parseInt(id.substring(id.lastIndexOf("-p") + 2));
            Endpoint from = hop == 1 ? RefitFixture.trainer(0) : RefitFixture.inferenceOwnHost(hop - 2);
            assertEquals(from, x.spec().source(), id);
            assertEquals(RefitFixture.inferenceOwnHost(hop - 1), x.spec().sink(), id);
            assertEquals(Operation.READ, x.spec().operation(), id);
            assertEquals(GB, x.spec().bytes(), id);
        }
        RefitResult.Cycle c = r.cycles().get(0);
        for (int i = 0; i < 3; i++) {
            assertEquals(PAYLOAD, c.received().get(i));
        }
        assertEquals(3 * PAYLOAD, c.wireBytes());
        // each rank needs half the payload: the ring moves 2x the slice map's bytes, as a broadcast does
        assertEquals(2.0, c.overMinimum(r.minimumBytes()), 1e-12);
    }

    /**
     * Two receivers on one host: the hop between them is a peer read over NVLink (UCX's cuda_ipc), not a
     * NIC, so only the trainer's hop posts RDMA transfers, and the NVLink hop, far faster, hides under the
     * next bucket's fabric READ except for the last bucket.
     */
    @Test
    void aHopInsideAHostGoesOverNvlink() {
        List<Host> hosts = RefitFixture.twoHosts();
        RefitResult r = run(hosts, 2, RefitFixture::inference, GB);
        RefitResult.Cycle c = r.cycles().get(0);
        assertEquals(4, r.transfers().size(), "only the trainer -> infer:GPU0 hop crosses the fabric");
        for (TransferResult x : r.transfers()) {
            assertEquals(RefitFixture.inference(0), x.spec().sink());
        }
        assertEquals(PAYLOAD, c.received().get(0));
        assertEquals(PAYLOAD, c.received().get(1));
        double t = RefitFixture.readSeconds(hosts, RefitFixture.trainer(0), RefitFixture.inference(0), GB);
        double nvlink = GB / hosts.get(1).gpu("GPU1").gpu().nvlinkBytesPerSecond();
        double expected = 4 * RefitFixture.dispatch() + 4 * t + nvlink + install(GB);
        assertEquals(expected, c.seconds(), expected * 1e-6);
    }

    /**
     * verl's Mooncake engine: the same chain, but every hop a Transfer Engine READ through the NICs, the hop
     * between two GPUs of one host too (its RDMA transport has no cuda_ipc path), from the sending GPU's own HCA
     * into the receiving GPU's over the endpoint's two QPs. Two receivers on one host: 8 RDMA transfers (4
     * buckets x 2 hops) where the NIXL ring posts 4, each hop near the wire rate, above what one QP reads, the
     * hop inside the host as long as the one between hosts, and the chain B d + (B + N - 1) T + install.
     */
    @Test
    void aMooncakeRingReadsEveryHopThroughTheNicsOverTwoQps() {
        List<Host> hosts = RefitFixture.twoHosts();
        RefitPlan plan = RefitPlan.of(routes(2), RefitFixture::trainer, RefitFixture::inference, NixlRing.mooncake(GB))
                .withBroadcastBytes(PAYLOAD);
        assertEquals("mooncake-ring", plan.method().name());
        RefitResult r = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        assertEquals(8, r.transfers().size(), "every hop of every bucket crosses the NICs");
        double qp = org.rdmasim.hardware.Units.gbpsToBytesPerSecond(org.rdmasim.hardware.CalibrationProfile
                .forHost(hosts.get(1).spec()).qpReadRate().orElseThrow().value());
        double wire = RefitFixture.wireRate(hosts, RefitFixture.inference(0), RefitFixture.inference(1));
        assertTrue(qp < 0.9 * wire, "the test's premise: one QP cannot read at the wire rate");
        double inside = 0;
        double across = 0;
        for (TransferResult x : r.transfers()) {
            assertEquals(Operation.READ, x.spec().operation());
            assertEquals(2, x.lanes().size(), x.spec().id() + ": one lane per QP of the endpoint");
            for (var lane : x.lanes()) {
                assertEquals("mlx5_" + x.spec().source().device().substring(3), lane.sourceNic(), x.spec().id());
                assertEquals("mlx5_" + x.spec().sink().device().substring(3), lane.sinkNic(), x.spec().id());
                assertEquals(GB / 2, lane.bytes());
            }
            double rate = GB / x.seconds();
            assertTrue(rate > 1.1 * qp && rate <= wire * (1 + 1e-9), x.spec().id() + ": " + rate + " B/s");
            if (x.spec().source().host().equals(x.spec().sink().host())) {
                inside = x.seconds();
            } else {
                across = x.seconds();
            }
        }
        assertEquals(across, inside, across * 1e-3, "a hop inside the host is a NIC-to-NIC READ too");
        double expected = 4 * RefitFixture.dispatch() + (4 + 2 - 1) * across + install(GB);
        assertEquals(expected, r.cycles().get(0).seconds(), expected * 1e-3);
        RefitResult.Cycle c = r.cycles().get(0);
        assertEquals(PAYLOAD, c.received().get(0));
        assertEquals(PAYLOAD, c.received().get(1));
        assertEquals(2 * PAYLOAD, c.wireBytes());
    }

    /** Each rank registers two buffers of one bucket (prepare(): send_buf and recv_buf), not the model. */
    @Test
    void registersTwoBucketBuffersInTheFirstCycleOnly() {
        RefitPlan plan = RefitPlan.of(routes(3), RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                NixlRing.of(GB)).withBroadcastBytes(PAYLOAD).withRegistration(Registration.arena(true), 2);
        RefitResult r = RefitRun.run(fourHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        double expected = Registration.arena(true).seconds(RegistrationParameters.defaults(), 2 * GB, 2);
        assertEquals(expected, r.cycles().get(0).stage(RefitStage.REGISTER), 1e-12);
        assertEquals(0.0, r.cycles().get(1).stage(RefitStage.REGISTER));
        assertTrue(expected > 0);
    }

    @Test
    void oneBufferAndAMissingPayloadAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new NixlRing(new Buckets(GB, false)));
        RefitPlan plan = RefitPlan.of(routes(2), RefitFixture::trainer, RefitFixture::inference, NixlRing.of(GB));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()));
        assertTrue(e.getMessage().contains("broadcastBytes"), e.getMessage());
    }
}
