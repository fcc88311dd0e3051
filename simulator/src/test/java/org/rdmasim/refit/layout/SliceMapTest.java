package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/** Slice maps against small layouts worked by hand. */
class SliceMapTest {

    private static SliceRoute route(SliceMap map, int trainer, int inference) {
        return map.routes().stream().filter(r -> r.trainerRank() == trainer && r.inferenceRank() == inference)
                .findFirst().orElse(null);
    }

    @Test
    void tp2ToTp4GivesEachInferenceRankHalfOfOneTrainerShard() {
        // up [8, 4] column-parallel: trainer rank k holds rows 4k..4k+4, inference rank i needs rows 2i..2i+2,
        // whole rows, so one run of 2*4*2 = 16 bytes. down [4, 8] row-parallel: trainer k holds columns
        // 4k..4k+4, inference i columns 2i..2i+2: 4 rows of 2 columns, 4 runs, 16 bytes.
        Tensor up = Tensors.of("up", TensorRole.COLUMN, DType.BF16, 0, -1, 8, 4);
        Tensor down = Tensors.of("down", TensorRole.ROW, DType.BF16, 0, -1, 4, 8);
        SliceMap map = SliceMap.of(List.of(up, down), null, new TrainerLayout(2, 1, 1, 1, 1, 1),
                new InferenceLayout(4));
        assertEquals(4, map.routes().size());
        for (int i = 0; i < 4; i++) {
            SliceRoute r = route(map, i / 2, i);
            assertEquals(32, r.bytes());
            assertEquals(1 + 4, r.runs());
            assertEquals(2, r.tensors());
            assertEquals(32, map.neededBytes(i));
        }
        List<TensorSlice> downSlices = map.slices(down);
        assertEquals(4, downSlices.get(0).runs());
        assertEquals("[0:4, 0:2]", downSlices.get(0).box().toString());
        assertEquals("[0:4, 2:4]", downSlices.get(1).box().toString());
        assertEquals(0, downSlices.get(1).trainerRank());
        assertEquals(up.bytes() + down.bytes(), map.totalBytes());
    }

    /**
     * A trainer rank holds its shard once whoever reads it: sixteen data-parallel replicas reading trainer
     * rank 0's halves make it send sixteen times the bytes, but it holds (and registers) the same two shards.
     * The receivers each take one buffer per tensor although two trainer ranks fill it.
     */
    @Test
    void heldBytesDoNotGrowWithTheNumberOfReaders() {
        Tensor up = Tensors.of("up", TensorRole.COLUMN, DType.BF16, 0, -1, 8, 4);
        Tensor down = Tensors.of("down", TensorRole.ROW, DType.BF16, 0, -1, 4, 8);
        TrainerLayout tp2 = new TrainerLayout(2, 1, 1, 1, 1, 1);
        SliceMap one = SliceMap.of(List.of(up, down), null, tp2, new InferenceLayout(1));
        SliceMap sixteen = SliceMap.of(List.of(up, down), null, tp2, new InferenceLayout(1, 16, false, 0));
        long half = (up.bytes() + down.bytes()) / 2;
        for (int t = 0; t < 2; t++) {
            assertEquals(half, one.sentBytes(t));
            assertEquals(16 * half, sixteen.sentBytes(t));
            assertEquals(half, one.heldReadBytes(t));
            assertEquals(half, sixteen.heldReadBytes(t), "read by 16, held once");
            assertEquals(2, sixteen.heldReadTensors(t));
        }
        for (int i = 0; i < 16; i++) {
            assertEquals(2, sixteen.receivedTensors(i), "one buffer per tensor, not per source");
            assertEquals(2, sixteen.routes().stream().filter(r -> r.inferenceRank() == 0).count());
        }
    }

    @Test
    void aShardNoRouteReadsIsNotHeldForTheRefit() {
        // trainer TP2 with two DP replicas: inference rank 0 (TP1) reads each half from one replica only
        // (replica choice spreads by inference rank), so the other replica holds nothing any route reads
        Tensor up = Tensors.of("up", TensorRole.COLUMN, DType.BF16, 0, -1, 8, 4);
        SliceMap map = SliceMap.of(List.of(up), null, new TrainerLayout(2, 1, 1, 1, 1, 2), new InferenceLayout(1));
        long read = 0;
        for (int t = 0; t < 4; t++) {
            read += map.heldReadBytes(t);
            assertEquals(map.sentBytes(t), map.heldReadBytes(t), "one reader: what it holds is what it sends");
        }
        assertEquals(up.bytes(), read);
    }

