package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.hardware.Host;
import org.rdmasim.refit.layout.SliceRoute;

class CheckpointEngineTest {
    private static final long PAYLOAD = 4 * GB;
    private static final long BUCKET = GB;

    /** One owner (trainer rank 0's host memory) and two inference ranks that each need half the model. */
    private static List<SliceRoute> oneOwner() {
        return List.of(new SliceRoute(0, 0, 2 * GB, 8, 4), new SliceRoute(0, 1, 2 * GB, 8, 4));
    }

    private static RefitResult run(List<SliceRoute> routes, Buckets buckets) {
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference, CheckpointEngine.of(buckets))
                .withBroadcastBytes(PAYLOAD);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    @Test
    void everyInferenceRankGetsTheWholeCheckpointAndTheHostCopyCrossesPcie() {
        RefitResult.Cycle c = run(RefitFixture.twoByTwo(GB), new Buckets(BUCKET, true)).cycles().get(0);
        assertEquals(PAYLOAD, c.received().get(0));
        assertEquals(PAYLOAD, c.received().get(1));
        assertTrue(c.stage(RefitStage.H2D) > 0);
        assertTrue(c.stage(RefitStage.INSTALL) > 0);
    }

    /**
     * One owner, per round (one bucket each): H2D at the PCIe path's rate (h), then the device copy into the
     * broadcast buffer (c), the per-bucket fixed cost (t0), the broadcast chain (w, one step of fill included),
     * then the reload of the receiver's half (d) under the next round. The next round's H2D starts only once the
     * round's bucket is handed over (checkpoint_engine/ps.py L1235-1268: the copy at the top of each round), so
     * nothing but the reload overlaps: 4 (h + c + t0 + w) + d, then the update's end (e). A single buffer is
     * refused: the code has none.
     */
    @Test
    void eachRoundCopiesFromHostThenBroadcastsAndOnlyTheReloadOverlaps() {
        List<Host> hosts = RefitFixture.twoHosts();
        double h = BUCKET / RefitFixture.h2dRate(hosts, RefitFixture.trainer(0));
        double c = 2.0 * BUCKET / RefitFixture.hbm();
        double w = (BUCKET + RefitFixture.step())
                / RefitFixture.wireRate(hosts, RefitFixture.trainer(0), RefitFixture.inference(0));
        double d = 2.0 * (BUCKET / 2) / RefitFixture.hbm();
        assertTrue(d < h + c + w, "the test's premise: a reload hides under the next round");
        double t0 = RefitFixture.dispatch();
        double cycle = run(oneOwner(), new Buckets(BUCKET, true)).firstCycleSeconds();
        assertEquals(4 * (h + c + t0 + w) + d + RefitFixture.updateEnd(), cycle, cycle * 1e-9);
        assertThrows(IllegalArgumentException.class, () -> CheckpointEngine.of(new Buckets(BUCKET, false)));
    }

