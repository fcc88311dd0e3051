package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.refit.model.TinyQwen3;

/**
 * A refit's report speaks of refit cycles, for every method: a broadcast posts no transfer and a pull's ranks
 * receive in every cycle, so neither a receiver's span nor a transfer list is a refit's time. summary.json's
 * makespan is the refit's wall time (every cycle, never 0 when work was done), its rate the wire bytes of its
 * cycles over that time, and its empty receiver list says why; the charts are the cycle times, their stages
 * and their wire rate (no pull-time chart that adds cycles up); `run`'s table has columns a refit fills.
 */
class RefitReportTest {
    @TempDir
    Path dir;

    private static final String SCENARIO = """
            # a tiny refit by a pull, a broadcast and NCCL send/recv, two cycles each
            name: tiny-refit-report
            seed: 3
            hosts:
              trainers: {preset: dgx-h100, count: 1, prefix: t}
              inference: {preset: dgx-h100, count: 2, prefix: i}
            workload:
              refit:
                model: tiny.json
                trainer: {hosts: trainers, tp: 2, dp: 2}
                inference: {hosts: inference, tp: 4, dp: 2}
                method: rdma-pull
                cycles: 2
            variants:
              - name: pull
              - name: broadcast
                workload: {refit: {method: nccl-broadcast, bucket: 128 KiB, senders: one}}
              - name: p2p
                workload: {refit: {method: nccl-p2p}}
            """;

    @Test
    void aRefitReportSpeaksOfCyclesForEveryMethod() throws IOException {
        Files.writeString(dir.resolve("tiny.json"), TinyQwen3.config(4));
        Path f = dir.resolve("refit.yaml");
        Files.writeString(f, SCENARIO);
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", f.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(3, s.get("variants").size());
        for (JsonNode v : s.get("variants")) {
            JsonNode refit = v.get("refit");
            double wall = 0;
            long wire = 0;
            for (JsonNode c : refit.get("cycles")) {
                wall += c.get("seconds").asDouble();
                wire += c.get("wireBytes").asLong();
            }
            assertTrue(wall > 0, v.toString());
            double makespan = v.get("makespanSeconds").asDouble();
            // the refit's wall time: both cycles, not one span of transfers nor 0 for a broadcast
            assertEquals(wall, makespan, 1e-12 * wall, v.get("name").asText());
            assertTrue(makespan > refit.get("steadyCycleSeconds").asDouble(), v.get("name").asText());
            assertEquals(wire * 8.0 / wall / 1e9, v.get("aggregateGbps").asDouble(), 1e-9, v.get("name").asText());
            assertEquals(v.get("aggregateGbps").asDouble() / refit.get("inferenceRanks").asInt(),
                    v.get("meanReceiverGbps").asDouble(), 1e-9);
            // no receiver list pretends to be a refit's, and the empty one says why
            assertEquals(0, v.get("receivers").size(), v.get("name").asText());
            assertTrue(v.get("receiversNote").asText().contains("refit.cycles"), v.toString());
            JsonNode cycles = refit.get("cycles");
            assertEquals(cycles.get(cycles.size() - 1).get("boundWords").asText(), v.get("limitedBy").asText());
        }
        // charts: each cycle's time, its stages and its wire rate; no pull-time or receiver bandwidth chart
        assertFalse(Files.exists(out.resolve("pull-time.png")));
        assertFalse(Files.exists(out.resolve("aggregate-bandwidth.png")));
        for (String chart : new String[] {"refit-cycle", "refit-stages", "refit-wire-rate"}) {
            assertTrue(Files.exists(out.resolve(chart + ".png")), chart);
            assertTrue(Files.exists(out.resolve(chart + ".svg")), chart);
        }
        String stages = Files.readString(out.resolve("refit-stages.svg"));
        assertTrue(stages.contains("wire") && stages.contains("broadcast"), "stage chart names its stages and variants");
        // the table: cycle columns every refit fills, no slowest-receiver column holding a sentence
        assertTrue(r.out().contains("first(s)") && r.out().contains("steady(s)"), r.out());
        assertFalse(r.out().contains("slowest(s)"), r.out());
        for (JsonNode v : s.get("variants")) {
            JsonNode refit = v.get("refit");
            String row = r.out().lines().filter(l -> l.startsWith("  " + v.get("name").asText() + " ")).findFirst()
                    .orElseThrow();
            assertTrue(row.contains(String.format(Locale.ROOT, "%.4f", refit.get("firstCycleSeconds").asDouble())), row);
            assertTrue(row.contains(String.format(Locale.ROOT, "%.4f", refit.get("steadyCycleSeconds").asDouble())), row);
            assertTrue(row.contains(String.format(Locale.ROOT, "%.4f", v.get("makespanSeconds").asDouble())), row);
            assertTrue(row.endsWith(v.get("limitedBy").asText()), row);
        }
        // nor does the interactive page draw a per-receiver time spanning both cycles
        String data = Files.readString(out.resolve("interactive-data.js"));
        assertTrue(data.contains("\"cdf\": []"), data.substring(0, Math.min(400, data.length())));
        String index = Files.readString(out.resolve("index.html"));
        assertTrue(index.contains("A refit lists no receivers"), "the key numbers say what a refit's row holds");
    }
}