    @Test
    void rowSlicesOfTallTensorsExceedModelExpressSegmentBudget() {
        // [100, 8] row-parallel TP1 -> TP2: each inference rank reads 100 rows of 4 columns, 100 runs > 64;
        // the column-parallel [100, 8] split is one run per rank
        Tensor down = Tensors.of("down", TensorRole.ROW, DType.BF16, 0, -1, 100, 8);
        Tensor up = Tensors.of("up", TensorRole.COLUMN, DType.BF16, 0, -1, 100, 8);
        SliceMap map = SliceMap.of(List.of(down, up), null, new TrainerLayout(1, 1, 1, 1, 1, 1),
                new InferenceLayout(2));
        assertEquals(4, map.copies());
        assertEquals(2, map.copiesOverSegmentBudget());
        assertEquals(101, route(map, 0, 1).runs());
    }

    @Test
    void ep4ToEp2MovesWholeExpertsFromTheirOwners() {
        // 8 experts, trainer EP4: rank k owns experts 2k, 2k+1 (Megatron); inference EP over tp2: rank 0 holds
        // experts 0-3, rank 1 experts 4-7 (vLLM linear). Each expert is gate [6,4] + down [4,6] BF16 = 96 B.
        List<Tensor> tensors = experts(8);
        SliceMap map = SliceMap.of(tensors, null, new TrainerLayout(1, 1, 4, 1, 1, 4),
                new InferenceLayout(2, 1, true, 0));
        assertEquals(4, map.routes().size());
        for (int k = 0; k < 4; k++) {
            SliceRoute r = route(map, k, k / 2);
            assertEquals(2 * 96, r.bytes());
            assertEquals(4, r.runs(), "each whole expert tensor is one run");
            assertEquals(4, r.tensors());
        }
        assertEquals(4 * 96, map.neededBytes(0));
    }

    @Test
    void redundantExpertsAddWholeExpertsToTheLastRanks() {
        // 8 experts + 2 redundant over EP2: 10 physical, 5 per rank; rank 1 holds physical 5..9 = logical
        // 5, 6, 7, 0, 1, so it reads experts 0 and 1 from trainer rank 0 as well
        SliceMap map = SliceMap.of(experts(8), null, new TrainerLayout(1, 1, 4, 1, 1, 4),
                new InferenceLayout(2, 1, true, 2));
        assertEquals(5 * 96, map.neededBytes(0));
        assertEquals(5 * 96, map.neededBytes(1));
        assertEquals(2 * 96, route(map, 0, 1).bytes());
        assertEquals(96, route(map, 2, 0).bytes(), "rank 0 holds physical 0-4: expert 4 of trainer rank 2");
        assertEquals(10 * 96, map.totalBytes());
    }

    @Test
    void expertsWithoutInferenceEpAreSplitOverTpFlattenedAcrossDp() {
        // no EP, tp2 x dp2: the MoE group is 4 ranks (vLLM flatten_tp_across_dp); gate [6,4] is split over
        // 4... 6 rows do not divide by 4, so use 8 rows here
        Tensor gate = Tensors.of("e0.gate", TensorRole.EXPERT_COLUMN, DType.BF16, 0, 0, 8, 4);
        SliceMap map = SliceMap.of(List.of(gate), null, new TrainerLayout(1, 1, 1, 1, 1, 1),
                new InferenceLayout(2, 2, false, 0));
        for (int i = 0; i < 4; i++) {
            assertEquals(2 * 4 * 2, map.neededBytes(i));
            assertEquals(2L * i, map.inferenceNeed(gate, i).start(0));
        }
    }

