package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.List;

import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/** Hand-made tensor lists for the slice map tests (the real inventory is built elsewhere). */
final class Tensors {
    private Tensors() {
    }

    static Tensor of(String name, TensorRole role, DType dtype, int layer, int expert, long... shape) {
        List<Long> dims = new ArrayList<>();
        for (long d : shape) {
            dims.add(d);
        }
        return new Tensor(name, dims, dtype, role, layer, expert);
    }

    static Tensor scale(String name, Tensor weight, long... shape) {
        List<Long> dims = new ArrayList<>();
        for (long d : shape) {
            dims.add(d);
        }
        return new Tensor(name, dims, DType.FP32, weight.role(), weight.layer(), weight.expert(), weight.name());
    }

    /**
     * A Kimi-K2-shaped model (config.json of moonshotai/Kimi-K2-Instruct: hidden 7168, 61 layers, the first
     * dense, 384 routed experts of intermediate 2048 plus one shared, MLA with q_lora 1536, kv_lora 512,
     * 64 heads of nope 128 + rope 64 and v 128, vocabulary 163840, FP8 weights in 128x128 blocks).
     */
    static List<Tensor> kimiK2() {
        long h = 7168;
        long im = 2048;
        long dense = 18432;
        long heads = 64;
        List<Tensor> out = new ArrayList<>();
        out.add(of("model.embed_tokens.weight", TensorRole.VOCAB_EMBEDDING, DType.BF16, -1, -1, 163840, h));
        for (int l = 0; l < 61; l++) {
            String p = "model.layers." + l + ".";
            out.add(of(p + "input_layernorm.weight", TensorRole.REPLICATED, DType.BF16, l, -1, h));
            out.add(of(p + "post_attention_layernorm.weight", TensorRole.REPLICATED, DType.BF16, l, -1, h));
            fp8(out, p + "self_attn.q_a_proj", TensorRole.REPLICATED, l, -1, 1536, h);
            out.add(of(p + "self_attn.q_a_layernorm.weight", TensorRole.REPLICATED, DType.BF16, l, -1, 1536));
            fp8(out, p + "self_attn.q_b_proj", TensorRole.COLUMN, l, -1, heads * 192, 1536);
            fp8(out, p + "self_attn.kv_a_proj_with_mqa", TensorRole.REPLICATED, l, -1, 576, h);
            out.add(of(p + "self_attn.kv_a_layernorm.weight", TensorRole.REPLICATED, DType.BF16, l, -1, 512));
            fp8(out, p + "self_attn.kv_b_proj", TensorRole.COLUMN, l, -1, heads * 256, 512);
            fp8(out, p + "self_attn.o_proj", TensorRole.ROW, l, -1, h, heads * 128);
            if (l == 0) {
                fp8(out, p + "mlp.gate_proj", TensorRole.COLUMN, l, -1, dense, h);
                fp8(out, p + "mlp.up_proj", TensorRole.COLUMN, l, -1, dense, h);
                fp8(out, p + "mlp.down_proj", TensorRole.ROW, l, -1, h, dense);
                continue;
            }
            out.add(of(p + "mlp.gate.weight", TensorRole.REPLICATED, DType.BF16, l, -1, 384, h));
            out.add(of(p + "mlp.gate.e_score_correction_bias", TensorRole.REPLICATED, DType.FP32, l, -1, 384));
            fp8(out, p + "mlp.shared_experts.gate_proj", TensorRole.COLUMN, l, -1, im, h);
            fp8(out, p + "mlp.shared_experts.up_proj", TensorRole.COLUMN, l, -1, im, h);
            fp8(out, p + "mlp.shared_experts.down_proj", TensorRole.ROW, l, -1, h, im);
            for (int e = 0; e < 384; e++) {
                String q = p + "mlp.experts." + e + ".";
                fp8(out, q + "gate_proj", TensorRole.EXPERT_COLUMN, l, e, im, h);
                fp8(out, q + "up_proj", TensorRole.EXPERT_COLUMN, l, e, im, h);
                fp8(out, q + "down_proj", TensorRole.EXPERT_ROW, l, e, h, im);
            }
        }
        out.add(of("model.norm.weight", TensorRole.REPLICATED, DType.BF16, -1, -1, h));
        out.add(of("lm_head.weight", TensorRole.LM_HEAD, DType.BF16, -1, -1, 163840, h));
        return out;
    }

    private static void fp8(List<Tensor> out, String name, TensorRole role, int layer, int expert, long rows, long cols) {
        Tensor w = of(name + ".weight", role, DType.FP8_E4M3, layer, expert, rows, cols);
        out.add(w);
        out.add(scale(name + ".weight_scale_inv", w, (rows + 127) / 128, (cols + 127) / 128));
    }
}
