package org.rdmasim.refit.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The tensors of a HuggingFace checkpoint, named and shaped as its safetensors files hold them, built from the
 * config: the per-layer formulas of the modeling files (modeling_llama.py, modeling_qwen3_moe.py,
 * modeling_deepseek.py, modeling_glm4_moe.py). Block-quantised FP8 linears carry their fp32
 * {@code weight_scale_inv} of {@code [ceil(N/bn), ceil(K/bk)]} (DeepSeek-V3 README_WEIGHTS.md, "FP8 Weights").
 */
final class CheckpointTensors {
    private final ModelConfig c;
    private final List<Tensor> out = new ArrayList<>();

    private CheckpointTensors(ModelConfig c) {
        this.c = c;
    }

    /** The main model's tensors (embedding, {@code num_hidden_layers} layers, final norm, lm_head). */
    static List<Tensor> main(ModelConfig c) {
        CheckpointTensors b = new CheckpointTensors(c);
        b.plain("model.embed_tokens.weight", TensorRole.VOCAB_EMBEDDING, -1, c.vocab(), c.hidden());
        for (int l = 0; l < c.layers(); l++) {
            b.layer(l);
        }
        b.plain("model.norm.weight", TensorRole.REPLICATED, -1, c.hidden());
        if (!c.tied()) {
            b.plain("lm_head.weight", TensorRole.LM_HEAD, -1, c.vocab(), c.hidden());
        }
        return List.copyOf(b.out);
    }

    /**
     * The multi-token-prediction layers stored after the main ones ({@code model.layers.<L+k>}): enorm, hnorm,
     * eh_proj {@code [H, 2H]}, a full decoder layer and shared_head.norm. Their embed_tokens and shared_head.head
     * share the main model's, so they are not counted again (DeepSeek-V3 README_WEIGHTS.md: "11.5B unique
     * parameters, excluding the shared 0.9B Embedding and 0.9B output Head"). eh_proj is a plain, unquantised
     * linear that every rank holds (vllm/model_executor/models/deepseek_mtp.py: nn.Linear).
     */
    static List<Tensor> mtp(ModelConfig c) {
        CheckpointTensors b = new CheckpointTensors(c);
        for (int k = 0; k < c.mtpLayers(); k++) {
            int l = c.layers() + k;
            String p = "model.layers." + l + ".";
            b.plain(p + "enorm.weight", TensorRole.REPLICATED, l, c.hidden());
            b.plain(p + "hnorm.weight", TensorRole.REPLICATED, l, c.hidden());
            b.plain(p + "eh_proj.weight", TensorRole.REPLICATED, l, c.hidden(), 2 * c.hidden());
            b.layer(l);
            b.plain(p + "shared_head.norm.weight", TensorRole.REPLICATED, l, c.hidden());
        }
        return List.copyOf(b.out);
    }

