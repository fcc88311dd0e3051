package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A refit's "what would halve it" reruns side by side give the report they give one after the other. */
class RefitRerunThreadsTest {
    @TempDir
    Path dir;

    private static Path scenario() {
        Path scenarios = CliTestSupport.repo().resolve("scenarios");
        return scenarios.resolve("refit-qwen3-4b-gb200.yaml");
    }

    @Test
    void rerunsOnThreeThreadsWriteTheSameSummaryAsOnOne() throws IOException {
        for (String threads : new String[] {"1", "3"}) {
            var r = CliTestSupport.run("run", scenario().toString(), "--quiet", "--threads", threads, "-o",
                    dir.resolve("t" + threads).toString());
            assertEquals(0, r.code(), r.err());
        }
        byte[] one = Files.readAllBytes(dir.resolve("t1/summary.json"));
        byte[] three = Files.readAllBytes(dir.resolve("t3/summary.json"));
        assertArrayEquals(one, three);
        // the reruns did run: every variant lists its changes, fastest first (to the nanosecond: changes that
        // agree to rounding keep the order they are tried in)
        JsonNode s = new ObjectMapper().readTree(one);
        for (JsonNode v : s.get("variants")) {
            JsonNode changes = v.get("refit").get("whatWouldHalveIt");
            assertTrue(changes.size() >= 3, v.get("name") + ": " + changes);
            long last = 0;
            for (JsonNode c : changes) {
                double t = c.get("steadyCycleSeconds").asDouble(Double.MAX_VALUE);
                long ns = t == Double.MAX_VALUE ? Long.MAX_VALUE : Math.round(t * 1e9);
                assertTrue(ns >= last, "fastest first: " + changes);
                last = ns;
            }
        }
    }
}
