package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdmasim.refit.model.TinyModelsTest.tinyDense;
import static org.rdmasim.refit.model.TinyModelsTest.tinyMoe;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.refit.model.PublishedCountsTest;
import org.rdmasim.refit.model.Tensor;

/**
 * Per-rank bytes of vLLM layouts ({@link InferenceShares}, what {@code rdmasim model} prints) on hand-made
 * configs worked out by hand, and the same bytes as the slice map's needs per inference rank.
 */
class InferenceSharesTest {
    /** Norms every rank holds whole: q/k norms 16 each, two layer norms and the final norm 64 each, bf16. */
    static final long NORMS = (2 * 16 + 3 * 64) * 2;

    @Test
    void aTpGroupHoldsTheModelOnceWhenTpDoesNotExceedTheKvHeads() {
        ModelInventory m = tinyDense();
        List<RankShare> s = InferenceShares.of(m, new InferenceLayout(2, 1, false, 0));
        // everything cut in two but the norms, which the second rank holds again
        assertEquals(m.bytes() + NORMS, s.stream().mapToLong(RankShare::bytes).sum());
    }

    @Test
    void tpAboveTheKvHeadsReplicatesThem() {
        ModelInventory m = tinyDense();
        List<RankShare> s = InferenceShares.of(m, new InferenceLayout(4, 1, false, 0));
        // each of 4 ranks holds one KV head (16 rows x 64 x 2 B) of k and of v, where the model has 2:
        // 4 x 2 x 2048 B held against 2 x 2 x 2048 B stored
        long kvReplication = 4 * 2 * 2048 - 2 * 2 * 2048;
        assertEquals(m.bytes() + 3 * NORMS + kvReplication, s.stream().mapToLong(RankShare::bytes).sum());
        // vocabulary 100 pads to 128: 32 rows per rank, the last holds 4 real rows and 28 of padding, in the
        // embedding and in lm_head (28 x 64 x 2 B each)
        assertEquals(List.of(0L, 0L, 0L, 2 * 28 * 128L), s.stream().map(RankShare::paddingBytes).toList());
        assertEquals(s.get(0).bytes() - s.get(3).bytes(), 2 * 28 * 128L);
    }

    @Test
    void dataParallelReplicasEachHoldTheModel() {
        ModelInventory m = tinyDense();
        List<RankShare> s = InferenceShares.of(m, new InferenceLayout(2, 3, false, 0));
        assertEquals(6, s.size());
        assertEquals(3 * (m.bytes() + NORMS), s.stream().mapToLong(RankShare::bytes).sum());
        assertEquals(List.of(0, 1, 0, 1, 0, 1), s.stream().map(RankShare::tpRank).toList());
        assertEquals(List.of(0, 0, 1, 1, 2, 2), s.stream().map(RankShare::dpRank).toList());
    }

    /**
     * TP2 x DP2 of an MoE model: in one engine (vLLM's own DP) the experts split over all four ranks; as two
     * separate engines (NeMo-RL's DP) each engine's two ranks split them, so each engine holds them whole and
     * ranks of one TP rank hold the same bytes: the experts twice over in all, where one engine holds them once.
     */
    @Test
    void separateEnginesEachHoldTheExpertsOverTheirOwnTpRanks() {
        ModelInventory m = tinyMoe();
        long experts = 2 * 10 * 3 * 32 * 64 * 2;
        List<RankShare> one = InferenceShares.of(m, new InferenceLayout(2, 2, false, 0));
        List<RankShare> separate = InferenceShares.of(m, new InferenceLayout(2, 2, false, 0, true));
        long oneTotal = one.stream().mapToLong(RankShare::bytes).sum();
        long separateTotal = separate.stream().mapToLong(RankShare::bytes).sum();
        assertEquals(experts, separateTotal - oneTotal, "the experts held once more");
        assertEquals(separate.get(0).bytes(), separate.get(2).bytes(), "TP rank 0 of each engine");
        // each engine holds the model once, its second rank a second copy of the norms (2 x (2 x 16 + 2 x 64) +
        // 64) and routers (10 x 64 per layer), bf16
        long replicated = (2 * (2 * 16 + 2 * 64) + 64) * 2 + 2 * 10 * 64 * 2;
        assertEquals(2 * (m.bytes() + replicated), separateTotal, "each engine holds the model once");
        // with expert parallelism inside each engine (EP = the engine's TP): each engine holds every expert once,
        // whole, on one of its ranks, the same map in every engine; one engine of all four ranks holds them once
        List<RankShare> epOne = InferenceShares.of(m, new InferenceLayout(2, 2, true, 0));
        List<RankShare> epSeparate = InferenceShares.of(m, new InferenceLayout(2, 2, true, 0, true));
        long epOneTotal = epOne.stream().mapToLong(RankShare::bytes).sum();
        long epSeparateTotal = epSeparate.stream().mapToLong(RankShare::bytes).sum();
        assertEquals(experts, epSeparateTotal - epOneTotal, "the experts held once per engine");
        assertEquals(epSeparate.get(0).bytes(), epSeparate.get(2).bytes(), "TP rank 0 of each engine");
        assertEquals(epSeparate.get(1).bytes(), epSeparate.get(3).bytes(), "TP rank 1 of each engine");
    }

