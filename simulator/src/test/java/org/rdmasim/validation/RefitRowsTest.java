package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A validation row can pose a published refit on a scenario under scenarios/validation: the scenario names a
 * shipped model by its bare name (found in the models/ folder above it), and {@link ScenarioRuns} gives the
 * refit's steady cycle and its stages.
 */
class RefitRowsTest {
    @TempDir
    Path dir;

    @Test
    void aRefitScenarioUnderValidationRunsAndGivesItsTimes() throws IOException {
        Files.createDirectories(dir.resolve("models"));
        Files.createDirectories(dir.resolve("validation"));
        Files.writeString(dir.resolve("models/tiny.json"), """
                {"architectures": ["Qwen3ForCausalLM"], "hidden_size": 256, "num_hidden_layers": 2,
                 "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 32, "intermediate_size": 512,
                 "vocab_size": 1000, "torch_dtype": "bfloat16"}
                """);
        Files.writeString(dir.resolve("validation/refit.yaml"), """
                # a refit row's scenario
                name: refit-row
                hosts:
                  t: {preset: dgx-h100}
                  i: {preset: dgx-h100}
                workload:
                  refit:
                    model: tiny
                    trainer: {hosts: t, tp: 2}
                    inference: {hosts: i, tp: 4}
                    method: rdma-pull
                    stages: {pause: 0.5 s, resume: 0.25 s}
                    cycles: 2
                variants:
                  - name: pull
                """);
        ScenarioRuns runs = new ScenarioRuns(dir);
        double steady = runs.refitSeconds("validation/refit.yaml", "pull");
        assertEquals(0.5, runs.refitStageSeconds("validation/refit.yaml", "pull", "pause"), 1e-12);
        assertEquals(0.25, runs.refitStageSeconds("validation/refit.yaml", "pull", "resume"), 1e-12);
        // pause and resume are stages of the cycle, in sequence with the wire
        assertTrue(steady > 0.75 + runs.refitStageSeconds("validation/refit.yaml", "pull", "wire") - 1e-9, "" + steady);
        assertTrue(runs.refit("validation/refit.yaml", "pull").restsOn().stream()
                .anyMatch(r -> r.startsWith("refit.pauseSeconds = 0.5 s, assumed (stated by the scenario")));
    }
}
