package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refit whose steady cycle the CPU's descriptor posting rate holds rests on the assumed protocol.perDescriptor:
 * explain lists it under "rests on" and gives the steady cycle without it, where the NICs' line rate holds it.
 */
class ExplainPostingRateTest {
    @TempDir
    Path dir;

    @Test
    void theAssumedPerDescriptorCostIsListedWithTheAnswerWithoutIt() throws Exception {
        Path repo = CliTestSupport.repo();
        String yaml = Files.readString(repo.resolve("scenarios/refit-qwen3-4b-gb200.yaml"))
                .replaceFirst("(?m)^seed: 1$", "seed: 1\nprotocol: {perDescriptor: 2 ms}");
        Path f = dir.resolve("refit-posting.yaml");
        Files.writeString(f, yaml);
        Files.createDirectories(dir.resolve("models"));
        try (var models = Files.list(repo.resolve("scenarios/models"))) {
            for (Path m : models.toList()) {
                Files.copy(m, dir.resolve("models").resolve(m.getFileName()));
            }
        }
        CliTestSupport.Outcome o = CliTestSupport.run("explain", f.toString(), "--variant", "pinned");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        int at = lines.indexOf("  protocol.perDescriptor = 2 ms, assumed (as the scenario's protocol sets it; no public "
                + "measurement isolates it)");
        assertTrue(at > 0 && lines.subList(0, at).contains("rests on:"), o.out());
        String without = lines.get(at + 1);
        assertTrue(without.startsWith("    without it (no per-descriptor posting cost): steady cycle 0.6833 s (1.0408 s "
                + "with it), bound by") && without.contains("transmit line rate"), without);
        // as shipped (1 us a descriptor) the wire holds the cycle and the list does not name the posting cost
        CliTestSupport.Outcome shipped = CliTestSupport.run("explain",
                repo.resolve("scenarios/refit-qwen3-4b-gb200.yaml").toString(), "--variant", "pinned");
        assertTrue(!shipped.out().contains("protocol.perDescriptor"), shipped.out());
    }
}
