package org.rdmasim.refit.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An explicit tensor list, for a model whose config.json rdmasim does not read:
 * <pre>
 * {"name": "my-model", "attention_heads": 32, "kv_heads": 8, "experts_per_token": 2,
 *  "tensors": [{"name": "model.layers.0.self_attn.k_proj.weight", "shape": [1024, 4096], "dtype": "bf16",
 *               "role": "attn_kv", "layer": 0, "expert": -1}, ...]}
 * </pre>
 * {@code role} is a {@link TensorRole} (any case), {@code dtype} a {@link DType} or its HuggingFace name,
 * {@code layer} and {@code expert} default to -1, {@code scale_of} names the weight a block scale belongs to.
 * {@code kv_heads} is required when a tensor has role attn_kv, {@code attention_heads} when one has attn_q; the
 * routed experts per layer are the highest expert index plus one.
 */
final class TensorListFile {
    private TensorListFile() {
    }

    static ModelInventory parse(JsonNode root, String source) {
        JsonNode list = root.get("tensors");
        if (!list.isArray() || list.isEmpty()) {
            throw new ModelFileException(source, "tensors", "a non-empty list of {name, shape, dtype, role}");
        }
        List<Tensor> tensors = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int maxExpert = -1;
        boolean kv = false;
        boolean q = false;
        for (int i = 0; i < list.size(); i++) {
            JsonNode n = list.get(i);
            String at = "tensors[" + i + "]";
            if (!n.isObject()) {
                throw new ModelFileException(source, at, "an object {name, shape, dtype, role, layer, expert}");
            }
            String name = text(n, source, at + ".name");
            if (!names.add(name)) {
                throw new ModelFileException(source, at + ".name", "'" + name + "' appears twice");
            }
            JsonNode shapeNode = n.get("shape");
            if (shapeNode == null || !shapeNode.isArray() || shapeNode.isEmpty()) {
                throw new ModelFileException(source, at + ".shape", "a non-empty list of positive integers");
            }
            List<Long> shape = new ArrayList<>();
            for (JsonNode d : shapeNode) {
                if (!d.isIntegralNumber() || !d.canConvertToLong() || d.asLong() < 1) {
                    throw new ModelFileException(source, at + ".shape", d + " is not a positive integer");
                }
                shape.add(d.asLong());
            }
            DType dtype = dtype(text(n, source, at + ".dtype"), source, at + ".dtype");
            String roleText = text(n, source, at + ".role");
            TensorRole role;
            try {
                role = TensorRole.valueOf(roleText.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ModelFileException(source, at + ".role", "'" + roleText + "' is not one of "
                        + List.of(TensorRole.values()).toString().toLowerCase(Locale.ROOT));
            }
            int layer = integer(n, source, at + ".layer", "layer");
            int expert = integer(n, source, at + ".expert", "expert");
            boolean expertRole = role.isExpert();
            if (expertRole != (expert >= 0)) {
                throw new ModelFileException(source, at + ".expert", "an expert index (>= 0) goes with role "
                        + "expert_column or expert_row, and only with them");
            }
            String scaleOf = n.hasNonNull("scale_of") ? text(n, source, at + ".scale_of") : null;
            Tensor t;
            try {
                t = new Tensor(name, shape, dtype, role, layer, expert, scaleOf);
                t.bytes();
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new ModelFileException(source, at, e.getMessage() == null ? "too large" : e.getMessage());
            }
            tensors.add(t);
            maxExpert = Math.max(maxExpert, expert);
            kv |= role == TensorRole.ATTN_KV;
            q |= role == TensorRole.ATTN_Q;
        }
        int heads = count(root, source, "attention_heads", q);
        int kvHeads = count(root, source, "kv_heads", kv);
        int topK = count(root, source, "experts_per_token", false);
        String name = root.hasNonNull("name") ? root.get("name").asText() : source;
        return new ModelInventory(name, tensors, List.of(), heads, kvHeads, maxExpert + 1, topK);
    }

    private static int count(JsonNode root, String source, String field, boolean required) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new ModelFileException(source, field, "missing: a layout needs it to cut the tensors of that "
                        + "role");
            }
            return 0;
        }
        if (!n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 1) {
            throw new ModelFileException(source, field, n + " is not a positive integer");
        }
        return n.asInt();
    }

    private static String text(JsonNode n, String source, String field) {
        JsonNode v = n.get(field.substring(field.lastIndexOf('.') + 1));
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new ModelFileException(source, field, "missing or not a string");
        }
        return v.asText();
    }

    private static int integer(JsonNode n, String source, String field, String key) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return -1;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < -1) {
            throw new ModelFileException(source, field, v + " is not an integer >= -1");
        }
        return v.asInt();
    }

    static DType dtype(String s, String source, String field) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "bf16", "bfloat16" -> DType.BF16;
            case "fp16", "float16", "f16" -> DType.FP16;
            case "fp32", "float32", "f32" -> DType.FP32;
            case "fp8_e4m3", "float8_e4m3fn", "f8_e4m3", "fp8" -> DType.FP8_E4M3;
            case "ue8m0" -> DType.UE8M0;
            default -> throw new ModelFileException(source, field, "'" + s + "' is not bf16, fp16, fp32, fp8_e4m3 "
                    + "or ue8m0");
        };
    }
}
