package org.rdmasim.refit.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fields of a HuggingFace {@code config.json} that decide a checkpoint's tensors, read for the
 * architectures rdmasim knows: Llama, Mistral, Qwen2, Qwen3 (dense, GQA), Qwen2-MoE and Qwen3-MoE, DeepSeek-V2/V3
 * and Kimi-K2 (MLA attention, shared plus routed experts), GLM-4.5 (GQA attention, DeepSeek-style experts) and
 * GLM-4.7-Flash ({@code Glm4MoeLiteForCausalLM}: DeepSeek-V3's MLA attention with GLM-4.5's experts and router).
 * Field names and defaults are the transformers configuration classes' ({@code configuration_qwen3_moe.py},
 * {@code configuration_deepseek_v3.py}, {@code configuration_glm4_moe.py}, {@code configuration_glm4_moe_lite.py}).
 *
 * @param architecture   {@code architectures[0]}
 * @param headDim        {@code head_dim}, else hidden / heads (GQA only)
 * @param oProjBias      whether {@code o_proj} has a bias: Llama and Qwen3 follow {@code attention_bias}, Qwen2 and
 *                       GLM-4.5 never ({@code modeling_qwen2.py}, {@code modeling_glm4_moe.py})
 * @param qkNorm         per-head RMSNorm on q and k ({@code q_norm}, {@code k_norm}: Qwen3 always, GLM-4.5 with
 *                       {@code use_qk_norm})
 * @param mla            MLA dimensions, {@code null} for GQA models
 * @param moe            expert dimensions, {@code null} for dense models
 * @param mtpLayers      {@code num_nextn_predict_layers}: multi-token-prediction layers stored after the main ones
 * @param blockSize      FP8 {@code quantization_config.weight_block_size} [bn, bk], {@code null} when not quantised
 */
