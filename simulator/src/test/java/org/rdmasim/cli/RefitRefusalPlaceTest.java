package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A refusal of a variant's inference tp is placed at the tp the variant wrote, not at the base's layout. */
class RefitRefusalPlaceTest {
    @TempDir
    Path dir;

    @Test
    void aVariantsTpThatDoesNotDivideTheHeadsIsRefusedAtItsOwnLine() throws IOException {
        Path yaml = Files.writeString(dir.resolve("t.yaml"), """
                name: t
                hosts:
                  trainers: {preset: gb200-tray, count: 1, prefix: train}
                  inference: {preset: gb200-tray, count: 1, prefix: infer}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                workload:
                  refit:
                    model: qwen3-4b
                    trainer: {hosts: trainers, dp: 4, fsdp: true}
                    inference: {hosts: inference, tp: 1, dp: 4}
                    method: rdma-pull
                variants:
                  - name: ok
                  - name: tp3
                    workload:
                      refit:
                        inference: {tp: 3, dp: 1}
                """);
        Files.createDirectories(dir.resolve("models"));
        Files.copy(CliTestSupport.repo().resolve("scenarios/models/qwen3-4b.json"), dir.resolve("models/qwen3-4b.json"));
        var r = CliTestSupport.run("explain", yaml.toString(), "-q");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("t.yaml:20:") && r.err().contains("variants[1].workload.refit.inference.tp: inference tp 3"),
                r.err());
    }
}
