package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.VariantOutcome;

/**
 * A refit of a model rdmasim does not ship, written as a user would from the model's public config: Llama-3.1-8B,
 * https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json (hidden 4096, intermediate 14336, 32 layers,
 * 32 heads, 8 KV heads, no head_dim, vocabulary 128256, untied embeddings, bfloat16). The counts the plan prints are
 * worked by hand from those numbers below, and the plan's words hold no Java null.
 */
class RefitLlamaInventoryTest {
    @TempDir
    Path dir;

    static final String LLAMA_31_8B = """
            {"architectures": ["LlamaForCausalLM"], "attention_bias": false, "hidden_act": "silu",
             "hidden_size": 4096, "intermediate_size": 14336, "max_position_embeddings": 131072, "mlp_bias": false,
             "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
             "rms_norm_eps": 1e-05, "rope_theta": 500000.0, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
             "vocab_size": 128256}
            """;

    private static final String SCENARIO = """
            name: llama-fp8
            seed: 1
            hosts:
              trainers: {preset: generic, count: 1, prefix: t, generic: {sockets: 1, gpusPerSocket: 2, nicsPerGpu: 1, nic: cx7}}
              inference: {preset: generic, count: 1, prefix: i, generic: {sockets: 1, gpusPerSocket: 2, nicsPerGpu: 1, nic: cx7}}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              refit:
                model: models/llama-3.1-8b.json
                dtype: fp8
                trainer: {hosts: trainers, tp: 2, dp: 1}
                inference: {hosts: inference, tp: 2, dp: 1}
                method: rdma-pull
                cycles: 1
            """;

    /**
     * Per layer: q and o 4096 x 4096, k and v 1024 x 4096 (8 KV heads of 4096 / 32 = 128), gate, up and down 14336 x
     * 4096, two 4096 norms: 218,112,000; 32 layers, the embedding and lm_head (128256 x 4096 each) and the final
     * norm: 8,030,261,248 parameters (the Hub's count for the model), 291 tensors, 16,060,522,496 bytes in BF16.
     * In FP8 with 128 x 128 block scales (FP32) on the seven projections: 6,979,321,856 FP8 bytes, 13,312 scales a
     * layer (1,703,936 bytes), the norms, embedding and lm_head kept BF16 (2,101,878,784): 9,082,904,576 bytes, 515
     * tensors; TP 2 halves all but the norms: 4,541,718,528 bytes a rank.
     */
    @Test
    void llama31With8BCountsAsItsConfigSays() throws IOException {
        Path m = dir.resolve("llama.json");
        Files.writeString(m, LLAMA_31_8B);
        ModelInventory inv = ModelInventory.read(m);
        assertEquals(8_030_261_248L, inv.parameters());
        assertEquals(291, inv.tensors().size());
        assertEquals(16_060_522_496L, inv.bytes());
    }

    @Test
    void anFp8PlanSaysWhatTheTrainerHoldsAndNamesNoNull() throws IOException {
        Files.createDirectories(dir.resolve("models"));
        Files.writeString(dir.resolve("models/llama-3.1-8b.json"), LLAMA_31_8B);
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Scenario s = ScenarioLoader.load(f);
        VariantOutcome o = VariantRunner.runRefitOnly(s.variants().get(0));
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        List<String> plan = o.result().refit().plan();
        assertTrue(plan.get(0).contains("8,030,261,248 parameters, 515 tensors, 9,082,904,576 bytes"), plan.get(0));
        String slices = plan.stream().filter(l -> l.startsWith("slice map")).findFirst().orElseThrow();
        assertTrue(slices.contains(String.format(java.util.Locale.ROOT, "%,d bytes", 2 * 4_541_718_528L)), slices);
        String prep = plan.stream().filter(l -> l.startsWith("preparation")).findFirst().orElseThrow();
        assertFalse(prep.contains("null"), prep);
        assertTrue(prep.contains("trainer bytes (bf16"), prep);
    }

