package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.Units;
import org.rdmasim.report.SummaryJson;

/** The size command on a case computed by hand, and fan-out input errors. */
class SizeCommandTest {
    @TempDir
    Path dir;

    // 8 pinned receivers, all at once, sources pinned too: with k sources the busiest serves ceil(8/k)
    // receivers through one NIC, so p99 = ceil(8/k) * B / C (while that share stays below one QP's READ rate).
    private static final String SCENARIO = """
            name: size-by-hand
            hosts:
              receivers: {preset: dgx-h100, count: 8, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            transport:
              env: |
                export MX_RDMA_NIC_PIN=auto
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
                assignment: least-loaded
            """;

    @Test
    void findsTheSmallestSourceCountComputedByHand() throws IOException {
        HostSpec.NicSpec nic = new Host("x", Presets.get("dgx-h100")).nic("mlx5_0").nic();
        double c = Units.gbpsToBytesPerSecond(nic.lineRateGbps()) * nic.linkLayer().wireEfficiency();
        double oneShare = 1e9 / c;
        // 4 sources: 2 receivers each (2 B/C); 3 sources leave one with 3 (3 B/C). Target between.
        double target = 2.5 * oneShare;
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", String.format(Locale.ROOT, "%.6f", target),
                "--vary", "sources", "--max", "5", "--threads", "2", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("smallest sources that meets the target: 4"), o.out());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertEquals(4, json.get("smallestMeeting").asInt());
        JsonNode sweep = json.get("sweep");
        assertEquals(5, sweep.size());
        for (int k = 1; k <= 4; k++) {
            double expected = Math.ceil(8.0 / k) * oneShare;
            assertEquals(expected, sweep.get(k - 1).get("p99PullSeconds").asDouble(), expected * 1e-4, "sources=" + k);
        }
        assertTrue(Files.exists(out.resolve("sizing-sources.png")));
        assertTrue(Files.exists(out.resolve("receivers-vs-time-sources.svg")));
    }

    @Test
    void badFanoutInputExitsTwoWithItsLocation() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO.replace("receivers: receivers", "receivers: {hosts: receivers, gpus: [GPU9]}"));
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:10:"), o.err());
        assertTrue(o.err().contains("no GPU named 'GPU9'"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());

        Files.writeString(f, SCENARIO.replace("assignment: least-loaded", "arrival: {kind: poisson}"));
        o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:13:"), o.err());
        assertTrue(o.err().contains("meanGap"), o.err());

        Files.writeString(f, SCENARIO.replace("count: 8", "count: 0"));
        o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:3:"), o.err());

        Files.writeString(f, SCENARIO);
        o = CliTestSupport.run("size", f.toString(), "--target-p99", "1", "--vary", "bogus");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("tree-degree"), o.err());
    }
}
