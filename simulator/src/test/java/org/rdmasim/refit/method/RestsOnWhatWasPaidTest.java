package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;
import org.rdmasim.workload.StageParameter;

/**
 * A refit's "rests on" list names only the parameters its run paid: raising a parameter the list leaves out does
 * not move the answer, and raising one it names does.
 */
class RestsOnWhatWasPaidTest {
    private static RefitResult run(RefitMethod method, double bucketSeconds) {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference, method)
                .withBroadcastBytes(4 * GB);
        plan = plan.withCalibration(plan.calibration().with(RefitCalibration.BUCKET, bucketSeconds,
                CalibrationProfile.Kind.ASSUMED, "test"));
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }

    private static List<String> keys(RefitResult r) {
        return r.restsOn().stream().map(StageParameter::key).toList();
    }

    @Test
    void aPullNeverPaysTheBucketCallNorTheBroadcastStep() {
        RefitResult pull = run(RdmaPull.direct(), 0.0);
        assertEquals(pull.cycles().get(0).seconds(), run(RdmaPull.direct(), 0.5).cycles().get(0).seconds(), 0.0,
                "half a second a bucket call does not move a pull");
        assertTrue(!keys(pull).contains(RefitCalibration.BUCKET), keys(pull).toString());
        assertTrue(!keys(pull).contains(RefitCalibration.NCCL_STEP), keys(pull).toString());
        assertTrue(keys(pull).contains(RefitCalibration.PAUSE), "every method pauses the engine: " + keys(pull));
    }

    @Test
    void aBroadcastPaysBothAndSaysSo() {
        NcclBroadcast m = NcclBroadcast.fromRankZero(new Buckets(GB, false));
        RefitResult broadcast = run(m, 0.0);
        assertTrue(run(m, 0.5).cycles().get(0).seconds() >= broadcast.cycles().get(0).seconds() + 4 * 0.5 - 1e-9,
                "four buckets from one sender pay the call four times in series");
        assertTrue(keys(broadcast).containsAll(List.of(RefitCalibration.BUCKET, RefitCalibration.NCCL_STEP)),
                keys(broadcast).toString());
    }
}
