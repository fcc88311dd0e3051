package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.TinyQwen3;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trainer as verl's FSDP engine builds it, from a scenario file: {@code dtype: fp32} makes the FSDP gather
 * move twice the BF16 bytes sent and adds the cast; {@code offload: true} makes every cycle copy each rank's
 * FP32 shard to its GPU over PCIe (a host copy) before the first bucket, so the cycle grows by at least that
 * copy; a trainer without FSDP cannot offload, and an unknown dtype is refused, both naming file, line and field.
 */
class OffloadedTrainerScenarioTest {
    @TempDir
    Path dir;

    private Path scenario(String trainerExtra, String variants) throws IOException {
        Files.writeString(dir.resolve("tiny.json"), TinyQwen3.config(1024, 8, 128, 4096, 32000));
        Path f = dir.resolve("refit.yaml");
        Files.writeString(f, """
                name: tiny-offload
                seed: 3
                hosts:
                  trainer: {preset: dgx-h100, count: 1, prefix: t}
                  rollout: {preset: dgx-h100, count: 1, prefix: r}
                workload:
                  refit:
                    model: tiny.json
                    trainer: {hosts: trainer, dp: 2%s}
                    inference: {hosts: rollout, tp: 1, dp: 2}
                    method: nixl-ring
                    bucket: 64 MiB
                    registration: arena
                    stages: {loadTensor: 0 s, packTensor: 0 s}
                    cycles: 2
                """.formatted(trainerExtra) + variants);
        return f;
    }

    // the sender's walk over the tensors (refit.packTensorSeconds) is logged in the gather stage and is the same for
    // every dtype: the scenario sets it to 0 so the stage holds the gather's bytes alone
    @Test
    void anFp32TrainerGathersTwiceTheBytesAndAnOffloadedOneCopiesItsShardFirst() throws IOException {
        Path f = scenario(", fsdp: true", """
                variants:
                  - name: bf16
                  - name: fp32
                    workload: {refit: {trainer: {dtype: fp32}}}
                  - name: offloaded
                    workload: {refit: {trainer: {dtype: fp32, offload: true}}}
                """);
        var r = CliTestSupport.run("run", f.toString(), "-o", dir.resolve("out").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
        Map<String, JsonNode> steady = new HashMap<>();
        for (JsonNode v : s.get("variants")) {
            assertEquals("ok", v.get("status").asText(), v.toString());
            steady.put(v.get("name").asText(), v.get("refit").get("cycles").get(1));
        }
        double bf16Gather = stage(steady.get("bf16"), "gather");
        assertTrue(bf16Gather > 0, "an FSDP pair gathers");
        assertEquals(2 * bf16Gather, stage(steady.get("fp32"), "gather"), 1e-9 * bf16Gather, "FP32: twice the bytes");
        assertEquals(0.0, stage(steady.get("bf16"), "convert"), "nothing to cast");
        assertTrue(stage(steady.get("fp32"), "convert") > 0, "the cast to BF16");
        assertEquals(0.0, stage(steady.get("fp32"), "h2d"), "shards on the GPUs: no host copy");
        double copy = stage(steady.get("offloaded"), "h2d");
        assertTrue(copy > 0, "the offloaded shards cross PCIe every cycle");
        assertTrue(steady.get("offloaded").get("seconds").asDouble() >= steady.get("fp32").get("seconds").asDouble()
                + copy, "nothing is sent before the shards are on the GPUs");
    }

    private static double stage(JsonNode cycle, String name) {
        return cycle.get("stageSeconds").get(name).asDouble();
    }

    private void refused(String trainerExtra, String... words) throws IOException {
        var r = CliTestSupport.run("run", scenario(trainerExtra, "").toString(), "-o", dir.resolve("x").toString());
        assertEquals(2, r.code(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertTrue(r.err().matches("(?s).*refit\\.yaml:\\d+:\\d+:.*"), "file:line:column in: " + r.err());
        for (String w : words) {
            assertTrue(r.err().contains(w), "'" + w + "' in: " + r.err());
        }
    }

    @Test
    void anOffloadWithoutFsdpOrAnUnknownDtypeExitsTwoNamingTheField() throws IOException {
        refused(", fsdp: true, dtype: fp16", "dtype", "fp32 or bf16", "fp16");
        refused(", offload: true", "offload", "fsdp: true");
    }
}
