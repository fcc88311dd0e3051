package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refit prices its registrations but holds them against no cap: a registration cap written for a refit is
 * refused where it is written (exit 2), not run as if it were not there.
 */
class RefitRegistrationCapTest {
    @TempDir
    Path dir;

    @Test
    void aFirmwarePageCapOnARefitIsRefusedAtItsLine() throws IOException {
        Path yaml = Files.writeString(dir.resolve("r.yaml"), """
                name: r
                hosts:
                  trainers: {preset: gb200-tray, count: 1, prefix: train}
                  inference: {preset: gb200-tray, count: 1, prefix: infer}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                registration:
                  firmwarePageCap: 8 KiB
                workload:
                  refit:
                    model: qwen3-4b
                    trainer: {hosts: trainers, dp: 4, fsdp: true}
                    inference: {hosts: inference, tp: 1, dp: 4}
                    method: rdma-pull
                """);
        Files.createDirectories(dir.resolve("models"));
        Files.copy(CliTestSupport.repo().resolve("scenarios/models/qwen3-4b.json"), dir.resolve("models/qwen3-4b.json"));
        var r = CliTestSupport.run("run", yaml.toString(), "-q", "--out", dir.resolve("out").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("r.yaml:10:") && r.err().contains("firmwarePageCap")
                && r.err().contains("a refit does not hold its registrations against registration caps"), r.err());
    }
}
