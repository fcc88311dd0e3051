package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.report.SummaryJson;

/**
 * The fault model: overlapping nic-down windows on one port hold it down until the later end; a variant
 * in which nothing arrived is a failure with its cost, never a fast run; a timer UCX turns off is
 * refused at load, naming the variable.
 */
class FaultModelTest {
    @TempDir
    Path dir;

    /** faults-nic-down's setting: one 16 GB pull striped over two GB200 NICs, NIXL 1.1.0, UCX 1.20.0. */
    static final String PULL = """
            name: faults
            hosts:
              source: {preset: gb200-tray}
              receiver: {preset: gb200-tray}
            transport:
              nixl: "1.1.0"
              ucx: "1.20.0"
              env: |
                export UCX_NET_DEVICES=all
                export UCX_MAX_RMA_RAILS=2
            workload:
              transfers:
                - {from: "source:GPU0", to: "receiver:GPU0", size: 16 GB}
            """;

    private Map<String, JsonNode> run(String scenario, int expectedCode) throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), scenario);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "-q", "--force", "--out", out.toString());
        assertEquals(expectedCode, o.code(), o.out() + o.err());
        Map<String, JsonNode> byName = new HashMap<>();
        for (JsonNode v : SummaryJson.mapper().readTree(out.resolve("summary.json").toFile()).get("variants")) {
            byName.put(v.get("name").asText(), v);
        }
        return byName;
    }

    @Test
    void twoOverlappingNicDownWindowsOnOnePortMergeToTheLaterEnd() throws IOException {
        Map<String, JsonNode> v = run(PULL + """
                variants:
                  - name: first-only
                    faults: {events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 400 ms}]}
                  - name: merged
                    faults: {events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 1300 ms}]}
                  - name: overlapping
                    faults:
                      events:
                        - {kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 400 ms}
                        - {kind: nic-down, host: receiver, nic: mlx5_1, at: 300 ms, until: 1300 ms}
                  - name: overlapping-listed-late-first
                    faults:
                      events:
                        - {kind: nic-down, host: receiver, nic: mlx5_1, at: 300 ms, until: 1300 ms}
                        - {kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms, until: 400 ms}
                """, 0);
        double first = v.get("first-only").get("makespanSeconds").asDouble();
        double merged = v.get("merged").get("makespanSeconds").asDouble();
        // The lane resumes at the QP's first retransmission after the port is back: 1.074 s ticks from the
        // stall at 0.1 s, so 1.17 s for the first window alone and 2.25 s for the merged one, plus the rest.
        assertTrue(merged > first + 1.0, first + " vs " + merged);
        assertEquals(merged, v.get("overlapping").get("makespanSeconds").asDouble(), 1e-12);
        assertEquals(merged, v.get("overlapping-listed-late-first").get("makespanSeconds").asDouble(), 1e-12);
        String timeline = v.get("overlapping").toString();
        assertTrue(timeline.contains("stays down (another fault still holds it)"), timeline);
    }

    @Test
    void overlappingDegradedWindowsHoldTheSlowestRateUntilTheLastEnds() throws IOException {
        // Two windows at half rate, 100-400 ms and 300-700 ms, are one window at half rate from 100 to
        // 700 ms; a quarter-rate window inside a half-rate one holds the quarter rate while both are on.
        Map<String, JsonNode> v = run(PULL + """
                variants:
                  - name: one-window
                    faults: {events: [{kind: degraded, host: receiver, nic: mlx5_1, fraction: 0.5, at: 100 ms, until: 700 ms}]}
                  - name: two-overlapping
                    faults:
                      events:
                        - {kind: degraded, host: receiver, nic: mlx5_1, fraction: 0.5, at: 100 ms, until: 400 ms}
                        - {kind: degraded, host: receiver, nic: mlx5_1, fraction: 0.5, at: 300 ms, until: 700 ms}
                  - name: nested-slower
                    faults:
                      events:
                        - {kind: degraded, host: receiver, nic: mlx5_1, fraction: 0.5, at: 100 ms, until: 700 ms}
                        - {kind: degraded, host: receiver, nic: mlx5_1, fraction: 0.25, at: 200 ms, until: 300 ms}
                  - name: unfaulted
                """, 0);
        double one = v.get("one-window").get("makespanSeconds").asDouble();
        assertEquals(one, v.get("two-overlapping").get("makespanSeconds").asDouble(), 1e-12);
        double nested = v.get("nested-slower").get("makespanSeconds").asDouble();
        double free = v.get("unfaulted").get("makespanSeconds").asDouble();
        assertTrue(free < one && one < nested, free + " < " + one + " < " + nested);
    }

    @Test
    void aVariantInWhichEveryTransferGaveUpIsAFailureWithItsCost() throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), PULL + """
                variants:
                  - name: healthy
                  - name: port-down-for-good
                    faults:
                      repost: true
                      events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms}]
                """);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "-q", "--out", out.toString());
        assertEquals(1, o.code(), "a failed variant fails the run: " + o.out() + o.err());
        assertTrue(o.out().contains("port-down-for-good                 FAILED  every transfer gave up (1 of 1; "
                + "3 attempt(s) failed), the last at 25.87 s of simulated time"), o.out());
        assertTrue(o.out().contains("faults: makespan"), "the cost is printed: " + o.out());
        JsonNode v = SummaryJson.mapper().readTree(out.resolve("summary.json").toFile()).get("variants").get(1);
        assertEquals("failed", v.get("status").asText());
        assertTrue(v.get("makespanSeconds").asDouble() > 8, "not a fast run: " + v.get("makespanSeconds"));
        assertEquals(1, v.get("faults").get("cost").get("gaveUp").asInt());
        assertTrue(v.get("faults").get("cost").get("makespanWithSeconds").asDouble() > 8);
        String index = Files.readString(out.resolve("index.html"));
        assertTrue(index.contains("port-down-for-good failed"), "the page says it failed");
        assertFalse(index.contains("Fastest</b>: port-down-for-good") || index.contains("Slowest</b>: port-down-for-good"),
                "a failed variant is not ranked");

        // the scenario may say it is expected to fail, as for any other failure
        Files.writeString(s, Files.readString(s).replace("  - name: port-down-for-good\n",
                "  - name: port-down-for-good\n    expect: failed\n"));
        assertEquals(0, CliTestSupport.run("run", s.toString(), "-q", "--out", out.toString()).code());
    }

    @Test
    void aFanOutInWhichEveryReceiverGaveUpIsAFailureNotAZeroMakespan() throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), """
                name: lost
                hosts:
                  receivers: {preset: gb200-tray, count: 2, prefix: r}
                  sources: {preset: gb200-tray, count: 1, prefix: s}
                transport:
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                  modelexpress: kavink/multi-nic-stripe-mode
                  env: |
                    export UCX_RC_TIMEOUT=100ms
                    export UCX_RC_RETRY_COUNT=1
                workload:
                  fanout:
                    receivers: {hosts: receivers, gpus: [GPU0]}
                    sources: {hosts: sources, gpus: [GPU0]}
                    model: 16 GB
                faults:
                  events: [{kind: source-loss, host: s0, at: 100 ms}]
                """);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "-q", "--out", out.toString());
        assertEquals(1, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("FAILED  every receiver gave up (2 of 2"), o.out());
        assertTrue(o.out().contains("the last at 0.46"), "when they gave up: " + o.out());
        JsonNode v = SummaryJson.mapper().readTree(out.resolve("summary.json").toFile()).get("variants").get(0);
        assertEquals("failed", v.get("status").asText());
        assertEquals(2, v.get("faults").get("cost").get("gaveUp").asInt());
    }

    @Test
    void anRcTimeoutThatTurnsTheTimerOffIsRefusedAtLoadNamingTheVariable() throws IOException {
        Path s = Files.writeString(dir.resolve("s.yaml"), PULL.replace("UCX_MAX_RMA_RAILS=2\n",
                "UCX_MAX_RMA_RAILS=2\n    export UCX_RC_TIMEOUT=100000s\n") + """
                faults: {events: [{kind: nic-down, host: receiver, nic: mlx5_1, at: 100 ms}]}
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("run", s.toString(), "-q", "--out", dir.resolve("out").toString());
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("s.yaml:") && o.err().contains("UCX_RC_TIMEOUT=100000s")
                && o.err().contains("below 12440 s"), o.err());
        assertFalse(o.err().contains("Infinite or NaN") || o.err().contains("internal error"), o.err());
        // a long but finite timer is modelled: 1000 s is exponent 28, a 1099.5 s timer, 8 tries before the error
        Files.writeString(s, Files.readString(s).replace("100000s", "1000s"));
        CliTestSupport.Outcome finite = CliTestSupport.run("run", s.toString(), "-q", "--out", dir.resolve("out").toString());
        assertEquals(1, finite.code(), finite.err());
        assertTrue(finite.out().contains("every transfer gave up (1 of 1; 1 attempt(s) failed), the last at 879"),
                finite.out());
    }
}
