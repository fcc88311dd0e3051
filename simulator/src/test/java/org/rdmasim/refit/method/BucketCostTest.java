package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;

/**
 * The per-bucket fixed cost of broadcast methods ({@link RefitCalibration#BUCKET}), calibrated on one
 * measurement: whitecircle/halo PR #11 (https://github.com/whitecircle/halo/pull/11, description), "full
 * Qwen3-8B (16.4 GB) per sync ... vLLM chunk budget (HALO_WEIGHT_SYNC_CHUNK_MB) 1/2/4/8 GiB: 54/63/70/73 GB/s".
 */
class BucketCostTest {
    private static final long PAYLOAD = 4 * GB;

    /**
     * The value read from the sources: 16.4 GB at 54 GB/s is 0.3037 s in 16 chunks of 1 GiB, at 73 GB/s 0.2247 s in
     * 2 chunks of 8 GiB (D = 0.0790 s). Double-buffered, the loads of every chunk but the last hide under the next
     * chunk's wire: the last 1 GiB chunk holds 0.294 GB (7.2 of Qwen3-8B's 399 tensors), the last 8 GiB chunk 7.81 GB
     * (190.0), so D = 14 c - l (190.0 - 7.2). vime #175 gives l = (2.50 - 115 c - 115 h) / 19,550 with h =
     * (11.35 - 2.50) / (19,550 - 115). Solved together: c = 6.76 ms, l = 0.0854 ms.
     */
    @Test
    void theDefaultIsTheHaloChunkCurvesCostPerChunkWithTheLastChunksLoads() {
        assertEquals(16, RefitCalibration.chunks(16.4e9, Buckets.GIB));
        assertEquals(2, RefitCalibration.chunks(16.4e9, 8 * Buckets.GIB));
        double n1 = 399 * (16.4e9 - 15 * (double) Buckets.GIB) / 16.4e9;
        double n8 = 399 * (16.4e9 - 8 * (double) Buckets.GIB) / 16.4e9;
        double h = (11.35 - 2.50) / (19_550 - 115);
        CalibrationProfile.Parameter c = RefitCalibration.defaults().get(RefitCalibration.BUCKET);
        CalibrationProfile.Parameter l = RefitCalibration.defaults().get(RefitCalibration.LOAD_TENSOR);
        assertEquals(l.value(), (2.50 - 115 * c.value() - 115 * h) / 19_550, 1e-12);
        assertEquals(16.4e9 / 54e9 - 16.4e9 / 73e9, 14 * c.value() - l.value() * (n8 - n1), 1e-12);
        assertEquals(6.762e-3, c.value(), 0.001e-3);
        assertEquals(0.0854e-3, l.value(), 0.0001e-3);
        assertEquals(CalibrationProfile.Kind.CALIBRATED, c.kind());
        assertTrue(c.source().contains("whitecircle/halo PR #11"), c.source());
    }

    /**
     * Against the source's middle points, which the values were not taken from: 2 GiB makes 8 chunks (the last
     * 1.37 GB, 33.3 tensors), 4 GiB 4 chunks (the last 3.52 GB, 85.5 tensors); the time difference between them is 4
     * chunks' cost less the longer tail of loads.
     */
    @Test
    void theCostsReproduceTheCurvesMiddlePointsSpacing() {
        double c = RefitCalibration.defaults().value(RefitCalibration.BUCKET);
        double l = RefitCalibration.defaults().value(RefitCalibration.LOAD_TENSOR);
        double n2 = 399 * (16.4e9 - 7 * 2 * (double) Buckets.GIB) / 16.4e9;
        double n4 = 399 * (16.4e9 - 3 * 4 * (double) Buckets.GIB) / 16.4e9;
        double published = 16.4e9 / 63e9 - 16.4e9 / 70e9;
        assertEquals(published, 4 * c - l * (n4 - n2), 0.15 * published);
    }

    /**
     * The tensor's cost was taken with SGLang as the engine (slime's side of vime #175); vLLM's own loader, measured
     * in vime PR #176 at 14 ms for a chunk of the same ~170 tensors, costs within 5% of it.
     */
    @Test
    void vllmsLoaderCostsPerTensorWhatTheCalibratedValueSays() {
        double l = RefitCalibration.defaults().value(RefitCalibration.LOAD_TENSOR);
        double vllm = RefitCalibration.VIME_176_VLLM_CHUNK_LOAD / RefitCalibration.VIME_TENSORS_PER_CHUNK;
        assertEquals(vllm, l, 0.05 * l);
    }

    private static RefitResult run(long bucket, RefitCalibration cal) {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                NcclBroadcast.fromRankZero(new Buckets(bucket, true))).withBroadcastBytes(PAYLOAD)
                .withCalibration(cal);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    /** Each bucket pays it once, in its communicator's order: a cycle of n buckets is n costs longer than without. */
    @Test
    void everyBucketPaysItOnceOnTheCriticalPath() {
        RefitCalibration none = RefitCalibration.defaults().with(RefitCalibration.BUCKET, 0,
                CalibrationProfile.Kind.ASSUMED, "test");
        RefitCalibration cal = RefitCalibration.defaults();
        double t0 = cal.value(RefitCalibration.BUCKET);
        for (long bucket : new long[] {GB, GB / 4}) {
            int n = (int) (PAYLOAD / bucket);
            RefitResult.Cycle with = run(bucket, cal).cycles().get(0);
            RefitResult.Cycle without = run(bucket, none).cycles().get(0);
            assertEquals(n * t0, with.stage(RefitStage.DISPATCH), 1e-12);
            assertEquals(0.0, without.stage(RefitStage.DISPATCH), 1e-12);
            assertEquals(without.seconds() + n * t0, with.seconds(), 1e-9);
        }
    }

    /** A pull has no per-bucket call: the cost leaves it alone. */
    @Test
    void pullsDoNotPayIt() {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                RdmaPull.direct());
        RefitResult r = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
        assertEquals(0.0, r.cycles().get(0).stage(RefitStage.DISPATCH), 0.0);
    }
}