    private void layer(int l) {
        String p = "model.layers." + l + ".";
        long h = c.hidden();
        plain(p + "input_layernorm.weight", TensorRole.REPLICATED, l, h);
        plain(p + "post_attention_layernorm.weight", TensorRole.REPLICATED, l, h);
        String a = p + "self_attn.";
        ModelConfig.Mla m = c.mla();
        if (m != null) {
            long qHead = m.qkNopeHeadDim() + m.qkRopeHeadDim();
            if (m.qLoraRank() > 0) {
                linear(a + "q_a_proj", TensorRole.REPLICATED, l, -1, m.qLoraRank(), h);
                plain(a + "q_a_layernorm.weight", TensorRole.REPLICATED, l, m.qLoraRank());
                linear(a + "q_b_proj", TensorRole.COLUMN, l, -1, c.heads() * qHead, m.qLoraRank());
            } else {
                linear(a + "q_proj", TensorRole.COLUMN, l, -1, c.heads() * qHead, h);
            }
            linear(a + "kv_a_proj_with_mqa", TensorRole.REPLICATED, l, -1, m.kvLoraRank() + m.qkRopeHeadDim(), h);
            plain(a + "kv_a_layernorm.weight", TensorRole.REPLICATED, l, m.kvLoraRank());
            linear(a + "kv_b_proj", TensorRole.COLUMN, l, -1, c.heads() * (m.qkNopeHeadDim() + m.vHeadDim()),
                    m.kvLoraRank());
            linear(a + "o_proj", TensorRole.ROW, l, -1, h, c.heads() * m.vHeadDim());
        } else {
            long d = c.headDim();
            linear(a + "q_proj", TensorRole.ATTN_Q, l, -1, c.heads() * d, h);
            linear(a + "k_proj", TensorRole.ATTN_KV, l, -1, c.kvHeads() * d, h);
            linear(a + "v_proj", TensorRole.ATTN_KV, l, -1, c.kvHeads() * d, h);
            if (c.qkvBias()) {
                plain(a + "q_proj.bias", TensorRole.ATTN_Q, l, c.heads() * d);
                plain(a + "k_proj.bias", TensorRole.ATTN_KV, l, c.kvHeads() * d);
                plain(a + "v_proj.bias", TensorRole.ATTN_KV, l, c.kvHeads() * d);
            }
            linear(a + "o_proj", TensorRole.ROW, l, -1, h, c.heads() * d);
            if (c.oProjBias()) {
                // a row-parallel layer adds its bias once, after the reduce: every rank holds it whole
                plain(a + "o_proj.bias", TensorRole.REPLICATED, l, h);
            }
            if (c.qkNorm()) {
                plain(a + "q_norm.weight", TensorRole.REPLICATED, l, d);
                plain(a + "k_norm.weight", TensorRole.REPLICATED, l, d);
            }
        }
        String mlp = p + "mlp.";
        if (!c.isMoeLayer(l)) {
            mlp(mlp, l, c.intermediate(), TensorRole.COLUMN, TensorRole.ROW, -1);
            return;
        }
        ModelConfig.Moe e = c.moe();
        // the router stays in the model dtype: DeepSeek-V3's FP8 checkpoint keeps mlp.gate.weight in BF16
        plain(mlp + "gate.weight", TensorRole.REPLICATED, l, e.experts(), h);
        if (e.scoreCorrectionBias()) {
            add(new Tensor(mlp + "gate.e_score_correction_bias", List.of((long) e.experts()), DType.FP32,
                    TensorRole.REPLICATED, l, -1));
        }
        for (int x = 0; x < e.experts(); x++) {
            mlp(mlp + "experts." + x + ".", l, e.expertIntermediate(), TensorRole.EXPERT_COLUMN,
                    TensorRole.EXPERT_ROW, x);
        }
        if (e.sharedIntermediate() > 0) {
            if (e.sharedExpertGate()) {
                mlp(mlp + "shared_expert.", l, e.sharedIntermediate(), TensorRole.COLUMN, TensorRole.ROW, -1);
                plain(mlp + "shared_expert_gate.weight", TensorRole.REPLICATED, l, 1, h);
            } else {
                mlp(mlp + "shared_experts.", l, e.sharedIntermediate(), TensorRole.COLUMN, TensorRole.ROW, -1);
            }
        }
    }

    private void mlp(String p, int l, long width, TensorRole column, TensorRole row, int expert) {
        linear(p + "gate_proj", column, l, expert, width, c.hidden());
        linear(p + "up_proj", column, l, expert, width, c.hidden());
        linear(p + "down_proj", row, l, expert, c.hidden(), width);
    }

    /** A linear layer's weight {@code [out, in]}: FP8 plus its block scale when the checkpoint is quantised. */
    private void linear(String module, TensorRole role, int layer, int expert, long rows, long cols) {
        String w = module + ".weight";
        List<Integer> b = c.blockSize();
        if (b == null) {
            add(new Tensor(w, List.of(rows, cols), c.dtype(), role, layer, expert));
            return;
        }
        add(new Tensor(w, List.of(rows, cols), DType.FP8_E4M3, role, layer, expert));
        add(new Tensor(module + ".weight_scale_inv", List.of(ceilDiv(rows, b.get(0)), ceilDiv(cols, b.get(1))),
                DType.FP32, role, layer, expert, w));
    }

    private void plain(String name, TensorRole role, int layer, long... shape) {
        List<Long> s = new ArrayList<>();
        for (long d : shape) {
            s.add(d);
        }
        add(new Tensor(name, s, c.dtype(), role, layer, -1));
    }

    private void add(Tensor t) {
        out.add(t);
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
