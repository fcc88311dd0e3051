package org.rdmasim.refit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-rank bytes of vLLM layouts on hand-made configs whose answers are worked out by hand. */
class RankShareTest {
    /**
     * Qwen3, one layer: H 64, 4 heads of 16, 2 KV heads, MLP 128, vocabulary 100, bf16, untied. Per layer q and
     * o 64 x 64, k and v 32 x 64, q/k norms 16, MLP 3 x 128 x 64, two norms 64; embedding and lm_head 100 x 64.
     */
    static ModelInventory tinyDense() {
        ObjectNode c = new ObjectMapper().createObjectNode();
        c.putArray("architectures").add("Qwen3ForCausalLM");
        c.put("hidden_size", 64).put("num_hidden_layers", 1).put("num_attention_heads", 4)
                .put("num_key_value_heads", 2).put("head_dim", 16).put("intermediate_size", 128)
                .put("vocab_size", 100).put("tie_word_embeddings", false).put("torch_dtype", "bfloat16");
        return ModelInventory.of(ModelConfig.parse(c, "tiny.json"));
    }

    @Test
    void theTinyInventoryIsTheHandCount() {
        long params = 2 * 64 * 64 + 2 * 32 * 64 + 2 * 16 + 3 * 128 * 64 + 2 * 64 + 2 * 100 * 64 + 64;
        assertEquals(params, tinyDense().parameters());
        assertEquals(2 * params, tinyDense().bytes());
    }

    /** Norms every rank holds whole: q/k norms 16 each, two layer norms and the final norm 64 each, bf16. */
    static final long NORMS = (2 * 16 + 3 * 64) * 2;

    @Test
    void aTpGroupHoldsTheModelOnceWhenTpDoesNotExceedTheKvHeads() {
        ModelInventory m = tinyDense();
        List<RankShare> s = new InferenceLayout(2, 1, false, 0).shares(m);
        // everything cut in two but the norms, which the second rank holds again
        assertEquals(m.bytes() + NORMS, s.stream().mapToLong(RankShare::bytes).sum());
    }

    @Test
    void tpAboveTheKvHeadsReplicatesThem() {
        ModelInventory m = tinyDense();
        List<RankShare> s = new InferenceLayout(4, 1, false, 0).shares(m);
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
        List<RankShare> s = new InferenceLayout(2, 3, false, 0).shares(m);
        assertEquals(6, s.size());
        assertEquals(3 * (m.bytes() + NORMS), s.stream().mapToLong(RankShare::bytes).sum());
        assertEquals(List.of(0, 1, 0, 1, 0, 1), s.stream().map(RankShare::tpRank).toList());
        assertEquals(List.of(0, 0, 1, 1, 2, 2), s.stream().map(RankShare::dpRank).toList());
    }

