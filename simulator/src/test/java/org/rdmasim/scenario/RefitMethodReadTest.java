package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.refit.model.TinyQwen3;
import org.rdmasim.workload.RefitMethodKind;
import org.rdmasim.workload.RefitRegistrationMode;
import org.rdmasim.workload.RefitSpec;

/**
 * {@code method:} and {@code registration:} as a scenario writes them: every method and mode reads back as
 * itself, in any case, and a word that names none is refused at its line with the list of every one.
 */
class RefitMethodReadTest {
    @TempDir
    Path dir;

    /** A tiny refit on one trainer host and two inference hosts, with {@code refit} added to its refit section. */
    private Path scenario(String refit) throws IOException {
        Files.writeString(dir.resolve("tiny.json"), TinyQwen3.config(4));
        Path f = dir.resolve("refit.yaml");
        Files.writeString(f, """
                name: tiny-refit
                hosts:
                  trainers: {preset: dgx-h100, count: 1, prefix: t}
                  inference: {preset: dgx-h100, count: 2, prefix: i}
                workload:
                  refit:
                    model: tiny.json
                    trainer: {hosts: trainers, tp: 2, dp: 2}
                """ + refit.indent(4));
        return f;
    }

    /** What {@code kind} needs beside its name to be read: buckets, and for colocated-ipc the trainer's hosts. */
    private static String knobs(RefitMethodKind kind) {
        String inference = kind == RefitMethodKind.COLOCATED_IPC ? "inference: {hosts: trainers, tp: 2, dp: 2}"
                : "inference: {hosts: inference, tp: 4, dp: 2}";
        return inference + "\n" + (kind.bucketed() ? "bucket: 1 MiB\n" : "");
    }

    private static RefitSpec read(Path f) {
        return ScenarioLoader.load(f).variants().get(0).refitSpec();
    }

    @Test
    void everyMethodReadsBackAsItself() throws IOException {
        for (RefitMethodKind kind : RefitMethodKind.values()) {
            assertEquals(kind, read(scenario("method: " + kind.spelling() + "\n" + knobs(kind))).method());
            // the reader lower-cases what it reads
            assertEquals(kind, read(scenario("method: " + kind.spelling().toUpperCase(java.util.Locale.ROOT) + "\n"
                    + knobs(kind))).method());
        }
    }

    @Test
    void everyRegistrationModeReadsBackAsItself() throws IOException {
        String pull = "method: rdma-pull\n" + knobs(RefitMethodKind.RDMA_PULL);
        assertEquals(RefitRegistrationMode.PER_TENSOR, read(scenario(pull)).registration(), "the default");
        for (RefitRegistrationMode mode : RefitRegistrationMode.values()) {
            String segments = mode == RefitRegistrationMode.POOLED ? "poolSegments: 4\n" : "";
            RefitSpec spec = read(scenario(pull + "registration: " + mode.spelling() + "\n" + segments));
            assertEquals(mode, spec.registration());
            assertEquals(mode == RefitRegistrationMode.POOLED ? 4 : 0, spec.poolSegments());
        }
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> read(scenario(pull + "registration: pooled\n")));
        assertTrue(e.getMessage().contains("expected per-tensor, pool or arena, got 'pooled'"), e.getMessage());
    }

    @Test
    void anUnknownMethodIsRefusedListingEveryMethod() throws IOException {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> read(scenario("method: Carrier-Pigeon\n" + knobs(RefitMethodKind.RDMA_PULL))));
        // the wording and order the message had when the methods were a list of strings
        assertTrue(e.getMessage().contains("expected one of rdma-pull, write-schedule, nccl-broadcast, "
                + "checkpoint-engine, nixl-ring, mooncake-ring, colocated-ipc, nccl-p2p, sharded-rdt, got "
                + "'Carrier-Pigeon'"), e.getMessage());
        for (RefitMethodKind kind : RefitMethodKind.values()) {
            assertTrue(e.getMessage().contains(kind.spelling()), kind.spelling() + " in: " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("refit.yaml:9:"), "the method's line: " + e.getMessage());
    }
}