    @Test
    void pp2ToTp1GathersEachStagesLayers() {
        // 4 layers over pp2: layers 0-1 and the embedding on trainer rank 0, layers 2-3, final norm and
        // lm_head on rank 1; the single inference rank reads whole tensors, one run each
        List<Tensor> tensors = new ArrayList<>();
        tensors.add(Tensors.of("embed", TensorRole.VOCAB_EMBEDDING, DType.BF16, -1, -1, 100, 8));
        for (int l = 0; l < 4; l++) {
            tensors.add(Tensors.of("l" + l + ".up", TensorRole.COLUMN, DType.BF16, l, -1, 16, 8));
            tensors.add(Tensors.of("l" + l + ".norm", TensorRole.REPLICATED, DType.BF16, l, -1, 8));
        }
        tensors.add(Tensors.of("norm", TensorRole.REPLICATED, DType.BF16, -1, -1, 8));
        tensors.add(Tensors.of("lm_head", TensorRole.LM_HEAD, DType.BF16, -1, -1, 100, 8));
        SliceMap map = SliceMap.of(tensors, null, new TrainerLayout(1, 2, 1, 1, 1, 1), new InferenceLayout(1));
        assertEquals(2, map.routes().size());
        long layer = 16 * 8 * 2 + 8 * 2;
        assertEquals(100 * 8 * 2 + 2 * layer, route(map, 0, 0).bytes());
        assertEquals(5, route(map, 0, 0).runs());
        assertEquals(2 * layer + 8 * 2 + 100 * 8 * 2, route(map, 1, 0).bytes());
        assertEquals(6, route(map, 1, 0).runs());
    }

    @Test
    void unevenPipelineStagesFollowMegatronOffsets() {
        TrainerLayout pp3 = new TrainerLayout(1, 3, 1, 1, 1, 1, false, 1, 3);
        // 10 layers: first stage 1, last 3, the one middle stage the other 6
        assertEquals(0, pp3.stageOf(0, 10));
        assertEquals(1, pp3.stageOf(1, 10));
        assertEquals(1, pp3.stageOf(6, 10));
        assertEquals(2, pp3.stageOf(7, 10));
        assertEquals(2, pp3.stageOf(9, 10));
        assertThrows(IllegalArgumentException.class, () -> new TrainerLayout(1, 3, 1, 1, 1, 1).stageOf(0, 10));
    }

    @Test
    void kvHeadsAreReplicatedWhenInferenceTpExceedsThem() {
        // 8 query heads, 4 KV heads of dim 16, hidden 32. Trainer tp2, inference tp8: every inference rank
        // loads one KV head (num_kv_head_replicas = 2), so K and V arrive twice over
        AttentionHeads heads = new AttentionHeads(8, 4, 16);
        Tensor q = Tensors.of("q", TensorRole.ATTN_Q, DType.BF16, 0, -1, 128, 32);
        Tensor k = Tensors.of("k", TensorRole.ATTN_KV, DType.BF16, 0, -1, 64, 32);
        Tensor v = Tensors.of("v", TensorRole.ATTN_KV, DType.BF16, 0, -1, 64, 32);
        SliceMap map = SliceMap.of(List.of(q, k, v), heads, new TrainerLayout(2, 1, 1, 1, 1, 1),
                new InferenceLayout(8));
        long kvModel = k.bytes() + v.bytes();
        assertEquals(q.bytes() + 2 * kvModel, map.totalBytes());
        long kvReceived = 0;
        for (int i = 0; i < 8; i++) {
            assertEquals((i / 2) * 16L, map.inferenceNeed(k, i).start(0), "rank i loads KV head i / 2");
            kvReceived += map.neededBytes(i) - 16 * 32 * 2;
            // one q head, one k head, one v head: each a single run inside one trainer group
            assertEquals(3, route(map, i / 4, i).runs());
        }
        assertEquals(2 * kvModel, kvReceived);
    }

    @Test
    void fusedQkvSplitsRunsAtQueryGroupsOnTheTrainerSide() {
        // trainer tp2 holds KV heads 0-1 (groups of 2 query heads = 32 q rows each); one inference rank reads
        // q rows 0..64 from trainer 0 as 2 runs (one per group) and k rows 0..32 as 2 runs (one per head)
        AttentionHeads heads = new AttentionHeads(8, 4, 16);
        Tensor q = Tensors.of("q", TensorRole.ATTN_Q, DType.BF16, 0, -1, 128, 32);
        Tensor k = Tensors.of("k", TensorRole.ATTN_KV, DType.BF16, 0, -1, 64, 32);
        SliceMap map = SliceMap.of(List.of(q, k), heads, new TrainerLayout(2, 1, 1, 1, 1, 1), new InferenceLayout(1));
        assertEquals(4, route(map, 0, 0).runs());
        assertEquals(4, route(map, 1, 0).runs());
    }

