package org.rdmasim.refit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.layout.AttentionHeads;
import org.rdmasim.refit.layout.InferenceLayout;
import org.rdmasim.refit.layout.SliceMap;
import org.rdmasim.refit.layout.TrainerLayout;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;
import org.rdmasim.refit.model.TinyModelsTest;

/** Inference's dtype override: which tensors become FP8 with block scales, and what the slice map then moves. */
class RefitSetupTest {
    /**
     * NeMo-RL's split of a refit between its shard-to-shard path (FFN projections) and the packed broadcast of the
     * rest, against the "xferd frac" PR #2971's table gives for Qwen3-30B-A3B: 95.0% of the bytes in BF16, 93.0% in
     * FP8 (where each FP8 weight's block scale takes the broadcast path). Within half a point.
     */
    @Test
    void nemosShardToShardShareOfQwen3MoeIsWhatItsTableSays() throws Exception {
        List<Tensor> bf16 = org.rdmasim.refit.model.PublishedCountsTest.shipped("qwen3-30b-a3b.json").tensors();
        assertEquals(0.950, shardToShardShare(bf16), 0.005);
        assertEquals(0.930, shardToShardShare(RefitSetup.converted(bf16, "fp8")), 0.005);
    }

    private static double shardToShardShare(List<Tensor> tensors) {
        long all = 0;
        long bulk = 0;
        for (Tensor t : tensors) {
            all += t.bytes();
            if (org.rdmasim.refit.method.NcclP2p.shardToShard(t.name())) {
                bulk += t.bytes();
            }
        }
        return (double) bulk / all;
    }

    /**
     * SGLang's GLM-4.7-Flash loader reworks all 47 layers' kv_b_proj after every load; vLLM's, an unnamed engine's and
     * SGLang's DeepSeek class (Moonlight: only the layers a call carried) rework nothing beyond the call.
     */
    @Test
    void onlySglangsGlm47FlashLoaderReworksEveryLayerAfterALoad() throws Exception {
        ModelInventory flash = org.rdmasim.refit.model.PublishedCountsTest.shipped("glm-4.7-flash.json");
        ModelInventory moon = org.rdmasim.refit.model.PublishedCountsTest.shipped("moonlight-16b-a3b.json");
        assertEquals(java.util.Optional.of("Glm4MoeLiteForCausalLM"), flash.architecture());
        var sglang = org.rdmasim.workload.InferenceEngine.SGLANG;
        assertEquals(47, RefitSetup.reworkedAfterEachLoad(sglang, flash, flash.tensors()));
        assertEquals(0, RefitSetup.reworkedAfterEachLoad(org.rdmasim.workload.InferenceEngine.VLLM, flash,
                flash.tensors()));
        assertEquals(0, RefitSetup.reworkedAfterEachLoad(null, flash, flash.tensors()), "engine not stated");
        assertEquals(0, RefitSetup.reworkedAfterEachLoad(sglang, moon, moon.tensors()));
        assertEquals(java.util.Optional.of(org.rdmasim.workload.InferenceEngine.SGLANG),
                org.rdmasim.workload.InferenceEngine.of("SGLang"));
        assertTrue(org.rdmasim.workload.InferenceEngine.of("trt-llm").isEmpty());
    }

    @Test
    void fp8MakesLinearsOneBytePlusA128BlockScaleAndLeavesTheRest() {
        ModelInventory m = TinyModelsTest.tinyDense();
        List<Tensor> fp8 = RefitSetup.converted(m.tensors(), "fp8");
        long linearElements = 0;
        long linearCount = 0;
        long scaleBytes = 0;
        long otherBytes = 0;
        for (Tensor t : m.tensors()) {
            boolean linear = t.shape().size() == 2 && t.role() != TensorRole.VOCAB_EMBEDDING
                    && t.role() != TensorRole.LM_HEAD && t.role() != TensorRole.REPLICATED;
            if (linear) {
                linearElements += t.elements();
                linearCount++;
                // every linear of the tiny model is under 128 x 128 blocks on each side: one FP32 block scale
                scaleBytes += 4 * ((t.shape().get(0) + 127) / 128) * ((t.shape().get(1) + 127) / 128);
            } else {
                otherBytes += t.bytes();
            }
        }
        long bytes = fp8.stream().mapToLong(Tensor::bytes).sum();
        assertEquals(linearElements + scaleBytes + otherBytes, bytes);
        assertEquals(m.tensors().size() + linearCount, fp8.size(), "one scale tensor per linear");
        assertTrue(fp8.stream().filter(t -> t.role() == TensorRole.VOCAB_EMBEDDING).allMatch(t -> t.dtype() == DType.BF16));
        // back to BF16: the scales go, the weights are two bytes again
        List<Tensor> bf16 = RefitSetup.converted(fp8, "bf16");
        assertEquals(m.bytes(), bf16.stream().mapToLong(Tensor::bytes).sum());
        assertTrue(bf16.stream().allMatch(t -> t.scaleOf() == null));
    }

    @Test
    void anFp8SliceMapDeliversEveryRankItsNeedsScalesIncluded() {
        ModelInventory m = TinyModelsTest.tinyDense();
        List<Tensor> fp8 = RefitSetup.converted(m.tensors(), "fp8");
        SliceMap map = SliceMap.of(fp8, AttentionHeads.of(m), new TrainerLayout(2, 1, 1, 1, 1, 1),
                new InferenceLayout(1, 2, false, 0));
        long whole = fp8.stream().mapToLong(Tensor::bytes).sum();
        for (int r = 0; r < 2; r++) {
            assertEquals(whole, map.neededBytes(r), "TP 1: each replica needs the whole FP8 model");
            assertEquals(whole, map.receivedBytes(r));
        }
    }
}
