package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole catalog under {@code run --check}: every event verified by the fluid network, every result
 * conserving bytes, and no NaN or infinity in any written file. The two large fan-outs (256 and 1024
 * receivers) take most of its time (about 40 s each verified); {@code scenarios/scale/} is left out (it
 * is the benchmark, not the catalog).
 */
class CatalogCheckTest {
    @Test
    void everyCatalogScenarioPassesTheChecks(@TempDir Path dir) throws IOException {
        List<Path> scenarios;
        try (Stream<Path> s = Files.list(CliTestSupport.repo().resolve("scenarios"))) {
            scenarios = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(scenarios.size() >= 14, "the catalog: " + scenarios);
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