    @Test
    void fp8ScaleBlocksAreCutWithTheirWeight() {
        // weight [256, 256] FP8 in 64x64 blocks, scale [4, 4] FP32. Trainer tp2 owns scale rows 2k, 2k+1;
        // inference tp4 rank i needs rows 64i..64i+64, i.e. scale block row i: 4 FP32 = 16 bytes, one run
        Tensor w = Tensors.of("w", TensorRole.COLUMN, DType.FP8_E4M3, 0, -1, 256, 256);
        Tensor s = Tensors.scale("w_scale", w, 4, 4);
        SliceMap map = SliceMap.of(List.of(w, s), null, new TrainerLayout(2, 1, 1, 1, 1, 1), new InferenceLayout(4));
        for (int i = 0; i < 4; i++) {
            assertEquals(64 * 256 + 16, map.neededBytes(i));
            assertEquals("[" + i + ":" + (i + 1) + ", 0:4]", map.inferenceNeed(s, i).toString());
            SliceRoute r = route(map, i / 2, i);
            assertEquals(64 * 256 + 16, r.bytes());
            assertEquals(2, r.runs());
        }
        // 128-row blocks over inference tp4 leave each rank half a block: vLLM refuses the split, so does the map
        Tensor coarse = Tensors.scale("w_scale", w, 2, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SliceMap.of(List.of(w, coarse),
                null, new TrainerLayout(2, 1, 1, 1, 1, 1), new InferenceLayout(4)));
        assertTrue(e.getMessage().contains("whole 128-element FP8 blocks"), e.getMessage());
        assertEquals(128, SliceMap.blocks(Tensors.scale("x", Tensors.of("kv_a", TensorRole.REPLICATED,
                DType.FP8_E4M3, 0, -1, 576, 7168), 5, 56), Tensors.of("kv_a", TensorRole.REPLICATED,
                DType.FP8_E4M3, 0, -1, 576, 7168))[0]);
    }

    @Test
    void scaleBlocksStraddlingShardsAreSentOnce() {
        // [192, 128] split over trainer tp2 at row 96, inside block row 0: block row 0 belongs to trainer 0
        // (its first row), block row 1 to trainer 1; the single inference rank gets both once
        Tensor w = Tensors.of("w", TensorRole.COLUMN, DType.FP8_E4M3, 0, -1, 192, 128);
        Tensor s = Tensors.scale("w_scale", w, 2, 1);
        SliceMap map = SliceMap.of(List.of(w, s), null, new TrainerLayout(2, 1, 1, 1, 1, 1), new InferenceLayout(1));
        assertEquals(w.bytes() + s.bytes(), map.totalBytes());
        assertEquals("[0:1, 0:1]", map.trainerHolding(s, 0).toString());
        assertEquals("[1:2, 0:1]", map.trainerHolding(s, 1).toString());
    }

    @Test
    void replicasAreReadOnceAndSpreadOverInferenceRanks() {
        // a norm on trainer tp2 x dp2 is held by all 4 ranks; 4 inference ranks each read it once, SPREAD
        // from replica i % 4, FIRST all from rank 0
        Tensor norm = Tensors.of("norm", TensorRole.REPLICATED, DType.BF16, 0, -1, 64);
        TrainerLayout trainer = new TrainerLayout(2, 1, 1, 1, 1, 2);
        InferenceLayout inference = new InferenceLayout(4);
        SliceMap spread = SliceMap.of(List.of(norm), null, trainer, inference, ReplicaChoice.SPREAD);
        SliceMap first = SliceMap.of(List.of(norm), null, trainer, inference, ReplicaChoice.FIRST);
        assertEquals(4 * norm.bytes(), spread.totalBytes());
        assertEquals(4 * norm.bytes(), first.totalBytes());
        for (int s = 0; s < 4; s++) {
            assertEquals(norm.bytes(), spread.sentBytes(s));
        }
        assertEquals(4 * norm.bytes(), first.sentBytes(0));
    }

