package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.method.RefitFixture.GB;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.FabricSpec;

/**
 * The sender's walk over an FSDP trainer's tensors in verl's checkpoint engines ({@link RefitCalibration#PACK_TENSOR},
 * {@link TensorWalk}): one Python loop takes each tensor's {@code full_tensor()}, casts it and copies it into the
 * bucket (verl-project/verl 6f33c553b {@code verl/checkpoint_engine/nccl_checkpoint_engine.py:225-262}), calibrated
 * on verl's NCCL benchmark (row VERLCE-Q30B-NCCL).
 */
class PackTensorTest {
    private static final long PAYLOAD = 4 * GB;
    /** Enough tensors that the walk (10,000 a bucket) outlasts each 1 GB bucket's broadcast many times over. */
    private static final long TENSORS = 40_000;

    /** ~7 s less what the model gives beside the walk, over Qwen3-30B-A3B's 18,867 tensors: 0.301 ms a tensor. */
    @Test
    void theDefaultIsTheNcclBenchmarkLessTheModelBesideTheWalkOverItsTensors() {
        CalibrationProfile.Parameter p = RefitCalibration.defaults().get(RefitCalibration.PACK_TENSOR);
        assertEquals((7.0 - RefitCalibration.VERLCE_Q30B_NCCL_MODELLED_BESIDE_WALK) / 18_867, p.value(), 1e-15);
        assertEquals(0.301e-3, p.value(), 0.001e-3);
        assertEquals(CalibrationProfile.Kind.CALIBRATED, p.kind());
        assertTrue(p.source().contains("VERLCE-Q30B-NCCL"), p.source());
    }

    /**
     * One sender over an FSDP group of two: each bucket is packed no faster than its tensors are walked, and the next
     * bucket's walk overlaps only this one's broadcast, so a walk-bound cycle grows by exactly the walk's added time.
     */
    @Test
    void aWalkBoundSendGrowsByTheWalkAndNotByTheWire() {
        double c = RefitCalibration.defaults().value(RefitCalibration.PACK_TENSOR);
        RefitResult.Cycle full = run(NcclBroadcast.fromRankZero(new Buckets(GB, true)), fsdp(), c).cycles().get(0);
        RefitResult.Cycle half = run(NcclBroadcast.fromRankZero(new Buckets(GB, true)), fsdp(), c / 2).cycles().get(0);
        assertTrue(full.seconds() > TENSORS * c, full.seconds() + " s against a walk of " + TENSORS * c + " s");
        assertEquals(TENSORS * c / 2, full.seconds() - half.seconds(), 1e-9);
        assertTrue(full.boundWords().contains(RefitCalibration.PACK_TENSOR), full.boundWords());
    }

    /**
     * nccl_parallel: every rank walks every tensor in lockstep (verl-project/verl e88dcf17b
     * {@code nccl_parallel_checkpoint_engine.py:25-29}), so two senders take as long to walk as one does.
     */
    @Test
    void stripingOverSendersDoesNotDivideTheWalk() {
        double c = RefitCalibration.defaults().value(RefitCalibration.PACK_TENSOR);
        double one = run(NcclBroadcast.fromRankZero(new Buckets(GB, true)), fsdp(), c).cycles().get(0).seconds();
        double striped = run(NcclBroadcast.stripedOverTrainers(new Buckets(GB, true)), fsdp(), c).cycles().get(0)
                .seconds();
        assertTrue(striped >= TENSORS * c, striped + " s");
        assertEquals(one, striped, 0.05 * one);
    }

    /** The NIXL ring's sender runs the same loop (nixl_checkpoint_engine.py:363-400): its chain waits on the walk. */
    @Test
    void theNixlRingsSenderWalksTheSameLoop() {
        double c = RefitCalibration.defaults().value(RefitCalibration.PACK_TENSOR);
        double full = run(NixlRing.of(GB), fsdp(), c).cycles().get(0).seconds();
        double none = run(NixlRing.of(GB), fsdp(), 0).cycles().get(0).seconds();
        assertTrue(full > TENSORS * c, full + " s");
        assertTrue(full - none > 0.9 * TENSORS * c, (full - none) + " s");
    }

    /**
     * A trainer without an FSDP gather (no DTensor to gather tensor by tensor: Megatron's buckets are gathered by
     * ShardGather) runs no such walk: the cost leaves its time alone and is not among what it rests on.
     */
    @Test
    void aTrainerWithoutAnFsdpGatherDoesNotWalk() {
        double c = RefitCalibration.defaults().value(RefitCalibration.PACK_TENSOR);
        RefitResult with = run(NcclBroadcast.fromRankZero(new Buckets(GB, true)), Preparation.NONE, c);
        RefitResult without = run(NcclBroadcast.fromRankZero(new Buckets(GB, true)), Preparation.NONE, 0);
        assertEquals(without.cycles().get(0).seconds(), with.cycles().get(0).seconds(), 0.0);
        assertFalse(with.restsOn().stream().anyMatch(s -> s.key().equals(RefitCalibration.PACK_TENSOR)), with.restsOn()
                .toString());
        RefitResult walked = run(NcclBroadcast.fromRankZero(new Buckets(GB, true)), fsdp(), c);
        assertTrue(walked.restsOn().stream().anyMatch(s -> s.key().equals(RefitCalibration.PACK_TENSOR)), walked.restsOn()
                .toString());
    }

    /** An FSDP group of the two trainer ranks, BF16 held and sent. */
    private static Preparation fsdp() {
        return new Preparation(2, 0, 0);
    }

    private static RefitResult run(RefitMethod method, Preparation prep, double perTensor) {
        // receive-only rollouts, as verl's engine benchmark: no engine loads what it receives
        RefitCalibration cal = RefitCalibration.defaults().with(RefitCalibration.PACK_TENSOR, perTensor,
                CalibrationProfile.Kind.ASSUMED, "test").with(RefitCalibration.LOAD_TENSOR, 0,
                CalibrationProfile.Kind.ASSUMED, "test");
        RefitPlan plan = RefitPlan.of(RefitFixture.twoByTwo(GB), RefitFixture::trainer, RefitFixture::inference, method)
                .withBroadcastBytes(PAYLOAD).withBroadcastTensors(TENSORS).withPreparation(prep).withCalibration(cal);
        return RefitRun.run(RefitFixture.twoHosts(), FabricSpec.nonBlocking(), plan, RefitFixture.nearestNic());
    }
}
