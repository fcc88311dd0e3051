package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;

/**
 * verl's frame around its checkpoint engine ({@link RefitCalibration#VERL_UPDATE_FRAME}): the trainer's
 * update_weights timer wraps CheckpointEngineManager.update_weights, whose steps around the engine run one after
 * another (verl-project/verl e88dcf17b {@code verl/checkpoint_engine/base.py:486-538}), calibrated on the stock nccl
 * engine's refit in PR #7263 (row VERL7263-STOCK).
 */
class VerlUpdateFrameTest {
    /** 3.01 s less what the model gives for that refit without the frame. */
    @Test
    void theDefaultIsTheStockEngineRefitLessTheModelWithoutIt() {
        CalibrationProfile.Parameter p = RefitCalibration.defaults().get(RefitCalibration.VERL_UPDATE_FRAME);
        assertEquals(3.01 - RefitCalibration.VERL7263_STOCK_MODELLED_WITHOUT, p.value(), 1e-15);
        assertEquals(1.879, p.value(), 0.001);
        assertEquals(CalibrationProfile.Kind.CALIBRATED, p.kind());
        assertTrue(p.source().contains("VERL7263-STOCK"), p.source());
    }

    /**
     * Held once per update, in series with the engine: every cycle of a managed refit is longer by exactly the frame,
     * the stage shows it once, and the result names the parameter it rests on.
     */
    @Test
    void aManagedRefitPaysTheFrameOnceEveryCycle() {
        double frame = 0.75;
        RefitResult plain = run(false, frame);
        RefitResult managed = run(true, frame);
        assertEquals(plain.cycles().size(), managed.cycles().size());
        for (int c = 0; c < plain.cycles().size(); c++) {
            assertEquals(plain.cycles().get(c).seconds() + frame, managed.cycles().get(c).seconds(), 1e-9);
        }
        assertTrue(managed.restsOn().stream().anyMatch(s -> s.key().equals(RefitCalibration.VERL_UPDATE_FRAME)),
                managed.restsOn().toString());
        assertFalse(plain.restsOn().stream().anyMatch(s -> s.key().equals(RefitCalibration.VERL_UPDATE_FRAME)),
                plain.restsOn().toString());
    }

    /** The frame does not scale with the bytes: a refit of twice the payload pays the same frame. */
    @Test
    void theFrameDoesNotGrowWithTheBytes() {
        double frame = 0.75;
        double small = run(true, frame, 2 * GB).cycles().get(1).seconds() - run(false, frame, 2 * GB).cycles().get(1)
                .seconds();
        double big = run(true, frame, 4 * GB).cycles().get(1).seconds() - run(false, frame, 4 * GB).cycles().get(1)
                .seconds();
        assertEquals(frame, small, 1e-9);
        assertEquals(frame, big, 1e-9);
    }

    private static RefitResult run(boolean managed, double frame) {
        return run(managed, frame, 2 * GB);
    }

    private static RefitResult run(boolean managed, double frame, long payload) {
        RefitCalibration cal = RefitCalibration.defaults().with(RefitCalibration.VERL_UPDATE_FRAME, frame,
                CalibrationProfile.Kind.ASSUMED, "test");
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                NcclBroadcast.fromRankZero(new Buckets(GB, true))).withBroadcastBytes(payload).withCalibration(cal)
                .withRegistration(Registration.none(), 2).withVerlManager(managed);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }
}
