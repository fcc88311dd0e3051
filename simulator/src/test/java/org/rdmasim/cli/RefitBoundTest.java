package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What bounds a refit's steady cycle is carried as fields (the limit, its words, the stage parameters it is a cost
 * of), and each number the stage costs rest on as key, value and evidence: "what would halve it" reruns a refit
 * without a calibrated stage cost only when that cost bounds it, and summary.json and explain say which.
 *
 * <p>A broadcast of a 4-layer model in 2 MiB buckets from one sender pays one bucket call after another: the
 * per-bucket cost ({@code refit.bucketSeconds}, fitted to halo PR #11) bounds it. A pull of the same model with
 * posting made almost free (1 ns a descriptor) is bound by the trainer's NICs' line rate: no stage parameter.
 */
class RefitBoundTest {
    @TempDir
    Path dir;

    /** A 4-layer Qwen3-shaped model, small enough for a refit test to run in a second. */
    static final String MODEL = """
            {"architectures": ["Qwen3ForCausalLM"], "hidden_size": 2048, "num_hidden_layers": 4,
             "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "intermediate_size": 8192,
             "vocab_size": 32000, "tie_word_embeddings": false, "torch_dtype": "bfloat16"}
            """;

    /** A pull bound by the trainer NICs' line rate beside a broadcast bound by its bucket calls. */
    static final String PULL_AND_BROADCAST = """
            # a pull bound by the wire beside a broadcast bound by its bucket calls
            name: refit-bound
            seed: 3
            protocol:
              perDescriptor: 1 ns
            hosts:
              trainers: {preset: dgx-h100, count: 1, prefix: t}
              inference: {preset: dgx-h100, count: 2, prefix: i}
            workload:
              refit:
                model: model.json
                trainer: {hosts: trainers, tp: 2, dp: 2}
                inference: {hosts: inference, tp: 4, dp: 2}
                method: rdma-pull
                cycles: 2
            variants:
              - name: pull
              - name: broadcast
                workload: {refit: {method: nccl-broadcast, bucket: 2 MiB, senders: one}}
            """;

    private static final String SCENARIO = PULL_AND_BROADCAST + """
              - name: stated
                workload: {refit: {method: nccl-broadcast, bucket: 2 MiB, senders: one, stages: {bucket: 6 ms}}}
            """;

    private JsonNode summary() throws IOException {
        Files.writeString(dir.resolve("model.json"), MODEL);
        Path f = dir.resolve("refit.yaml");
        Files.writeString(f, SCENARIO);
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", f.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }

    private static JsonNode refit(JsonNode summary, String variant) {
        for (JsonNode v : summary.get("variants")) {
            if (v.get("name").asText().equals(variant)) {
                return v.get("refit");
            }
        }
        throw new AssertionError("no variant " + variant);
    }

    private static JsonNode steady(JsonNode refit) {
        JsonNode cycles = refit.get("cycles");
        return cycles.get(cycles.size() - 1);
    }

    /** The stage parameters the "what would halve it" reruns take away, by their field. */
    private static List<String> takenAway(JsonNode refit) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : refit.get("whatWouldHalveIt")) {
            if (c.has("parameter")) {
                out.add(c.get("parameter").asText());
                // the words say the same as the field
                assertEquals("without the calibrated " + c.get("parameter").asText()
                        + " (0 s), which bounds the steady cycle", c.get("change").asText());
                assertTrue(c.get("steadyCycleSeconds").asDouble() > 0, c.toString());
            }
        }
        return out;
    }

    private static JsonNode restingOn(JsonNode refit, String key) {
        for (JsonNode p : refit.get("restsOn")) {
            if (p.get("key").asText().equals(key)) {
                return p;
            }
        }
        throw new AssertionError("the refit does not rest on " + key + ": " + refit.get("restsOn"));
    }

    @Test
    void aCalibratedStageCostThatBoundsTheRefitIsTheOneWhatWouldHalveItTakesAway() throws IOException {
        JsonNode b = refit(summary(), "broadcast");
        JsonNode last = steady(b);
        assertEquals(List.of("refit.bucketSeconds"), List.of(last.get("boundParameters").get(0).asText()), last.toString());
        assertEquals(1, last.get("boundParameters").size(), last.toString());
        assertEquals(List.of("refit.bucketSeconds"), takenAway(b));
        // without the bucket calls the broadcast is faster: they bound it
        for (JsonNode c : b.get("whatWouldHalveIt")) {
            if (c.has("parameter")) {
                assertTrue(c.get("speedup").asDouble() > 1.0, c.toString());
            }
        }
        JsonNode bucket = restingOn(b, "refit.bucketSeconds");
        assertEquals("calibrated", bucket.get("kind").asText());
        assertTrue(bucket.get("source").asText().startsWith("whitecircle/halo PR #11"), bucket.toString());
        assertTrue(bucket.get("value").asText().endsWith(" ms"), bucket.toString());
    }

    @Test
    void aRefitBoundByTheWireIsNotRerunWithoutACalibratedStageCost() throws IOException {
        JsonNode summary = summary();
        JsonNode p = refit(summary, "pull");
        JsonNode last = steady(p);
        assertTrue(last.get("boundWords").asText().contains("line rate"), last.toString());
        assertEquals(0, last.get("boundParameters").size(), last.toString());
        assertEquals(List.of(), takenAway(p));
        // the pull does rest on calibrated numbers (registration): resting on one is not being bound by it
        assertTrue(p.get("restsOn").findValuesAsText("kind").contains("calibrated"), p.get("restsOn").toString());
        // a bucket cost the scenario states bounds that variant, but it is the scenario's figure, not a calibration:
        // its words and its evidence say so, and no rerun takes it away
        JsonNode stated = refit(summary, "stated");
        JsonNode bound = steady(stated);
        assertEquals("refit.bucketSeconds", bound.get("boundParameters").get(0).asText(), bound.toString());
        assertTrue(bound.get("boundWords").asText().endsWith("(refit.bucketSeconds, assumed)"), bound.toString());
        assertEquals("assumed", restingOn(stated, "refit.bucketSeconds").get("kind").asText());
        assertEquals(List.of(), takenAway(stated));
    }

    @Test
    void everyNumberTheRefitRestsOnIsKeyValueAndEvidenceAndExplainPrintsThemAsLines() throws IOException {
        JsonNode b = refit(summary(), "broadcast");
        for (JsonNode r : b.get("restsOn")) {
            for (String field : new String[] {"key", "value", "kind", "source"}) {
                assertTrue(r.hasNonNull(field) && !r.get(field).asText().isEmpty(), field + " in " + r);
            }
            assertTrue(List.of("derived", "calibrated", "assumed").contains(r.get("kind").asText()), r.toString());
        }
        for (JsonNode c : b.get("cycles")) {
            assertTrue(c.get("boundParameters").isArray(), c.toString());
        }
        var text = CliTestSupport.run("explain", dir.resolve("refit.yaml").toString(), "--variant", "broadcast");
        assertEquals(0, text.code(), text.err());
        JsonNode bucket = restingOn(b, "refit.bucketSeconds");
        String line = "  " + bucket.get("key").asText() + " = " + bucket.get("value").asText() + ", "
                + bucket.get("kind").asText() + " (" + bucket.get("source").asText() + ")";
        assertTrue(text.out().lines().anyMatch(line::equals), text.out());
        assertTrue(text.out().contains("without the calibrated refit.bucketSeconds (0 s)"), text.out());
        assertFalse(text.out().contains("without the calibrated refit.loadTensorSeconds"), text.out());
    }
}
