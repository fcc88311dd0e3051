package org.rdmasim.refit.method;

import org.rdmasim.transport.config.NcclIbHca;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.refit.layout.SliceRoute;

class NcclBroadcastTest {
    private static final long PAYLOAD = 4 * GB;
    private static final long BUCKET = GB;

    private static RefitResult run(NcclBroadcast method) {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference, method)
                .withBroadcastBytes(PAYLOAD);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /** Each inference rank keeps half the payload: its install copies half of each bucket (read + write) at HBM speed. */
    private static double install(long bucket) {
        return 2.0 * (bucket / 2) / RefitFixture.hbm();
    }

    /**
     * Every receiving rank hands each bucket's tensors to its engine's load_weights: one bucket, one buffer, so
     * nothing overlaps the loads and the cycle grows by exactly the tensors' calls; the tensors apportion by bytes.
     */
    @Test
    void theEngineLoadsEveryTensorItReceivesOnceACall() {
        long tensors = 1_000;
        NcclBroadcast m = NcclBroadcast.fromRankZero(new Buckets(PAYLOAD, false));
        RefitPlan plain = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference, m)
                .withBroadcastBytes(PAYLOAD);
        RefitPlan loading = plain.withBroadcastTensors(tensors);
        double perTensor = plain.calibration().value(RefitCalibration.LOAD_TENSOR);
        RefitResult without = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plain,
                RefitFixture.nearestNic());
        RefitResult with = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), loading,
                RefitFixture.nearestNic());
        assertEquals(without.cycles().get(0).seconds() + tensors * perTensor, with.cycles().get(0).seconds(), 1e-9);
        assertTrue(with.restsOn().stream().anyMatch(p -> p.key().equals(RefitCalibration.LOAD_TENSOR)), "rests on it");
        assertTrue(without.restsOn().stream().noneMatch(p -> p.key().equals(RefitCalibration.LOAD_TENSOR)),
                "a plan that loads no tensor does not rest on their cost");
        // four 1 GB buckets of a 4 GB payload hold a quarter of the tensors each, and add up to all of them
        long sum = 0;
        for (int b = 0; b < 4; b++) {
            long n = loading.broadcastTensorsIn(b * GB, (b + 1) * GB);
            assertEquals(250, n);
            sum += n;
        }
        assertEquals(tensors, sum);
    }

    /**
     * An engine that reworks 47 tensors after every load_weights call (SGLang's GLM-4.7-Flash loader splitting each
     * layer's kv_b_proj again) pays them once a call, at the per-tensor cost: one bucket, one call, 47 more tensors;
     * a plan that hands the engine no tensors makes no call and reworks nothing.
     */
    @Test
    void anEngineThatReworksEveryLayerAfterALoadPaysItOnceACall() {
        NcclBroadcast m = NcclBroadcast.fromRankZero(new Buckets(PAYLOAD, false));
        RefitPlan plain = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference, m)
                .withBroadcastBytes(PAYLOAD).withBroadcastTensors(1_000);
        double perTensor = plain.calibration().value(RefitCalibration.LOAD_TENSOR);
        double base = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plain, RefitFixture.nearestNic())
                .cycles().get(0).seconds();
        double reworking = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plain.withPostLoadTensors(47),
                RefitFixture.nearestNic()).cycles().get(0).seconds();
        assertEquals(base + 47 * perTensor, reworking, 1e-9, "one call, 47 tensors reworked after it");
        RefitPlan nothingLoaded = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer,
                RefitFixture::inference, m).withBroadcastBytes(PAYLOAD);
        assertEquals(RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), nothingLoaded,
                        RefitFixture.nearestNic()).cycles().get(0).seconds(),
                RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), nothingLoaded.withPostLoadTensors(47),
                        RefitFixture.nearestNic()).cycles().get(0).seconds(), 1e-12, "no load_weights call, no rework");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> plain.withPostLoadTensors(-1));
    }

    @Test
    void everyReceiverGetsEveryFullBucket() {
        for (NcclBroadcast m : List.of(NcclBroadcast.fromRankZero(new Buckets(BUCKET, true)),
                NcclBroadcast.stripedOverTrainers(new Buckets(BUCKET, true)),
                NcclBroadcast.fromRankZero(new Buckets(3 * GB, false)))) {
            RefitResult.Cycle c = run(m).cycles().get(0);
            assertEquals(PAYLOAD, c.received().get(0), m.name());
            assertEquals(PAYLOAD, c.received().get(1), m.name());
            // both ranks receive the whole payload although each needs half of it: 2x the slice map's bytes
            assertEquals(2 * PAYLOAD, c.wireBytes());
            assertEquals(2.0, c.overMinimum(4 * GB), 1e-12);
        }
    }

    /**
     * One sender, chain train:GPU0 -> infer:GPU0 (fabric) -> infer:GPU1 (NVLink): each bucket crosses at the
     * fabric hop's rate, the last rank one NCCL step behind, after its per-bucket fixed cost; with double
     * buffering and nothing to fill, buckets follow one another and only the last install is left after the
     * last byte.
     */
    @Test
    void singleSenderTimeIsPayloadOverOneNicPlusPipelineFill() {
        double r = RefitFixture.wireRate(RefitFixture.twoHosts(), RefitFixture.trainer(0), RefitFixture.inference(0));
        RefitResult.Cycle c = run(NcclBroadcast.fromRankZero(new Buckets(BUCKET, true))).cycles().get(0);
        double perBucket = (BUCKET + RefitFixture.step()) / r;
        double expected = 4 * (RefitFixture.dispatch() + perBucket) + install(BUCKET);
        assertEquals(expected, c.seconds(), expected * 1e-9);
        assertEquals(4 * perBucket, c.stage(RefitStage.WIRE), expected * 1e-9);
        assertEquals(4 * RefitFixture.dispatch(), c.stage(RefitStage.DISPATCH), expected * 1e-9);
        assertTrue(c.boundBy().startsWith("train:"), c.boundBy() + ": the sender's side holds the chain");
    }

    /**
     * Striped over both trainer GPUs (verl nccl_parallel): two NCCL groups, train:GPU0 and train:GPU1 each the
     * only member on their host, so each group has one channel (the root's own NIC). Both leave train by
     * their own NICs, but on infer each group's search hands its channel 0 the same first NIC (GPU0's
     * mlx5_0, NVIDIA/nccl ncclTopoSelectNets), so the two groups meet on it: striping buys nothing over
     * one sender here, and infer's mlx5_0 bounds both.
     */
    @Test
    void stripedGroupsMeetOnTheReceiversFirstChannelNic() {
        double single = run(NcclBroadcast.fromRankZero(new Buckets(BUCKET, true))).cycles().get(0)
                .stage(RefitStage.WIRE);
        RefitResult.Cycle c = run(NcclBroadcast.stripedOverTrainers(new Buckets(BUCKET, true))).cycles().get(0);
        assertEquals(PAYLOAD, c.received().get(0));
        assertEquals(PAYLOAD, c.received().get(1));
        assertEquals(1.0, c.stage(RefitStage.WIRE) / single, 0.01);
        assertTrue(c.boundBy().startsWith("infer:mlx5_0"), c.boundBy());
    }

    /**
     * A GPU stage that fills each bucket (a conversion at HBM speed made to take half a bucket's wire time):
     * with one buffer every bucket pays fill + wire + install; with two the next fill hides under the wire,
     * and only the first fill and the last install stay outside it.
     */
    @Test
    void doubleBufferingHidesTheFillUnderTheWire() {
        List<Host> hosts = RefitFixture.twoHosts();
        double r = RefitFixture.wireRate(hosts, RefitFixture.trainer(0), RefitFixture.inference(0));
        double wire = (BUCKET + RefitFixture.step()) / r;
        double readPerByte = RefitFixture.hbm() / (2 * r); // conversion of one bucket = BUCKET / (2 r)
        double fill = BUCKET * readPerByte / RefitFixture.hbm();
        double inst = install(BUCKET);
        double[] seconds = new double[2];
        for (int depth = 1; depth <= 2; depth++) {
            RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                    NcclBroadcast.fromRankZero(new Buckets(BUCKET, depth == 2))).withBroadcastBytes(PAYLOAD)
                    .withPreparation(new Preparation(1, readPerByte, 0));
            seconds[depth - 1] = RefitRun.run(hosts, FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic())
                    .firstCycleSeconds();
        }
        double t0 = RefitFixture.dispatch();
        double serial = 4 * (fill + t0 + wire + inst);
        double overlapped = fill + 4 * (t0 + wire) + inst;
        assertEquals(serial, seconds[0], serial * 1e-9);
        assertEquals(overlapped, seconds[1], overlapped * 1e-9);
    }

    @Test
    void ncclIbHcaRestrictsTheNicNcclPicks() {
        // With only mlx5_1 allowed, GPU0's chain leaves and enters by the far NIC: still one NIC, same time,
        // but the bound names mlx5_1 or the switch uplinks it now crosses.
        RefitResult.Cycle pinned = run(new NcclBroadcast(new Buckets(BUCKET, true), false, NcclIbHca.parse("=mlx5_1")))
                .cycles().get(0);
        assertEquals(PAYLOAD, pinned.received().get(1));
        assertTrue(!pinned.boundBy().contains("mlx5_0"), pinned.boundBy());
    }

    /**
     * NCCL channels across hosts: the root train:GPU0 with a receiver beside it on train:GPU1, and two on
     * infer. Both hosts have two communicator GPUs, each with its own NIC, so the broadcast runs two
     * channels, each carrying half the bucket and crossing through its own NIC pair (mlx5_0, then mlx5_1):
     * the wire takes half the time of the one channel NCCL_IB_HCA=mlx5_0 leaves it.
     */
    @Test
    void channelsSpreadABroadcastOverEveryNicItsGpusSitBeside() {
        List<SliceRoute> routes = List.of(new SliceRoute(0, 0, GB, 1, 1), new SliceRoute(0, 1, GB, 1, 1),
                new SliceRoute(0, 2, GB, 1, 1));
        java.util.function.IntFunction<org.rdmasim.transport.Endpoint> inference = rank -> rank == 0
                ? new org.rdmasim.transport.Endpoint("train", "GPU1") : RefitFixture.inference(rank - 1);
        double[] wire = new double[2];
        List<NcclIbHca> hca = List.of(NcclIbHca.unset(), NcclIbHca.parse("=mlx5_0"));
        for (int k = 0; k < 2; k++) {
            RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, inference,
                    new NcclBroadcast(new Buckets(PAYLOAD, false), false, hca.get(k))).withBroadcastBytes(PAYLOAD);
            RefitResult.Cycle c = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan,
                    RefitFixture.nearestNic()).cycles().get(0);
            for (int r = 0; r < 3; r++) {
                assertEquals(PAYLOAD, c.received().get(r));
            }
            wire[k] = c.stage(RefitStage.WIRE);
        }
        double r = RefitFixture.wireRate(RefitFixture.twoHosts(), RefitFixture.trainer(0), RefitFixture.inference(0));
        assertEquals(PAYLOAD / r, wire[1], PAYLOAD / r * 0.01, "one channel: one NIC's rate");
        assertEquals(2.0, wire[1] / wire[0], 0.02, "two channels over two NICs: twice the rate");
    }

    @Test
    void aBroadcastWithoutItsPayloadIsRefused() {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                NcclBroadcast.fromRankZero(new Buckets(BUCKET, true)));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic()));
        assertTrue(e.getMessage().contains("broadcastBytes"), e.getMessage());
    }

    @Test
    void sendersAreEvenlySpacedOverTheTrainerRanks() {
        List<Integer> ranks = List.of(0, 1, 2, 3, 4, 5, 6, 7);
        assertEquals(List.of(0), NcclBroadcast.senders(ranks, 1));
        assertEquals(List.of(0, 2, 5), NcclBroadcast.senders(ranks, 3));
        assertEquals(List.of(0, 4), NcclBroadcast.senders(ranks, 2));
        assertEquals(ranks, NcclBroadcast.senders(ranks, 0));
        assertEquals(ranks, NcclBroadcast.senders(ranks, 8));
        assertEquals("nccl-broadcast", new NcclBroadcast(new Buckets(BUCKET, true), 1, NcclIbHca.unset()).name());
        assertEquals("nccl-broadcast-striped", new NcclBroadcast(new Buckets(BUCKET, true), 3, NcclIbHca.unset()).name());
        assertEquals("nccl-broadcast-stage-heads",
                new NcclBroadcast(new Buckets(BUCKET, true), 2, NcclIbHca.unset(), true).name());
    }

    /**
     * miles' lock: two senders, each beside its own NIC, whose buckets go on the wire one at a time keep the wire
     * busy exactly as long as one sender alone (each bucket crosses one NIC at its line rate, one after another):
     * a second sender behind the lock moves the packing, not the wire.
     */
    @Test
    void sendersBehindOneLockPutOneBucketOnTheWireAtATime() {
        Buckets b = new Buckets(BUCKET, true);
        java.util.function.ToDoubleFunction<NcclBroadcast> wire = m -> RefitRun.run(RefitFixture.threeHosts(),
                FabricSpec.nonBlocking(), RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer,
                        RefitFixture::inferenceOwnHost, m).withBroadcastBytes(PAYLOAD), RefitFixture.nearestNic())
                .cycles().get(0).stage(RefitStage.WIRE);
        double one = wire.applyAsDouble(new NcclBroadcast(b, 1, NcclIbHca.unset()));
        double locked = wire.applyAsDouble(new NcclBroadcast(b, 2, NcclIbHca.unset(), true));
        assertEquals(one, locked, one * 1e-9, "one bucket at a time, whichever sender holds it");
    }

    /**
     * miles' lock is held from a bucket's call until the engines reply (radixark/miles 9a6fc9e6 broadcast.py:85-97:
     * acquire, broadcast, {@code ray.get(refs)}, release), and they reply once their host has queued the load, the
     * broadcast's {@code wait()} holding no host: with two stage heads the calls and loads still go one at a time (their
     * spans add up to no more than the cycle), but each load runs beside a broadcast, so the cycle is shorter than the
     * call, the wire and the load end to end.
     */
    @Test
    void theLockCoversEachCallAndLoadWhileTheLoadsRunBesideTheBroadcasts() {
        Buckets b = new Buckets(BUCKET, true);
        RefitResult.Cycle locked = RefitRun.run(RefitFixture.threeHosts(), FabricSpec.nonBlocking(),
                RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inferenceOwnHost,
                        new NcclBroadcast(b, 2, NcclIbHca.unset(), true)).withBroadcastBytes(PAYLOAD)
                        .withBroadcastTensors(4_000), RefitFixture.nearestNic()).cycles().get(0);
        double install = locked.stage(RefitStage.INSTALL);
        double wire = locked.stage(RefitStage.WIRE);
        double dispatch = locked.stage(RefitStage.DISPATCH);
        assertTrue(install > 0.5 * wire, "the loads are long enough to matter: install " + install + " s, wire " + wire);
        assertTrue(dispatch + install <= locked.seconds() + 1e-9,
                "dispatch + install " + (dispatch + install) + " s within the cycle's " + locked.seconds() + " s");
        assertTrue(locked.seconds() < dispatch + wire + install - 0.5 * Math.min(wire, install),
                "the loads overlap the broadcasts: cycle " + locked.seconds() + " s against "
                        + (dispatch + wire + install) + " s end to end");
    }
}