    @Test
    void headsThatDoNotDivideAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InferenceShares.of(tinyDense(), new InferenceLayout(3, 1, false, 0)));
        assertTrue(e.getMessage().contains("heads"), e.getMessage());
    }

    @Test
    void expertParallelPlacesWholeExpertsRemainderFirst() {
        ModelInventory m = tinyMoe();
        long expert = 3 * 32 * 64 * 2;
        long experts = 2 * 10 * expert;
        List<RankShare> s = InferenceShares.of(m, new InferenceLayout(4, 1, true, 0));
        // 10 experts over 4 ranks: 3, 3, 2, 2 (vLLM determine_expert_map gives the remainder to the first ranks)
        assertEquals(List.of(3, 3, 2, 2), s.stream().map(RankShare::experts).toList());
        assertEquals(s.get(0).bytes() - s.get(2).bytes(), 2 * expert, "one more expert in each of 2 layers");
        // whole, each expert on one rank: the ranks together hold them once; the norms (2 x (2 x 16 + 2 x 64) +
        // 64, bf16) and the routers (10 x 64 per layer, bf16) are on every rank
        long replicated = (2 * (2 * 16 + 2 * 64) + 64) * 2 + 2 * 10 * 64 * 2;
        assertEquals(m.bytes() + 3 * replicated, s.stream().mapToLong(RankShare::bytes).sum());
        // without EP the same ranks hold every expert in quarter slices: same total, evenly
        List<RankShare> tp = InferenceShares.of(m, new InferenceLayout(4, 1, false, 0));
        assertEquals(m.bytes() + 3 * replicated, tp.stream().mapToLong(RankShare::bytes).sum());
        assertEquals(tp.get(0).bytes(), tp.get(3).bytes());
        assertTrue(experts < m.bytes());
    }

    @Test
    void redundantExpertsAddWholeCopies() {
        ModelInventory m = tinyMoe();
        long expert = 3 * 32 * 64 * 2;
        List<RankShare> s = InferenceShares.of(m, new InferenceLayout(2, 2, true, 2));
        // 12 physical slots over 4 ranks, 3 each; slots 10 and 11 hold logical experts 0 and 1 again
        assertEquals(List.of(3, 3, 3, 3), s.stream().map(RankShare::experts).toList());
        // rank 3 holds slots 9, 10, 11: logical experts 9, 0 and 1
        Tensor gate9 = m.tensors().stream().filter(t -> t.layer() == 0 && t.expert() == 9).findFirst().orElseThrow();
        Tensor gate0 = m.tensors().stream().filter(t -> t.layer() == 0 && t.expert() == 0).findFirst().orElseThrow();
        SliceMap map = SliceMap.of(m.tensors(), AttentionHeads.of(m), new TrainerLayout(1, 1, 1, 1, 1, 1),
                new InferenceLayout(2, 2, true, 2));
        assertTrue(map.inferenceNeed(gate9, 3) != null && map.inferenceNeed(gate0, 3) != null);
        // non-expert bytes are held by each of the 2 replicas (norms and routers by each of the 2 TP ranks of
        // each); the experts once, plus 2 copies in each of 2 layers
        long experts = 2 * 10 * expert;
        long nonExpert = m.bytes() - experts;
        long replicated = (2 * (2 * 16 + 2 * 64) + 64) * 2 + 2 * 10 * 64 * 2;
        assertEquals(2 * (nonExpert + replicated) + experts + 2 * 2 * expert,
                s.stream().mapToLong(RankShare::bytes).sum());
    }

    @Test
    void fp8BlocksLimitHowFarTpCutsTheExperts() throws IOException {
        ModelInventory m = PublishedCountsTest.shipped("kimi-k2-instruct.json");
        // moe_intermediate_size 2048 over TP 16 is 128 rows, one block: allowed
        List<RankShare> s = InferenceShares.of(m, new InferenceLayout(16, 1, false, 0));
        assertEquals(16, s.size());
        // over 32 it is 64 rows, half a block: vLLM refuses, and so does this
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InferenceShares.of(m, new InferenceLayout(32, 2, false, 0)));
        assertTrue(e.getMessage().contains("block"), e.getMessage());
    }

    @Test
    void theModelCommandsBytesAreTheSliceMapsNeeds() throws IOException {
        // dense with KV replication and vocabulary padding, MoE with EP and redundant experts, MoE TP-cut,
        // and Qwen3-30B-A3B as shipped
        ModelInventory qwen = PublishedCountsTest.shipped("qwen3-30b-a3b.json");
        List<Object[]> cases = List.of(new Object[] {tinyDense(), new InferenceLayout(4, 1, false, 0)},
                new Object[] {tinyDense(), new InferenceLayout(2, 3, false, 0)},
                new Object[] {tinyMoe(), new InferenceLayout(2, 2, true, 2)},
                new Object[] {tinyMoe(), new InferenceLayout(4, 1, false, 0)},
                new Object[] {qwen, new InferenceLayout(4, 2, true, 0)});
        for (Object[] c : cases) {
            ModelInventory m = (ModelInventory) c[0];
            InferenceLayout layout = (InferenceLayout) c[1];
            List<RankShare> shares = InferenceShares.of(m, layout);
            SliceMap map = SliceMap.of(m.tensors(), AttentionHeads.of(m), new TrainerLayout(2, 1, 1, 1, 1, 1), layout);
            for (RankShare s : shares) {
                assertEquals(map.neededBytes(s.rank()), s.bytes(), m.name() + " " + layout + " rank " + s.rank());
                assertEquals(map.neededBytes(s.rank()), map.receivedBytes(s.rank()));
            }
        }
    }
}
