package org.rdmasim.refit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-made configs whose counts are worked out by hand: the inventory and Megatron's pipeline stages. */
public class TinyModelsTest {
    /**
     * Qwen3, one layer: H 64, 4 heads of 16, 2 KV heads, MLP 128, vocabulary 100, bf16, untied. Per layer q and
     * o 64 x 64, k and v 32 x 64, q/k norms 16, MLP 3 x 128 x 64, two norms 64; embedding and lm_head 100 x 64.
     */
    public static ModelInventory tinyDense() {
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

    /** Qwen3-MoE, two layers, 10 experts of width 32 (H 64), top 2. */
    public static ModelInventory tinyMoe() {
        ObjectNode c = new ObjectMapper().createObjectNode();
        c.putArray("architectures").add("Qwen3MoeForCausalLM");
        c.put("hidden_size", 64).put("num_hidden_layers", 2).put("num_attention_heads", 4)
                .put("num_key_value_heads", 4).put("head_dim", 16).put("intermediate_size", 128)
                .put("moe_intermediate_size", 32).put("num_experts", 10).put("num_experts_per_tok", 2)
                .put("vocab_size", 128).put("torch_dtype", "bfloat16");
        return ModelInventory.of(ModelConfig.parse(c, "tiny-moe.json"));
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