    /**
     * The update's end ({@link RefitCalibration#CKPT_UPDATE_END}: checkpoint-engine's gc, post-load hook, closing
     * barriers and process group teardown) is paid once per update, in its own stage, by both modes: each cycle
     * grows by exactly the term, and the result says what it rests on. Other methods run none of that code: an
     * NCCL broadcast of the same payload and an RDMA pull neither pay it, whatever its value, nor list it.
     */
    @Test
    void theUpdateEndIsPaidOncePerUpdateByCheckpointEngineOnly() {
        double e = 0.75;
        RefitCalibration none = RefitCalibration.defaults().with(RefitCalibration.CKPT_UPDATE_END, 0,
                CalibrationProfile.Kind.ASSUMED, "test");
        RefitCalibration some = RefitCalibration.defaults().with(RefitCalibration.CKPT_UPDATE_END, e,
                CalibrationProfile.Kind.ASSUMED, "test");
        for (CheckpointEngine m : List.of(CheckpointEngine.of(new Buckets(BUCKET, true)),
                CheckpointEngine.p2p(new Buckets(BUCKET, true), 2))) {
            RefitResult without = run(RefitFixture.twoByTwo(GB), m, none);
            RefitResult with = run(RefitFixture.twoByTwo(GB), m, some);
            assertEquals(2, with.cycles().size());
            for (int k = 0; k < 2; k++) {
                RefitResult.Cycle c = with.cycles().get(k);
                assertEquals(e, c.stage(RefitStage.UPDATE_END), 1e-12, m.name() + " cycle " + k);
                assertEquals(0.0, without.cycles().get(k).stage(RefitStage.UPDATE_END), m.name());
                assertEquals(without.cycles().get(k).seconds() + e, c.seconds(), 1e-9, m.name() + " cycle " + k);
            }
            assertTrue(with.restsOn().contains(new org.rdmasim.workload.StageParameter(RefitCalibration.CKPT_UPDATE_END,
                    "750 ms", new org.rdmasim.workload.StageParameter.Evidence(
                            org.rdmasim.hardware.CalibrationProfile.Kind.ASSUMED, "test"))), with.restsOn().toString());
            assertTrue(run(RefitFixture.twoByTwo(GB), m, RefitCalibration.defaults()).restsOn().stream()
                    .anyMatch(r -> r.key().equals(RefitCalibration.CKPT_UPDATE_END) && r.evidence().calibrated()));
        }
        for (RefitMethod other : List.<RefitMethod>of(NcclBroadcast.fromRankZero(new Buckets(BUCKET, true)),
                RdmaPull.direct())) {
            RefitResult without = run(RefitFixture.twoByTwo(GB), other, none);
            RefitResult with = run(RefitFixture.twoByTwo(GB), other, some);
            for (int k = 0; k < 2; k++) {
                assertEquals(0.0, with.cycles().get(k).stage(RefitStage.UPDATE_END), other.name());
                assertEquals(without.cycles().get(k).seconds(), with.cycles().get(k).seconds(), 0.0, other.name());
            }
            assertTrue(with.restsOn().stream().noneMatch(r -> r.key().equals(RefitCalibration.CKPT_UPDATE_END)),
                    other.name() + ": " + with.restsOn());
        }
    }

    /** Two cycles of {@code method} on the two-host fixture, the whole payload broadcast, with {@code cal}. */
    private static RefitResult run(List<SliceRoute> routes, RefitMethod method, RefitCalibration cal) {
        RefitPlan plan = RefitPlan.of(routes, RefitFixture::trainer, RefitFixture::inference, method)
                .withBroadcastBytes(PAYLOAD).withCalibration(cal).withRegistration(Registration.none(), 2);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    @Test
    void bucketRuleFollowsCheckpointEngine() {
        long gib = Buckets.GIB;
        // a third of 60 GiB holds the 1 GiB tensor: min(max(8 GiB, 1 GiB), 20 GiB) = 8 GiB
        assertEquals(8 * gib, Buckets.checkpointEngineRule(60 * gib, gib, Buckets.CHECKPOINT_ENGINE_MAX_BUCKET)
                .bucketBytes());
        // 5 GiB does not fit a third of 12 GiB: no H2D buffer, half the memory, min(max(8, 5), 6) = 6 GiB
        assertEquals(6 * gib, Buckets.checkpointEngineRule(12 * gib, 5 * gib, Buckets.CHECKPOINT_ENGINE_MAX_BUCKET)
                .bucketBytes());
        // a tensor larger than the bucket limit makes the bucket
        assertEquals(10 * gib, Buckets.checkpointEngineRule(60 * gib, 10 * gib, Buckets.CHECKPOINT_ENGINE_MAX_BUCKET)
                .bucketBytes());
        assertTrue(Buckets.checkpointEngineRule(60 * gib, gib, Buckets.CHECKPOINT_ENGINE_MAX_BUCKET).doubleBuffered());
        assertThrows(IllegalArgumentException.class,
                () -> Buckets.checkpointEngineRule(12 * gib, 7 * gib, Buckets.CHECKPOINT_ENGINE_MAX_BUCKET));
    }

    @Test
    void bucketsCoverThePayloadExactly() {
        Buckets b = new Buckets(3 * GB, true);
        assertEquals(2, b.count(4 * GB));
        assertEquals(3 * GB, b.sizeOf(0, 4 * GB));
        assertEquals(GB, b.sizeOf(1, 4 * GB));
    }
}
