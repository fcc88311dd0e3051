package org.rdmasim.refit.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Every weight tensor of a model, with the few model-wide numbers a layout needs to cut them: attention and KV
 * heads (vLLM replicates KV heads when TP exceeds them), routed experts per MoE layer, and the FP8 block size.
 * Multi-token-prediction layers are kept apart ({@link #mtp()}): published parameter counts leave them out
 * (DeepSeek-V3's 671B is the main model; its checkpoint adds 11.5B of MTP), and an RL refit moves them only when
 * the engine speculates with them.
 */
public final class ModelInventory {
    private final String name;
    private final List<Tensor> tensors;
    private final List<Tensor> mtp;
    private final int attentionHeads;
    private final int kvHeads;
    private final int routedExperts;
    private final int expertsPerToken;
    private final int layers;
    /** {@code architectures[0]} of the config.json read; null for an explicit tensor list. */
    private final String architecture;

    public ModelInventory(String name, List<Tensor> tensors, List<Tensor> mtp, int attentionHeads, int kvHeads,
            int routedExperts, int expertsPerToken) {
        this(name, tensors, mtp, attentionHeads, kvHeads, routedExperts, expertsPerToken, highestLayer(tensors) + 1,
                null);
    }

    private ModelInventory(String name, List<Tensor> tensors, List<Tensor> mtp, int attentionHeads, int kvHeads,
            int routedExperts, int expertsPerToken, int layers, String architecture) {
        this.layers = layers;
        this.architecture = architecture;
        this.name = name;
        this.tensors = List.copyOf(tensors);
        this.mtp = List.copyOf(mtp);
        this.attentionHeads = attentionHeads;
        this.kvHeads = kvHeads;
        this.routedExperts = routedExperts;
        this.expertsPerToken = expertsPerToken;
    }

    /** The inventory of a HuggingFace config. */
    public static ModelInventory of(ModelConfig c) {
        ModelConfig.Moe e = c.moe();
        List<Tensor> main = CheckpointTensors.main(c);
        return new ModelInventory(c.source(), main, CheckpointTensors.mtp(c), c.heads(),
                c.mla() != null ? c.heads() : c.kvHeads(), e == null ? 0 : e.experts(),
                e == null ? 0 : e.expertsPerToken(), highestLayer(main) + 1, c.architecture());
    }

    /**
     * Reads a model file: a JSON object with a {@code "tensors"} array is an explicit tensor list
     * ({@link TensorListFile}), anything else a HuggingFace {@code config.json}. A refusal names the file and,
     * for a field, the line and column where it is written (where its object is, for a missing one).
     */
    public static ModelInventory read(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new ModelFileException(file, null, "is a folder, not a model file (a config.json or a tensor "
                    + "list, see scenarios/models/README.md)");
        }
        String text;
        JsonNode root;
        try {
            text = Files.readString(file);
            root = new ObjectMapper().readTree(text);
        } catch (NoSuchFileException e) {
            throw new ModelFileException(file, null, "no such file");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ModelFileException(file, null, "not UTF-8 text, so not a JSON model file");
        } catch (JsonProcessingException e) {
            throw new ModelFileException(file, null, "not valid JSON (line " + e.getLocation().getLineNr() + "): "
                    + e.getOriginalMessage());
        }
        if (root == null) {
            throw new ModelFileException(file, null, "empty");
        }
        try {
            if (root.has("tensors")) {
                return TensorListFile.parse(root, String.valueOf(file));
            }
            return of(ModelConfig.parse(root, String.valueOf(file)));
        } catch (ModelFileException e) {
            if (e.field() == null || !e.source().equals(String.valueOf(file))) {
                throw e;
            }
            JsonLocation at = locate(text, e.field());
            throw at == null ? e : e.at(at.getLineNr(), at.getColumnNr());
        }
    }

    /**
     * Where {@code field} (written as the refusals write it: {@code a.b[2].c}) is in the JSON text: its
     * value's first character; a field that is not there (a missing one) is placed at the nearest enclosing
     * value that is, the whole document at worst. Null when the text cannot be read again (it was read once,
     * so only in theory).
     */
    static JsonLocation locate(String text, String field) {
        Map<String, JsonLocation> places = new java.util.HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(text)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                JsonStreamContext c = p.getParsingContext();
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    // the context is now the new container; its place is the parent's path
                    JsonStreamContext parent = c.getParent();
                    String at = parent == null ? "" : parent.pathAsPointer().toString();
                    places.putIfAbsent(at, p.currentTokenLocation());
                } else if (t.isScalarValue()) {
                    places.putIfAbsent(c.pathAsPointer().toString(), p.currentTokenLocation());
                }
            }
        } catch (IOException e) {
            return null;
        }
        String pointer = "/" + field.replaceAll("\\[(\\d+)]", ".$1").replace("~", "~0").replace("/", "~1")
                .replace('.', '/');
        while (!pointer.isEmpty() && !places.containsKey(pointer)) {
            pointer = pointer.substring(0, pointer.lastIndexOf('/'));
        }
        return places.get(pointer);
    }

    /** This inventory with the multi-token-prediction layers counted as part of the model. */
    public ModelInventory withMtp() {
        List<Tensor> all = new ArrayList<>(tensors);
        all.addAll(mtp);
        return new ModelInventory(name, all, List.of(), attentionHeads, kvHeads, routedExperts, expertsPerToken,
                layers, architecture);
    }

    /** The model class its config.json names ({@code architectures[0]}); empty for an explicit tensor list. */
    public java.util.Optional<String> architecture() {
        return java.util.Optional.ofNullable(architecture);
    }

    public String name() {
        return name;
    }

    public List<Tensor> tensors() {
        return tensors;
    }

    public List<Tensor> mtp() {
        return mtp;
    }

    public int attentionHeads() {
        return attentionHeads;
    }

    public int kvHeads() {
        return kvHeads;
    }

    /** Routed experts per MoE layer, 0 for a dense model. */
    public int routedExperts() {
        return routedExperts;
    }

    public int expertsPerToken() {
        return expertsPerToken;
    }

    /** Parameters: elements of every weight, block scales not counted (they are metadata of the FP8 weights). */
    public long parameters() {
        return parameters(tensors);
    }

    public long mtpParameters() {
        return parameters(mtp);
    }

    private static long parameters(List<Tensor> list) {
        long n = 0;
        for (Tensor t : list) {
            if (t.scaleOf() == null) {
                n = Math.addExact(n, t.elements());
            }
        }
        return n;
    }

    /**
     * Parameters one token passes through: everything but the routed experts, plus {@code num_experts_per_tok}
     * of them in each MoE layer (the "activated" count model cards give). Equal to {@link #parameters()} for a
     * dense model.
     */
    public long activatedParameters() {
        if (routedExperts == 0) {
            return parameters();
        }
        long routed = 0;
        for (Tensor t : tensors) {
            if (t.expert() >= 0 && t.scaleOf() == null) {
                routed += t.elements();
            }
        }
        return parameters() - routed + routed / routedExperts * expertsPerToken;
    }

    /** Bytes of every tensor, scales included. */
    public long bytes() {
        long n = 0;
        for (Tensor t : tensors) {
            n = Math.addExact(n, t.bytes());
        }
        return n;
    }

    /** Bytes by element type, in the enum's order. */
    public Map<DType, Long> bytesByDtype() {
        Map<DType, Long> m = new EnumMap<>(DType.class);
        for (Tensor t : tensors) {
            m.merge(t.dtype(), t.bytes(), Math::addExact);
        }
        return m;
    }

    /**
     * Decoder layers of the main model (one more than the highest layer index of its tensors); MTP layers,
     * even when counted in by {@link #withMtp()}, come after them.
     */
    public int layers() {
        return layers;
    }

    private static int highestLayer(List<Tensor> list) {
        int max = -1;
        for (Tensor t : list) {
            max = Math.max(max, t.layer());
        }
        return max;
    }
}
