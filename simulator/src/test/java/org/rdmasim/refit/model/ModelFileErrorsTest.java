package org.rdmasim.refit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a wrong model file is told, and the explicit tensor list. */
class ModelFileErrorsTest {
    @TempDir
    Path dir;

    private ModelFileException refused(String json) throws IOException {
        Path f = dir.resolve("config.json");
        Files.writeString(f, json);
        return assertThrows(ModelFileException.class, () -> ModelInventory.read(f));
    }

    @Test
    void aMissingFieldIsNamedWithTheFile() throws IOException {
        ModelFileException e = refused("{\"architectures\": [\"Qwen3ForCausalLM\"], \"torch_dtype\": \"bfloat16\", "
                + "\"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 10, \"intermediate_size\": 8}");
        assertTrue(e.getMessage().contains("config.json") && e.getMessage().contains("hidden_size: missing"),
                e.getMessage());
    }

    @Test
    void anUnknownArchitectureSaysWhatIsKnownAndTheWayOut() throws IOException {
        ModelFileException e = refused("{\"architectures\": [\"GPT2LMHeadModel\"]}");
        assertTrue(e.getMessage().contains("architectures") && e.getMessage().contains("GPT2LMHeadModel")
                && e.getMessage().contains("tensors"), e.getMessage());
    }

    @Test
    void glm47FlashIsReadAsLatentAttentionSoItsLatentRankIsRequired() throws IOException {
        // Glm4MoeLiteForCausalLM carries DeepSeek's MLA: without kv_lora_rank it cannot be laid out as GQA
        ModelFileException e = refused("{\"architectures\": [\"Glm4MoeLiteForCausalLM\"], \"dtype\": \"bfloat16\", "
                + "\"hidden_size\": 8, \"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"vocab_size\": 10, "
                + "\"intermediate_size\": 8, \"q_lora_rank\": 4, \"qk_nope_head_dim\": 2, \"qk_rope_head_dim\": 2, "
                + "\"v_head_dim\": 2, \"n_routed_experts\": 2, \"moe_intermediate_size\": 4, "
                + "\"num_experts_per_tok\": 1, \"first_k_dense_replace\": 1}");
        assertTrue(e.getMessage().contains("kv_lora_rank: missing"), e.getMessage());
    }

    @Test
    void aQuantisationOtherThanBlockFp8IsNamed() throws IOException {
        ModelFileException e = refused("{\"architectures\": [\"LlamaForCausalLM\"], \"torch_dtype\": \"bfloat16\", "
                + "\"hidden_size\": 8, \"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"vocab_size\": 10, "
                + "\"intermediate_size\": 8, \"quantization_config\": {\"quant_method\": \"compressed-tensors\"}}");
        assertTrue(e.getMessage().contains("quantization_config.quant_method"), e.getMessage());
    }

    @Test
    void badJsonNamesTheLine() throws IOException {
        ModelFileException e = refused("{\n\"architectures\": [\n}");
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    }

    @Test
    void aMissingFieldIsPlacedAtTheObjectThatLacksIt() throws IOException {
        // tensors[1] has no role ("rolee" is not it): the refusal points at that entry's '{' (line 3, column 3)
        ModelFileException e = refused("""
                {"tensors": [
                  {"name": "a", "shape": [2], "dtype": "bf16", "role": "replicated"},
                  {"name": "b", "shape": [2], "dtype": "bf16", "rolee": "x"}
                ]}
                """);
        assertTrue(e.getMessage().endsWith("config.json:3:3: tensors[1].role: missing or not a string"),
                e.getMessage());
        // a config.json field missing at the top level: the document's start
        ModelFileException top = refused("{\"architectures\": [\"Qwen3ForCausalLM\"], \"torch_dtype\": \"bfloat16\"}");
        assertTrue(top.getMessage().contains("config.json:1:1: hidden_size: missing"), top.getMessage());
    }

    @Test
    void aNestedFieldIsPlacedAtItsValue() throws IOException {
        ModelFileException e = refused("{\"architectures\": [\"LlamaForCausalLM\"], \"torch_dtype\": \"bfloat16\", "
                + "\"hidden_size\": 8, \"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"vocab_size\": 10, "
                + "\"intermediate_size\": 8,\n\"quantization_config\": {\"quant_method\": \"compressed-tensors\"}}");
        assertTrue(e.getMessage().contains("config.json:2:41: quantization_config.quant_method: "), e.getMessage());
    }

    @Test
    void anExplicitTensorListReadsAndCuts() throws IOException {
        Path f = dir.resolve("list.json");
        Files.writeString(f, """
                {"name": "two-tensors", "attention_heads": 2, "kv_heads": 1,
                 "tensors": [
                   {"name": "k.weight", "shape": [8, 16], "dtype": "bf16", "role": "attn_kv", "layer": 0},
                   {"name": "e.weight", "shape": [4, 16], "dtype": "fp8_e4m3", "role": "expert_column", "layer": 0,
                    "expert": 1},
                   {"name": "e.weight_scale_inv", "shape": [2, 1], "dtype": "fp32", "role": "expert_column",
                    "layer": 0, "expert": 1, "scale_of": "e.weight"}
                 ]}
                """);
        ModelInventory m = ModelInventory.read(f);
        assertEquals("two-tensors", m.name());
        assertEquals(8 * 16 + 4 * 16, m.parameters());
        assertEquals(8 * 16 * 2 + 4 * 16 + 2 * 4, m.bytes());
        assertEquals(2, m.routedExperts());
    }

    @Test
    void aTensorListNamesTheBadEntry() throws IOException {
        ModelFileException e = refused("{\"tensors\": [{\"name\": \"a\", \"shape\": [2], \"dtype\": \"bf16\", "
                + "\"role\": \"sideways\"}]}");
        assertTrue(e.getMessage().contains("tensors[0].role") && e.getMessage().contains("sideways"), e.getMessage());
        ModelFileException kv = refused("{\"tensors\": [{\"name\": \"k\", \"shape\": [2, 2], \"dtype\": \"bf16\", "
                + "\"role\": \"attn_kv\"}]}");
        assertTrue(kv.getMessage().contains("kv_heads: missing"), kv.getMessage());
    }
}