    /**
     * A bucket written without its unit is bytes: {@code bucket: 1024} cuts Llama-3.1-8B's 16 GB into 15.7 million
     * buckets a cycle. Refused before anything runs, at the bucket's line, saying what the number was read as,
     * instead of running out of heap with no place named (or running for hours); a bucket of 1 GiB runs.
     */
    @Test
    void aBucketWithoutItsUnitIsRefusedAtItsLine() throws IOException {
        Files.createDirectories(dir.resolve("models"));
        Files.writeString(dir.resolve("models/llama-3.1-8b.json"), LLAMA_31_8B);
        Path f = dir.resolve("s.yaml");
        String bare = SCENARIO.replace("    dtype: fp8\n", "").replace("method: rdma-pull", "method: nccl-broadcast")
                .replace("    cycles: 1\n", "    cycles: 2\n    bucket: 1024\n");
        Files.writeString(f, bare);
        var r = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out").toString(), "-q");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(f + ":17:"), r.err());
        assertTrue(r.err().contains("workload.refit.bucket"), r.err());
        assertTrue(r.err().contains("a bare number is bytes"), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("Java heap"), r.err());
        Files.writeString(f, bare.replace("bucket: 1024", "bucket: 1 GiB"));
        assertEquals(2, ScenarioLoader.load(f).variants().get(0).refitSpec().cycles());
    }

    /**
     * A checkpoint-engine refit of Llama-3.1-8B spends most of its cycle in the update's end, one calibrated figure
     * (refit.checkpointEngineUpdateEndSeconds), while its bound names the limit busy longest, a NIC. The answer says
     * how much of the cycle that one figure is, so the NIC named is not read as where the time goes.
     */
    @Test
    void anAnswerBoundByANicSaysWhenOneCalibratedStageIsMostOfTheCycle() throws IOException {
        Files.createDirectories(dir.resolve("models"));
        Files.writeString(dir.resolve("models/llama-3.1-8b.json"), LLAMA_31_8B);
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO.replace("    dtype: fp8\n", "").replace("method: rdma-pull",
                "method: checkpoint-engine\n    bucket: 1 GiB"));
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", f.toString(), "--out", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(out.resolve("index.html")).replace("&#39;", "'").replace("&#x27;", "'")
                .replace("&amp;", "&");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("bound by [^;]*NIC[^;]*, while ([0-9.]+) s of it "
                + "\\((\\d+)%\\) is its update end stage, one figure \\(refit.checkpointEngineUpdateEndSeconds = 1.30 s, "
                + "calibrated\\)").matcher(page);
        assertTrue(m.find(), page.substring(page.indexOf("a refit takes"), page.indexOf("a refit takes") + 600));
        assertTrue(Integer.parseInt(m.group(2)) >= 50, m.group());
    }

    /**
     * The refit mistakes a user makes in a file: each exits 2 naming the file, line and field, with no trace, and a
     * misspelt method names the one meant as a misspelt model does.
     */
    @Test
    void refitMistakesExitTwoAtTheirLineAndAMisspeltMethodNamesTheOneMeant() throws IOException {
        Files.createDirectories(dir.resolve("models"));
        Files.writeString(dir.resolve("models/llama-3.1-8b.json"), LLAMA_31_8B);
        String base = SCENARIO.replace("    dtype: fp8\n", "");
        record Case(String from, String to, String where, String says) {
        }
        for (Case c : List.of(
                new Case("method: rdma-pull", "method: nccl-brodcast", ":15:", "did you mean 'nccl-broadcast'?"),
                new Case("method: rdma-pull", "method: rdma_pull", ":15:", "did you mean 'rdma-pull'?"),
                new Case("models/llama-3.1-8b.json", "llama-3.1-70b", ":12:", "no model named 'llama-3.1-70b'"),
                new Case("cycles: 1", "cycles: 1\n    bucket: 1 Gib", ":17:", "unknown size unit 'Gib'"),
                new Case("trainer: {hosts: trainers, tp: 2", "trainer: {hosts: trainers, tp: 3", ":13:",
                        "trainer tp 3 does not divide the 32 attention heads"),
                new Case("inference: {hosts: inference, tp: 2, dp: 1}", "inference: {hosts: inference, tp: 2, dp: 2}",
                        ":14:", "the inference layout has 4 ranks and its hosts 1 x 2 GPUs = 2"))) {
            Path f = dir.resolve("bad.yaml");
            Files.writeString(f, base.replace(c.from(), c.to()));
            var r = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out").toString(), "-q");
            assertEquals(2, r.code(), c + ": " + r.err());
            assertTrue(r.err().contains(f + c.where()), c + ": " + r.err());
            assertTrue(r.err().contains(c.says()), c + ": " + r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        }
    }
}
