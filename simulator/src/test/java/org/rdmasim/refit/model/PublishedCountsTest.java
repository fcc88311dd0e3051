package org.rdmasim.refit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The shipped configs' inventories against the parameter counts their publishers give (sources in
 * scenarios/models/README.md): within 1% unless said otherwise.
 */
public class PublishedCountsTest {
    public static ModelInventory shipped(String file) throws IOException {
        return ModelInventory.read(Path.of(System.getProperty("rdmasim.repo", ".."), "scenarios", "models", file));
    }

    private static void near(double published, long counted, double tolerance, String what) {
        double off = Math.abs(counted - published) / published;
        assertTrue(off <= tolerance, what + ": counted " + counted + ", published " + published + " ("
                + String.format("%.2f%%", 100 * off) + " off)");
    }

    @Test
    void deepSeekV3MainModelIs671BAndItsMtpLayerComesApart() throws IOException {
        ModelInventory m = shipped("deepseek-v3.json");
        // README_WEIGHTS.md: main model 671B, MTP module 11.5B unique parameters
        near(671e9, m.parameters(), 0.01, "DeepSeek-V3 main model");
        near(11.5e9, m.mtpParameters(), 0.01, "DeepSeek-V3 MTP module");
        assertEquals(m.parameters() + m.mtpParameters(), m.withMtp().parameters());
        assertEquals(61, m.layers());
        assertTrue(m.tensors().stream().noneMatch(t -> t.layer() == 61), "layer 61 is the MTP layer");
    }

    @Test
    void qwen3Moe235BTotalAnd22BActivated() throws IOException {
        ModelInventory m = shipped("qwen3-235b-a22b.json");
        near(235e9, m.parameters(), 0.01, "Qwen3-235B-A22B total");
        near(22e9, m.activatedParameters(), 0.01, "Qwen3-235B-A22B activated");
        assertTrue(m.mtp().isEmpty());
    }

    @Test
    void qwen3Dense8BIs8Point2BAnd16Point4GBInBf16() throws IOException {
        ModelInventory m = shipped("qwen3-8b.json");
        // model card (https://huggingface.co/Qwen/Qwen3-8B): 8.2B parameters; whitecircle/halo PR #11 moves
        // "full Qwen3-8B (16.4 GB) per sync"
        near(8.2e9, m.parameters(), 0.01, "Qwen3-8B");
        near(16.4e9, m.bytes(), 0.01, "Qwen3-8B BF16 bytes");
    }

    @Test
    void kimiK2CountsAsHuggingFaceCountsItsSafetensors() throws IOException {
        ModelInventory m = shipped("kimi-k2-instruct.json");
        // the model card rounds to "1T"; the Hub's safetensors count is 1026.5B, which counts every stored
        // element, the FP8 block scales included
        near(1.03e12, m.parameters(), 0.01, "Kimi-K2 total");
        long stored = m.tensors().stream().mapToLong(Tensor::elements).sum();
        near(1026.5e9, stored, 0.0005, "Kimi-K2 stored elements");
        near(32e9, m.activatedParameters(), 0.03, "Kimi-K2 activated");
    }

    @Test
    void denseAndSmallerMoeModels() throws IOException {
        near(4.0e9, shipped("qwen3-4b.json").parameters(), 0.01, "Qwen3-4B");
        near(30.5e9, shipped("qwen3-30b-a3b.json").parameters(), 0.01, "Qwen3-30B-A3B");
        near(3.3e9, shipped("qwen3-30b-a3b.json").activatedParameters(), 0.02, "Qwen3-30B-A3B activated");
        near(106e9, shipped("glm-4.5-air.json").parameters(), 0.01, "GLM-4.5-Air");
    }

    @Test
    void moonlightIs16BTotalAnd3BActivated() throws IOException {
        ModelInventory m = shipped("moonlight-16b-a3b.json");
        // model card (https://huggingface.co/moonshotai/Moonlight-16B-A3B): 16B total, 3B activated
        near(16e9, m.parameters(), 0.01, "Moonlight-16B-A3B total");
        near(3e9, m.activatedParameters(), 0.03, "Moonlight-16B-A3B activated");
        // without the embedding and the untied head (2 x 163840 x 2048): 15.29B total and 2.24B activated, the
        // Muon paper's figures (arXiv 2502.16982) as pages quoting it give them
        long vocab = 2L * 163840 * 2048;
        near(15.29e9, m.parameters() - vocab, 0.001, "Moonlight without embedding and head");
        near(2.24e9, m.activatedParameters() - vocab, 0.003, "Moonlight activated without embedding and head");
        assertTrue(m.mtp().isEmpty());
    }