    @Test
    void headsThatDoNotDivideAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new InferenceLayout(3, 1, false, 0).shares(tinyDense()));
        assertTrue(e.getMessage().contains("heads"), e.getMessage());
    }

    /** Qwen3-MoE, two layers, 10 experts of width 32 (H 64), top 2. */
    static ModelInventory tinyMoe() {
        ObjectNode c = new ObjectMapper().createObjectNode();
        c.putArray("architectures").add("Qwen3MoeForCausalLM");
        c.put("hidden_size", 64).put("num_hidden_layers", 2).put("num_attention_heads", 4)
                .put("num_key_value_heads", 4).put("head_dim", 16).put("intermediate_size", 128)
                .put("moe_intermediate_size", 32).put("num_experts", 10).put("num_experts_per_tok", 2)
                .put("vocab_size", 128).put("torch_dtype", "bfloat16");
        return ModelInventory.of(ModelConfig.parse(c, "tiny-moe.json"));
    }

    @Test
    void expertParallelPlacesWholeExpertsRemainderFirst() {
        ModelInventory m = tinyMoe();
        long expert = 3 * 32 * 64 * 2;
        long experts = 2 * 10 * expert;
        List<RankShare> s = new InferenceLayout(4, 1, true, 0).shares(m);
        // 10 experts over 4 ranks: 3, 3, 2, 2 (vLLM determine_expert_map gives the remainder to the first ranks)
        assertEquals(List.of(3, 3, 2, 2), s.stream().map(RankShare::experts).toList());
        assertEquals(s.get(0).bytes() - s.get(2).bytes(), 2 * expert, "one more expert in each of 2 layers");
        // whole, each expert on one rank: the ranks together hold them once; the norms (2 x (2 x 16 + 2 x 64) +
        // 64, bf16) and the routers (10 x 64 per layer, bf16) are on every rank
        long replicated = (2 * (2 * 16 + 2 * 64) + 64) * 2 + 2 * 10 * 64 * 2;
        assertEquals(m.bytes() + 3 * replicated, s.stream().mapToLong(RankShare::bytes).sum());
        // without EP the same ranks hold every expert in quarter slices: same total, evenly
        List<RankShare> tp = new InferenceLayout(4, 1, false, 0).shares(m);
        assertEquals(m.bytes() + 3 * replicated, tp.stream().mapToLong(RankShare::bytes).sum());
        assertEquals(tp.get(0).bytes(), tp.get(3).bytes());
        assertTrue(experts < m.bytes());
    }

    @Test
    void redundantExpertsAddWholeCopies() {
        ModelInventory m = tinyMoe();
        long expert = 3 * 32 * 64 * 2;
        List<RankShare> s = new InferenceLayout(2, 2, true, 2).shares(m);
        // 12 physical slots over 4 ranks, 3 each; slots 10 and 11 hold logical experts 0 and 1 again
        assertEquals(List.of(3, 3, 3, 3), s.stream().map(RankShare::experts).toList());
        InferenceLayout l = new InferenceLayout(2, 2, true, 2);
        int[] last = l.expertCopies(m, 3);
        assertEquals(1, last[9]);
        assertEquals(1, last[0]);
        assertEquals(1, last[1]);
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
        List<RankShare> s = new InferenceLayout(16, 1, false, 0).shares(m);
        assertEquals(16, s.size());
        // over 32 it is 64 rows, half a block: vLLM refuses, and so does this
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new InferenceLayout(32, 2, false, 0).shares(m));
        assertTrue(e.getMessage().contains("block"), e.getMessage());
    }

    @Test
    void pipelineStagesSplitLayersEvenlyWithEmbeddingFirstAndHeadLast() {
        ModelInventory m = tinyMoe();
        List<PipelineStage> p = PipelineStage.split(m, 2);
        assertEquals(m.bytes(), p.stream().mapToLong(PipelineStage::bytes).sum());
        long embedding = 128 * 64 * 2;
        // the layers are the same, so the stages differ by the final norm (64 x 2 B) beside lm_head on the last
        assertEquals(p.get(0).bytes() - embedding, p.get(1).bytes() - embedding - 128);
        assertThrows(IllegalArgumentException.class, () -> PipelineStage.split(m, 3));
    }

    @Test
    void tiedEmbeddingsGiveTheLastStageACopy() {
        ObjectNode c = new ObjectMapper().createObjectNode();
        c.putArray("architectures").add("LlamaForCausalLM");
        c.put("hidden_size", 64).put("num_hidden_layers", 2).put("num_attention_heads", 4)
                .put("intermediate_size", 128).put("vocab_size", 100).put("tie_word_embeddings", true)
                .put("torch_dtype", "float32");
        ModelInventory m = ModelInventory.of(ModelConfig.parse(c, "tied.json"));
        List<PipelineStage> p = PipelineStage.split(m, 2);
        assertEquals(m.bytes() + 100 * 64 * 4, p.stream().mapToLong(PipelineStage::bytes).sum());
    }
}
