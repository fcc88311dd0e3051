package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refit fields refused at load, each at the line the user wrote: a registration cap a refit would ignore (it prices
 * its registrations but holds them against no cap), and a variant's inference tp the model's heads refuse.
 */
class RefitLoadRefusalsTest {
    @TempDir
    Path dir;

    /** Qwen3-4B from one GB200 tray to another by RDMA pull, with a registration section and variants as given, and its model file. */
    private Path scenario(String name, String registration, String variants) throws IOException {
        Files.createDirectories(dir.resolve("models"));
        Files.copy(CliTestSupport.repo().resolve("scenarios/models/qwen3-4b.json"), dir.resolve("models/qwen3-4b.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return Files.writeString(dir.resolve(name), """
                name: r
                hosts:
                  trainers: {preset: gb200-tray, count: 1, prefix: train}
                  inference: {preset: gb200-tray, count: 1, prefix: infer}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                """ + registration + """
                workload:
                  refit:
                    model: qwen3-4b
                    trainer: {hosts: trainers, dp: 4, fsdp: true}
                    inference: {hosts: inference, tp: 1, dp: 4}
                    method: rdma-pull
                """ + variants);
    }

    @Test
    void aFirmwarePageCapOnARefitIsRefusedAtItsLine() throws IOException {
        Path yaml = scenario("r.yaml", "registration:\n  firmwarePageCap: 8 KiB\n", "");
        var r = CliTestSupport.run("run", yaml.toString(), "-q", "--out", dir.resolve("out").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("r.yaml:10:") && r.err().contains("firmwarePageCap")
                && r.err().contains("a refit does not hold its registrations against registration caps"), r.err());
    }

    @Test
    void aVariantsTpThatDoesNotDivideTheHeadsIsRefusedAtItsOwnLine() throws IOException {
        Path yaml = scenario("t.yaml", "", """
                variants:
                  - name: ok
                  - name: tp3
                    workload:
                      refit:
                        inference: {tp: 3, dp: 1}
                """);
        var r = CliTestSupport.run("explain", yaml.toString(), "-q");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("t.yaml:20:") && r.err().contains("variants[1].workload.refit.inference.tp: inference tp 3"),
                r.err());
    }
}
