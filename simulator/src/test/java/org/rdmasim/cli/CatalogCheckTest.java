package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog under {@code run --check}: every event verified by the fluid network, every result
 * conserving bytes, and no NaN or infinity in any written file. The two large fan-outs (256 and
 * 1024 receivers) pass too but take 21 s and 66 s verified on one thread, so they are left to
 * {@code ./rdmasim run FILE --check}.
 */
class CatalogCheckTest {
    private static final Set<String> LARGE = Set.of("fanout-256-pin-vs-stripe-vs-tree.yaml", "sizing-1024-receivers.yaml");

    @Test
    void everyFastCatalogScenarioPassesTheChecks(@TempDir Path dir) throws IOException {
        List<Path> scenarios;
        try (Stream<Path> s = Files.list(CliTestSupport.repo().resolve("scenarios"))) {
            scenarios = s.filter(p -> p.toString().endsWith(".yaml") && !LARGE.contains(p.getFileName().toString()))
                    .sorted().toList();
        }
        assertTrue(scenarios.size() >= 7, "the fast catalog: " + scenarios);
        for (Path f : scenarios) {
            Path out = dir.resolve(f.getFileName().toString());
            CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--check", "--out", out.toString());
            assertEquals(0, o.code(), f + ": " + o.err());
            assertFalse(o.err().contains("check:"), o.err());
            assertTrue(o.out().contains("check: every event and result of"), o.out());
            try (Stream<Path> files = Files.list(out)) {
                for (Path written : files.filter(p -> p.toString().matches(".*\\.(json|csv|html)")).toList()) {
                    String text = Files.readString(written);
                    assertFalse(text.contains("NaN") || text.contains("Infinity"), written + " holds NaN or Infinity");
                }
            }
        }
    }
}
