package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * Every catalog scenario's variants give the same transfer times on the default path (flow groups,
 * resources followed lazily, resources built on first use) as on the reference path (flows solved one
 * by one, every resource built up front), within 1e-9 relative.
 */
class CatalogFastPathTest {
    @Test
    void everyCatalogVariantAgreesWithTheReferencePath() throws IOException {
        Path repo = Path.of(System.getProperty("rdmasim.repo", ".."));
        List<Path> scenarios;
        try (Stream<Path> s = Files.list(repo.resolve("scenarios"))) {
            scenarios = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(scenarios.size() >= 10, "the catalog: " + scenarios);
        int compared = 0;
        for (Path f : scenarios) {
            Scenario sc = ScenarioLoader.load(f);
            for (VariantSpec v : sc.variants()) {
                VariantOutcome fast = VariantRunner.run(v, sc.seed());
                VariantOutcome ref = RunChecks.withoutFastPaths(() -> VariantRunner.run(v, sc.seed()));
                assertEquals(fast.status(), ref.status(), f + " " + v.name());
                if (fast.result() == null) {
                    continue;
                }
                List<TransferResult> a = fast.result().transfers();
                List<TransferResult> b = ref.result().transfers();
                assertEquals(b.size(), a.size(), f + " " + v.name());
                for (int i = 0; i < a.size(); i++) {
                    double want = b.get(i).finishSeconds();
                    assertEquals(want, a.get(i).finishSeconds(), 1e-9 * Math.max(1, Math.abs(want)),
                            f + " " + v.name() + " " + a.get(i).spec().id());
                    compared++;
                }
            }
        }
        assertTrue(compared > 1000, "transfers compared: " + compared);
    }
}
