package org.rdmasim.refit.model;

import java.util.Locale;

/**
 * The config.json of a small dense Qwen3 model (8 query heads, 4 KV heads, untied embeddings, BF16) that refit
 * tests write beside their scenarios: small enough that a refit of it runs in milliseconds, shaped like the real
 * thing so every layout and method reads it as they read a shipped config.
 */
public final class TinyQwen3 {
    private TinyQwen3() {
    }

    /** Hidden 256, head dimension 32, FFN 512, vocabulary 1,000, {@code layers} layers. */
    public static String config(int layers) {
        return config(256, layers, 32, 512, 1000);
    }

    public static String config(int hidden, int layers, int headDim, int intermediate, int vocab) {
        return String.format(Locale.ROOT, """
                {"architectures": ["Qwen3ForCausalLM"], "hidden_size": %d, "num_hidden_layers": %d,
                 "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": %d, "intermediate_size": %d,
                 "vocab_size": %d, "tie_word_embeddings": false, "torch_dtype": "bfloat16"}
                """, hidden, layers, headDim, intermediate, vocab);
    }
}