    @Test
    void glm47FlashIs30BWithDeepSeekAttentionAndItsMtpLayerApart() throws IOException {
        ModelInventory m = shipped("glm-4.7-flash.json");
        // model card (https://huggingface.co/zai-org/GLM-4.7-Flash): "a 30B-A3B MoE model"
        near(30e9, m.parameters(), 0.01, "GLM-4.7-Flash total");
        assertEquals(47, m.layers());
        // Glm4MoeLiteAttention is DeepseekV3Attention: q through a 768 LoRA, 20 heads of 192 + 64 (q) and 192 + 256
        // (k nope and v) out of the 512 latent
        assertEquals(java.util.List.of(768L, 2048L), find(m, "model.layers.1.self_attn.q_a_proj.weight").shape());
        assertEquals(java.util.List.of(20L * 256, 768L), find(m, "model.layers.1.self_attn.q_b_proj.weight").shape());
        assertEquals(java.util.List.of(20L * (192 + 256), 512L),
                find(m, "model.layers.1.self_attn.kv_b_proj.weight").shape());
        assertEquals(java.util.List.of(2048L, 20L * 256), find(m, "model.layers.1.self_attn.o_proj.weight").shape());
        // layer 0 dense (first_k_dense_replace 1), the rest GLM-4.5's experts with the router's score bias
        assertEquals(java.util.List.of(10240L, 2048L), find(m, "model.layers.0.mlp.gate_proj.weight").shape());
        assertEquals(DType.FP32, find(m, "model.layers.1.mlp.gate.e_score_correction_bias").dtype());
        assertEquals(java.util.List.of(1536L, 2048L),
                find(m, "model.layers.46.mlp.experts.63.up_proj.weight").shape());
        assertTrue(m.tensors().stream().noneMatch(t -> t.layer() == 47), "layer 47 is the MTP layer");
        assertTrue(m.mtpParameters() > 0.5e9 && m.mtpParameters() < 0.7e9, "one MoE layer plus its projection");
    }

    @Test
    void kimiK2WithTheBlogsBlocksHasFourTimesTheScales() throws IOException {
        ModelInventory m128 = shipped("kimi-k2-instruct.json");
        ModelInventory m64 = shipped("kimi-k2-fp8-block64.json");
        assertEquals(m128.parameters(), m64.parameters());
        // one routed expert's gate_proj [2048, 7168]: 16 x 56 blocks of 128, 32 x 112 of 64
        assertEquals(java.util.List.of(32L, 112L),
                find(m64, "model.layers.1.mlp.experts.0.gate_proj.weight_scale_inv").shape());
        long scales128 = m128.tensors().stream().filter(t -> t.scaleOf() != null).mapToLong(Tensor::bytes).sum();
        long scales64 = m64.tensors().stream().filter(t -> t.scaleOf() != null).mapToLong(Tensor::bytes).sum();
        near(4.0 * scales128, scales64, 0.01, "scale bytes at 64 x 64 against 128 x 128");
    }

    @Test
    void tiedEmbeddingsAreStoredOnce() throws IOException {
        ModelInventory m = shipped("qwen3-4b.json");
        assertTrue(m.tensors().stream().noneMatch(t -> t.role() == TensorRole.LM_HEAD));
        // Qwen3-4B model card: 4.0B parameters, 3.6B without the embedding
        long embedding = m.tensors().stream().filter(t -> t.role() == TensorRole.VOCAB_EMBEDDING)
                .mapToLong(Tensor::elements).sum();
        assertEquals(151936L * 2560, embedding);
        near(3.6e9, m.parameters() - embedding, 0.01, "Qwen3-4B non-embedding");
    }

    @Test
    void deepSeekFp8ScalesMatchTheBlockFormula() throws IOException {
        ModelInventory m = shipped("deepseek-v3.json");
        Tensor kvA = find(m, "model.layers.0.self_attn.kv_a_proj_with_mqa.weight_scale_inv");
        // [512 + 64, 7168] in 128 x 128 blocks: ceil(576 / 128) = 5 rows, 7168 / 128 = 56 columns
        assertEquals(java.util.List.of(5L, 56L), kvA.shape());
        assertEquals(DType.FP32, kvA.dtype());
        assertEquals("model.layers.0.self_attn.kv_a_proj_with_mqa.weight", kvA.scaleOf());
        // one routed expert: gate and up [16, 56], down [56, 16], fp32: 3 x 896 x 4 = 10,752 bytes
        long expertScales = m.tensors().stream().filter(t -> t.layer() == 3 && t.expert() == 0 && t.scaleOf() != null)
                .mapToLong(Tensor::bytes).sum();
        assertEquals(10_752, expertScales);
        assertEquals(DType.BF16, find(m, "model.layers.3.mlp.gate.weight").dtype(), "the router is not quantised");
        assertEquals(DType.FP32, find(m, "model.layers.3.mlp.gate.e_score_correction_bias").dtype());
        assertEquals(DType.BF16, find(m, "lm_head.weight").dtype());
    }

    static Tensor find(ModelInventory m, String name) {
        return m.tensors().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError("no tensor " + name));
    }
}
