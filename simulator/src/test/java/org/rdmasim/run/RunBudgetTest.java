package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;

/**
 * A scenario's least cost is known before anything is built, and one that cannot finish (a 10^6-receiver
 * fan-out in a 1 GiB heap, 100,000 replications of 10,000 cycles) is refused with the estimate, the limit
 * and what to change; every scenario the project ships fits in the 1 GiB heap CI gives it.
 */
class RunBudgetTest {
    @TempDir
    Path dir;

    private Scenario fanout(long receivers, long replications, long cycles) throws IOException {
        Path f = dir.resolve("f.yaml");
        Files.writeString(f, """
                name: f
                replications: %d
                hosts:
                  src: {preset: gb200-tray}
                  rx: {preset: gb200-tray, count: %d, prefix: r}
                workload:
                  fanout:
                    sources: src
                    receivers: {hosts: rx, gpus: [GPU0, GPU1]}
                    model: 16 GB
                    cycles: {count: %d}
                """.formatted(replications, receivers, cycles));
        return ScenarioLoader.load(f);
    }

    @Test
    void theLeastCostCountsEveryReceiverGpuCycleAndReplication() throws IOException {
        RunBudget b = RunBudget.of(fanout(1000, 3, 5));
        assertEquals(1000L * 2 * 5, b.pulls() * 5, "pulls in flight are one cycle's");
        assertEquals(1000L * 2 * 5 * 3 * RunBudget.EVENTS_PER_PULL, b.events());
        assertEquals(RunBudget.BASE_BYTES + 1000L * 2 * RunBudget.BYTES_PER_PULL, b.liveBytes());
    }

    @Test
    void aMillionReceiversInOneGibibyteAreRefusedSayingWhatToChange() throws IOException {
        RunBudget b = RunBudget.of(fanout(999_000, 1, 1));
        var e = assertThrows(RunBudget.TooLarge.class, () -> b.check(1L << 30));
        assertTrue(e.getMessage().contains("needs at least") && e.getMessage().contains("-Xmx"), e.getMessage());
        assertDoesNotThrow(() -> b.check(64L << 30), "the same run fits a 64 GiB heap");
    }

    @Test
    void runsOverTheEventLimitAreRefusedWhateverTheHeap() throws IOException {
        RunBudget b = RunBudget.of(fanout(4, 100_000, 10_000));
        assertTrue(b.events() > RunBudget.MAX_EVENTS);
        var e = assertThrows(RunBudget.TooLarge.class, () -> b.check(Long.MAX_VALUE));
        assertTrue(e.getMessage().contains("lower replications, cycles or receivers"), e.getMessage());
    }

    @Test
    void everyShippedScenarioFitsTheHeapCiGivesIt() throws IOException {
        Path scenarios = Path.of(System.getProperty("rdmasim.home", "..")).resolve("scenarios");
        if (!Files.isDirectory(scenarios)) {
            scenarios = Path.of("scenarios");
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(scenarios)) {
            files = s.filter(p -> p.toString().endsWith(".yaml") && !p.toString().contains("/hosts/")
                    && !p.toString().contains("/studies/")).sorted().toList();
        }
        assertTrue(files.size() > 20, "the catalog, validation and scale scenarios are read: " + files.size());
        for (Path f : files) {
            RunBudget b = RunBudget.of(ScenarioLoader.load(f, true));
            assertDoesNotThrow(() -> b.check(1L << 30), f.toString());
        }
    }
}