public record ModelConfig(String source, String architecture, DType dtype, long hidden, int layers, int heads,
        int kvHeads, long headDim, long intermediate, long vocab, boolean tied, boolean qkvBias, boolean oProjBias,
        boolean qkNorm, Mla mla, Moe moe, int mtpLayers, List<Integer> blockSize) {

    /** Multi-head latent attention (DeepSeek-V2/V3, Kimi-K2); {@code qLoraRank} 0 means a plain q_proj. */
    public record Mla(long qLoraRank, long kvLoraRank, long qkNopeHeadDim, long qkRopeHeadDim, long vHeadDim) {
    }

    /**
     * Routed (and shared) experts.
     *
     * @param sharedIntermediate   width of the shared expert MLP, 0 without one
     * @param sharedExpertGate     Qwen2-MoE's sigmoid gate on the shared expert ({@code shared_expert_gate})
     * @param scoreCorrectionBias  DeepSeek-V3's {@code e_score_correction_bias} (topk_method noaux_tc)
     * @param denseLayers          decoder layers with a dense MLP instead of experts
     */
    public record Moe(int experts, long expertIntermediate, int expertsPerToken, long sharedIntermediate,
            boolean sharedExpertGate, boolean scoreCorrectionBias, Set<Integer> denseLayers) {
        public Moe {
            denseLayers = Set.copyOf(denseLayers);
        }
    }

    public boolean isMoeLayer(int layer) {
        return moe != null && !moe.denseLayers().contains(layer);
    }

    /** The architectures this reader knows, as {@code architectures[0]} names them. */
    public static final List<String> KNOWN = List.of("LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM",
            "Qwen3ForCausalLM", "Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM", "DeepseekV2ForCausalLM",
            "DeepseekV3ForCausalLM", "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM");

    /** Reads a parsed {@code config.json}; {@code source} names it in error messages. */
    public static ModelConfig parse(JsonNode root, String source) {
        Fields f = new Fields(root, source);
        if (!root.isObject()) {
            throw new ModelFileException(source, null, "a config.json is a JSON object");
        }
        JsonNode archs = root.get("architectures");
        if (archs == null || !archs.isArray() || archs.isEmpty() || !archs.get(0).isTextual()) {
            throw new ModelFileException(source, "architectures", "missing: a config.json names its model class "
                    + "there (one of " + String.join(", ", KNOWN) + ")");
        }
        String arch = archs.get(0).asText();
        if (!KNOWN.contains(arch)) {
            throw new ModelFileException(source, "architectures", "'" + arch + "' is not one rdmasim reads (it reads "
                    + String.join(", ", KNOWN) + "); list the tensors instead (a JSON file with a \"tensors\" array, "
                    + "see scenarios/models/README.md)");
        }
        DType dtype = dtype(f);
        long hidden = f.positive("hidden_size");
        int layers = (int) f.positive("num_hidden_layers");
        int heads = (int) f.positive("num_attention_heads");
        int kvHeads = (int) f.positiveOr("num_key_value_heads", heads);
        long vocab = f.positive("vocab_size");
        // every configuration class read here defaults tie_word_embeddings to false
        boolean tied = f.bool("tie_word_embeddings", false);
        boolean qwen2 = arch.startsWith("Qwen2");
        boolean glm = arch.startsWith("Glm");
        boolean deepseek = arch.startsWith("Deepseek");
        // huggingface/transformers modular_glm4_moe_lite.py: Glm4MoeLiteAttention is DeepseekV3Attention, so the
        // checkpoint holds DeepSeek's MLA tensors (q_a_proj, kv_a_proj_with_mqa, kv_b_proj) under GLM-4.5's layers
        boolean latent = deepseek || arch.equals("Glm4MoeLiteForCausalLM");
        // Qwen2 hard-codes q/k/v biases (modeling_qwen2.py: bias=True); the others follow attention_bias
        boolean qkvBias = qwen2 || f.bool("attention_bias", false);
        boolean oBias = !qwen2 && !glm && !deepseek && f.bool("attention_bias", false);
        boolean qkNorm = arch.startsWith("Qwen3") || (glm && !latent && f.bool("use_qk_norm", false));
        Mla mla = null;
        long headDim = 0;
        if (latent) {
            mla = new Mla(f.nonNegativeOr("q_lora_rank", 0), f.positive("kv_lora_rank"), f.positive("qk_nope_head_dim"),
                    f.positive("qk_rope_head_dim"), f.positive("v_head_dim"));
        } else {
            if (hidden % heads != 0 && !root.hasNonNull("head_dim")) {
                throw new ModelFileException(source, "head_dim", "missing, and hidden_size " + hidden
                        + " is not a multiple of num_attention_heads " + heads);
            }
            headDim = f.positiveOr("head_dim", hidden / heads);
            if (heads % kvHeads != 0) {
                throw new ModelFileException(source, "num_key_value_heads", kvHeads + " does not divide "
                        + "num_attention_heads " + heads);
            }
        }
        Moe moe = null;
        boolean anyDense = true;
        if (arch.contains("Moe") || latent) {
            moe = moe(f, arch, layers);
            anyDense = moe.denseLayers().size() > 0;
        }
        long intermediate = anyDense ? f.positive("intermediate_size") : f.nonNegativeOr("intermediate_size", 0);
        int mtp = (deepseek || glm) ? (int) f.nonNegativeOr("num_nextn_predict_layers", 0) : 0;
        List<Integer> block = fp8Block(f, root);
        return new ModelConfig(source, arch, dtype, hidden, layers, heads, kvHeads, headDim, intermediate, vocab, tied,
                qkvBias, oBias, qkNorm, mla, moe, mtp, block);
    }

    private static Moe moe(Fields f, String arch, int layers) {
        boolean qwen = arch.startsWith("Qwen");
        String expertsField = qwen ? "num_experts" : "n_routed_experts";
        int experts = (int) f.positive(expertsField);
        long im = f.positive("moe_intermediate_size");
        int topK = (int) f.positive("num_experts_per_tok");
        if (topK > experts) {
            throw new ModelFileException(f.source, "num_experts_per_tok", topK + " exceeds " + expertsField + " "
                    + experts);
        }
        Set<Integer> dense = new TreeSet<>();
        long shared;
        boolean sharedGate = false;
        boolean bias = false;
        if (qwen) {
            // modeling_qwen3_moe.py: a layer is sparse when it is not in mlp_only_layers and
            // (layer + 1) % decoder_sparse_step == 0
            int step = (int) f.positiveOr("decoder_sparse_step", 1);
            Set<Integer> only = new TreeSet<>();
            JsonNode list = f.root.get("mlp_only_layers");
            if (list != null && !list.isNull()) {
                if (!list.isArray()) {
                    throw new ModelFileException(f.source, "mlp_only_layers", "a list of layer indices");
                }
                for (JsonNode n : list) {
                    if (!n.canConvertToInt() || n.asInt() < 0 || n.asInt() >= layers) {
                        throw new ModelFileException(f.source, "mlp_only_layers", n + " is not a layer index below "
                                + "num_hidden_layers " + layers);
                    }
                    only.add(n.asInt());
                }
            }
            for (int l = 0; l < layers; l++) {
                if (only.contains(l) || (l + 1) % step != 0) {
                    dense.add(l);
                }
            }
            shared = f.nonNegativeOr("shared_expert_intermediate_size", 0);
            sharedGate = shared > 0;
        } else {
            // modeling_deepseek_v3.py / modeling_glm4_moe.py: layers below first_k_dense_replace are dense, the
            // rest sparse every moe_layer_freq layers
            int firstDense = (int) f.nonNegativeOr("first_k_dense_replace", 0);
            int freq = (int) f.positiveOr("moe_layer_freq", 1);
            if (firstDense > layers) {
                throw new ModelFileException(f.source, "first_k_dense_replace", firstDense + " exceeds "
                        + "num_hidden_layers " + layers);
            }
            for (int l = 0; l < layers; l++) {
                if (l < firstDense || l % freq != 0) {
                    dense.add(l);
                }
            }
            shared = im * f.nonNegativeOr("n_shared_experts", 0);
            // GLM-4.5's router always has the bias (Glm4MoeTopkRouter); DeepSeek's with topk_method noaux_tc, the
            // default of DeepSeek-V3's configuration_deepseek.py (V2's is greedy)
            bias = arch.startsWith("Glm") || "noaux_tc".equals(f.text("topk_method",
                    arch.equals("DeepseekV3ForCausalLM") ? "noaux_tc" : "greedy"));
        }
        return new Moe(experts, im, topK, shared, sharedGate, bias, dense);
    }

    private static DType dtype(Fields f) {
        String field = f.root.hasNonNull("torch_dtype") ? "torch_dtype" : "dtype";
        String name = f.text(field, null);
        if (name == null) {
            throw new ModelFileException(f.source, "torch_dtype", "missing: the weights' dtype (bfloat16, float16 or "
                    + "float32)");
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "bfloat16" -> DType.BF16;
            case "float16", "half" -> DType.FP16;
            case "float32", "float" -> DType.FP32;
            default -> throw new ModelFileException(f.source, field, "'" + name + "' is not bfloat16, float16 or "
                    + "float32");
        };
    }

    private static List<Integer> fp8Block(Fields f, JsonNode root) {
        JsonNode q = root.get("quantization_config");
        if (q == null || q.isNull()) {
            return null;
        }
        String method = q.path("quant_method").asText("");
        if (!method.equals("fp8")) {
            throw new ModelFileException(f.source, "quantization_config.quant_method", "'" + method + "' is not one "
                    + "rdmasim reads (it reads fp8 with weight_block_size); list the tensors instead");
        }
        JsonNode b = q.get("weight_block_size");
        if (b == null || !b.isArray() || b.size() != 2 || !b.get(0).canConvertToInt() || !b.get(1).canConvertToInt()
                || b.get(0).asInt() < 1 || b.get(1).asInt() < 1) {
            throw new ModelFileException(f.source, "quantization_config.weight_block_size", "missing or not two "
                    + "positive integers [bn, bk]: rdmasim reads block-quantised FP8 only");
        }
        return List.of(b.get(0).asInt(), b.get(1).asInt());
    }

    /** Field access that names the file and the field when a value is missing or wrong. */
    private static final class Fields {
        final JsonNode root;
        final String source;

        Fields(JsonNode root, String source) {
            this.root = root;
            this.source = source;
        }

        long positive(String field) {
            JsonNode n = root.get(field);
            if (n == null || n.isNull()) {
                throw new ModelFileException(source, field, "missing");
            }
            return check(field, n, 1);
        }

        long positiveOr(String field, long otherwise) {
            JsonNode n = root.get(field);
            return n == null || n.isNull() ? otherwise : check(field, n, 1);
        }

        long nonNegativeOr(String field, long otherwise) {
            JsonNode n = root.get(field);
            return n == null || n.isNull() ? otherwise : check(field, n, 0);
        }

        private long check(String field, JsonNode n, long least) {
            if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < least || n.asLong() > Integer.MAX_VALUE) {
                throw new ModelFileException(source, field, n + " is not an integer from " + least + " to "
                        + Integer.MAX_VALUE);
            }
            return n.asLong();
        }

        boolean bool(String field, boolean otherwise) {
            JsonNode n = root.get(field);
            if (n == null || n.isNull()) {
                return otherwise;
            }
            if (!n.isBoolean()) {
                throw new ModelFileException(source, field, n + " is not true or false");
            }
            return n.asBoolean();
        }

        String text(String field, String otherwise) {
            JsonNode n = root.get(field);
            if (n == null || n.isNull()) {
                return otherwise;
            }
            if (!n.isTextual()) {
                throw new ModelFileException(source, field, n + " is not a string");
            }
            return n.asText();
        }
    }
}