    @Test
    void fsdpChunksEachShardByRowsOverDataParallelRanks() {
        // tp1 dp4 FSDP: [10, 4] in torch.chunk pieces of ceil(10/4) = 3 rows: 3, 3, 3, 1
        Tensor up = Tensors.of("up", TensorRole.COLUMN, DType.BF16, 0, -1, 10, 4);
        SliceMap map = SliceMap.of(List.of(up), null, new TrainerLayout(1, 1, 1, 1, 1, 4).withFsdp(),
                new InferenceLayout(1));
        assertEquals("[9:10, 0:4]", map.trainerHolding(up, 3).toString());
        assertEquals(4, map.routes().size());
        assertEquals(3 * 4 * 2, route(map, 0, 0).bytes());
        assertEquals(up.bytes(), map.totalBytes());
        // 6 rows over dp 4 in chunks of 2: torch.chunk makes 3 chunks and rank 3 holds nothing
        Tensor small = Tensors.of("small", TensorRole.COLUMN, DType.BF16, 0, -1, 6, 4);
        SliceMap m2 = SliceMap.of(List.of(small), null, new TrainerLayout(1, 1, 1, 1, 1, 4).withFsdp(),
                new InferenceLayout(1));
        assertNull(m2.trainerHolding(small, 3));
        assertEquals(small.bytes(), m2.totalBytes());
    }

    @Test
    void megatronRankOrderIsTpInnermostThenCpDpPp() {
        TrainerLayout l = new TrainerLayout(2, 2, 2, 1, 2, 2);
        assertEquals(1 + 2 * (1 + 2 * (1 + 2 * 1)), l.denseRank(1, 1, 1, 1));
        // experts: etp 1, ep 2, edp = 2*2*2 / 2 = 4
        assertEquals(4, l.expertDataParallel());
        assertEquals(1 + 2 * (3 + 4 * 1), l.expertRank(0, 1, 3, 1));
    }

    @Test
    void vocabRowsFollowEachSidesPadding() {
        // vocabulary 100: Megatron pads to 128*tp = 256 for tp2, 128 rows per rank, so trainer rank 0 holds all
        // 100 real rows; vLLM pads to 128 for tp2, 64 rows per rank
        Tensor embed = Tensors.of("embed", TensorRole.VOCAB_EMBEDDING, DType.BF16, -1, -1, 100, 8);
        SliceMap map = SliceMap.of(List.of(embed), null, new TrainerLayout(2, 1, 1, 1, 1, 1), new InferenceLayout(2));
        assertNull(map.trainerHolding(embed, 1));
        assertEquals("[64:100, 0:8]", map.inferenceNeed(embed, 1).toString());
        assertEquals(2, map.routes().size());
        assertTrue(map.routes().stream().allMatch(r -> r.trainerRank() == 0));
        assertEquals(embed.bytes(), map.totalBytes());
    }

    @Test
    void layoutsTheRealCodeRejectsAreRefusedWithTheReason() {
        AttentionHeads heads = new AttentionHeads(8, 2, 16);
        Tensor k = Tensors.of("k", TensorRole.ATTN_KV, DType.BF16, 0, -1, 32, 32);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SliceMap.of(List.of(k), heads,
                new TrainerLayout(4, 1, 1, 1, 1, 1), new InferenceLayout(1)));
        assertTrue(e.getMessage().contains("query groups"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SliceMap.of(List.of(k), null,
                new TrainerLayout(1, 1, 1, 1, 1, 1), new InferenceLayout(1)));
        assertThrows(IllegalArgumentException.class, () -> new TrainerLayout(1, 1, 4, 1, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new InferenceLayout(2, 1, false, 2));
    }

    @Test
    void sameInputsGiveTheSameMap() {
        List<Tensor> tensors = experts(8);
        TrainerLayout trainer = new TrainerLayout(2, 1, 4, 1, 1, 4).withFsdp();
        InferenceLayout inference = new InferenceLayout(2, 2, true, 4);
        SliceMap a = SliceMap.of(tensors, null, trainer, inference);
        SliceMap b = SliceMap.of(tensors, null, trainer, inference);
        assertEquals(a.routes(), b.routes());
        assertNotEquals(List.of(), a.routes());
    }

    static List<Tensor> experts(int count) {
        List<Tensor> out = new ArrayList<>();
        for (int e = 0; e < count; e++) {
            out.add(Tensors.of("e" + e + ".gate", TensorRole.EXPERT_COLUMN, DType.BF16, 0, e, 6, 4));
            out.add(Tensors.of("e" + e + ".down", TensorRole.EXPERT_ROW, DType.BF16, 0, e, 4, 6));
        }
        return out;
    }
}
