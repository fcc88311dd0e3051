package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.Tensor;

/** A Kimi-K2-sized map (about 1T parameters, 256 trainer ranks to 128 inference ranks) in seconds. */
class KimiScaleSliceMapTest {

    // 61 layers over pp4: 16 on the first stage, 15 on the last, 15 on each middle stage
    private static final TrainerLayout TRAINER = new TrainerLayout(8, 4, 32, 1, 1, 8, false, 16, 15);

    @Test
    void expertParallelServingMapIsComputedArithmeticallyAndConserved() {
        List<Tensor> tensors = Tensors.kimiK2();
        long params = tensors.stream().filter(t -> t.scaleOf() == null).mapToLong(Tensor::elements).sum();
        assertTrue(params > 1.0e12 && params < 1.1e12, "about a trillion parameters: " + params);
        InferenceLayout inference = new InferenceLayout(8, 16, true, 0);
        long start = System.nanoTime();
        SliceMap map = SliceMap.of(tensors, null, TRAINER, inference);
        double seconds = (System.nanoTime() - start) / 1e9;
        report("EP128", map, seconds, tensors.size());
        assertTrue(seconds < 10, "Kimi-K2 EP map took " + seconds + " s");
        for (int i = 0; i < 128; i++) {
            assertEquals(map.neededBytes(i), map.receivedBytes(i));
        }
        // 3 of 384 experts per rank in each of 60 MoE layers: gate, up, down of 2048 x 7168 FP8 plus
        // 16 x 56 FP32 scales each
        long expertBytes = 60L * 3 * 3 * (2048L * 7168 + 16 * 56 * 4);
        long denseEachRank = map.neededBytes(0) - expertBytes;
        for (int i = 1; i < 128; i++) {
            assertEquals(denseEachRank + expertBytes, map.neededBytes(i), "EP ranks carry equal expert bytes");
        }
        // the trainer's 32 EP ranks x 2 expert-DP replicas each send experts; every one of the 256 ranks sends
        // something (dense shards are spread over their replicas)
        for (int s = 0; s < 256; s++) {
            assertTrue(map.sentBytes(s) > 0, "trainer rank " + s + " sends nothing");
        }
    }

    @Test
    void redundantExpertsAddWholeExpertCopies() {
        // 384 + 128 redundant physical experts over EP128: 4 per rank instead of 3, the extra copies of experts
        // 0..127 read again from their trainer owners
        List<Tensor> tensors = Tensors.kimiK2();
        SliceMap plain = SliceMap.of(tensors, null, TRAINER, new InferenceLayout(8, 16, true, 0));
        SliceMap redundant = SliceMap.of(tensors, null, TRAINER, new InferenceLayout(8, 16, true, 128));
        long perExpert = 60L * 3 * (2048L * 7168 + 16 * 56 * 4);
        assertEquals(plain.totalBytes() + 128 * perExpert, redundant.totalBytes());
        for (int i = 0; i < 128; i++) {
            assertEquals(redundant.neededBytes(i), redundant.receivedBytes(i));
            assertEquals(plain.neededBytes(i) + perExpert, redundant.neededBytes(i));
        }
    }

    @Test
    void tensorParallelExpertsMakeManyMoreRuns() {
        List<Tensor> tensors = Tensors.kimiK2();
        long start = System.nanoTime();
        // TP-split experts over 16 ranks (TP 8 x DP 2): 2048-wide experts cut into 128 rows or columns each, one
        // FP8 block; over all 128 ranks they would be 16 wide, part of a block, which vLLM refuses (and so does
        // the map: SliceMapTest.fp8ScaleBlocksAreCutWithTheirWeight)
        SliceMap tpExperts = SliceMap.of(tensors, null, TRAINER.withFsdp(), new InferenceLayout(8, 2, false, 0));
        double seconds = (System.nanoTime() - start) / 1e9;
        report("TP-split experts, FSDP trainer", tpExperts, seconds, tensors.size());
        assertTrue(seconds < 10, "Kimi-K2 TP-expert map took " + seconds + " s");
        SliceMap ep = SliceMap.of(tensors, null, TRAINER, new InferenceLayout(8, 2, true, 0));
        for (int i = 0; i < 16; i++) {
            assertEquals(tpExperts.neededBytes(i), tpExperts.receivedBytes(i));
        }
        // down_proj cut by columns over 16 ranks is one 128-element run per row: descriptor counts explode
        assertTrue(tpExperts.totalRuns() > 50 * ep.totalRuns(), tpExperts.totalRuns() + " vs " + ep.totalRuns());
    }

    private static void report(String label, SliceMap map, double seconds, int tensors) {
        System.out.printf("Kimi-K2 %s: %d tensors, %.2f s, %d routes, %.1f GB, %d runs, %d of %d copies over %d"
                + " runs%n", label, tensors, seconds, map.routes().size(), map.totalBytes() / 1e9, map.totalRuns(),
                map.copiesOverSegmentBudget(), map.copies(), SliceMap.SEGMENTS_PER_COPY);
    }
}
