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

    /**
     * A pull whose lanes post one descriptor each 0.1 s is held by the CPU's posting rate, a cost the protocol
     * assumes: the steady cycle's bound names protocol.perDescriptor and the run rests on it. With the default
     * 1 us the wire holds it and the list leaves it out.
     */
    @Test
    void aPullHeldByThePostingRateRestsOnThePerDescriptorCost() {
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference,
                RdmaPull.direct());
        RefitRun.Transport d = RefitFixture.nearestNic();
        var slow = new org.rdmasim.transport.ProtocolParameters(0.5e-6, 110e-9, 0.1, 50e-9, 16, 8e-6);
        RefitResult posted = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan,
                new RefitRun.Transport(d.lanes(), slow, d.options(), d.registration()));
        RefitResult.Cycle c = posted.cycles().get(posted.cycles().size() - 1);
        assertTrue(c.bound().parameters().contains(RefitRun.PER_DESCRIPTOR), c.bound().toString());
        StageParameter p = posted.restsOn().stream().filter(x -> x.key().equals(RefitRun.PER_DESCRIPTOR)).findFirst()
                .orElseThrow(() -> new AssertionError(keys(posted).toString()));
        assertEquals(CalibrationProfile.Kind.ASSUMED, p.evidence().kind());
        assertEquals("100 ms", p.value());
        RefitResult wire = RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, d);
        assertTrue(wire.cycles().get(0).seconds() < c.seconds() / 10, "the posting rate is what made it slow");
        assertTrue(!keys(wire).contains(RefitRun.PER_DESCRIPTOR), keys(wire).toString());
    }
}
