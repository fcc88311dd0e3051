package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.transport.backend.MooncakeBackend;
import org.rdmasim.memory.ByteUnits;

/**
 * The bytes the Mooncake vLLM rows move follow from the model, not from the table's labels read as decimal:
 * Qwen3-8B keeps 36 layers x (K, V) x 8 KV heads x 128 x 2 bytes = 147456 bytes of KV a token
 * (Qwen/Qwen3-8B config.json), so its 32768-token prompt is 4.50 GiB, and each of the 8 TP ranks (one KV head
 * each) moves an eighth of it.
 */
class MooncakeKvSizesTest {
    private static final long QWEN3_8B_KV_BYTES_PER_TOKEN = 36L * 2 * 8 * 128 * 2;
    private static final String VLLM = "validation/mooncake-vllm-h800-kv.yaml";
    private static final String BY_SIZE = "validation/mooncake-kv-by-size.yaml";

    private static Path repo() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("simulator/SOURCES.md")) && Files.isDirectory(p.resolve("scenarios"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root");
    }

    private static List<Long> rankBytes(ScenarioRuns runs, String file, String variant) throws Exception {
        return runs.outcome(file, variant).result().transfers().stream().map(t -> t.spec().bytes()).toList();
    }

    @Test
    void theLargestPromptIsTheModelsKvForItsTokensSplitOverEightRanks() throws Exception {
        ScenarioRuns runs = new ScenarioRuns(repo().resolve("scenarios"));
        long prompt = 32768L * QWEN3_8B_KV_BYTES_PER_TOKEN;
        assertEquals(4.50 * ByteUnits.GIB, prompt, 0.0, "4.50 GB in the table is GiB");
        for (String[] fileVariant : new String[][] {{VLLM, "prompt-32768"}, {BY_SIZE, "vllm-4.50GB"}}) {
            List<Long> ranks = rankBytes(runs, fileVariant[0], fileVariant[1]);
            assertEquals(8, ranks.size());
            for (long b : ranks) {
                assertEquals(prompt / 8, b, fileVariant[1] + ": one KV head of 8 a rank");
            }
        }
        List<Long> half = rankBytes(runs, BY_SIZE, "vllm-2.25GB");
        half.forEach(b -> assertEquals(16384L * QWEN3_8B_KV_BYTES_PER_TOKEN / 8, b));
    }

    @Test
    void theMarginRowTakesTheTableInGibAndItsModelRunsTheSameBytes() throws Exception {
        ValidationRow margin = ValidationCatalog.rows().stream().filter(r -> r.id().equals("MC-VLLM-KV-MARGIN"))
                .findFirst().orElseThrow();
        // 2.25 GiB added over 15.22 ms (16.43 -> 31.65 ms), in decimal GB/s
        double published = 2.25 * ByteUnits.GIB / 15.22e-3 / 1e9;
        assertEquals(published, margin.low(), 0.05);
        ScenarioRuns runs = new ScenarioRuns(repo().resolve("scenarios"));
        double modelled = margin.model().compute(runs).value();
        // the row calibrates the context thread (transport.sliceThread): the margin is 8 ranks' threads, each
        // under its 200G port's 24.4 GB/s, and a fixed per-call cost would cancel in it
        assertTrue(margin.calibration(), "the row calibrates transport.sliceThread");
        assertEquals(published, modelled, published * 0.001, "8 ranks at one 64 KiB slice every 3.304 us");
        assertEquals(8 * 65536 / MooncakeBackend.DEFAULT_SLICE_THREAD_SECONDS / 1e9, modelled, 0.01);
        assertTrue(modelled < 8 * 24.4, "below the 8 ports' payload rate");
    }
}
