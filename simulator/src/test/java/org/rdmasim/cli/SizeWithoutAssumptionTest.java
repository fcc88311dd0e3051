package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.report.SummaryJson;

/**
 * size's answer on GB200 trays rests on gb200-roce's assumed nicReadAtResponder (the calibrated 308 Gbps READ rate
 * holds the NIC that issues the READ): with two receivers per source NIC, the source NIC serves both at its wire
 * rate under that placement and at 308 Gbps in all without it. size reruns its answer without the assumption and
 * says whether it still meets the target.
 */
class SizeWithoutAssumptionTest {
    @TempDir
    Path dir;

    private static final String SCENARIO = """
            name: size-gb200
            hosts:
              receivers: {preset: gb200-tray, count: 8, prefix: r}
              sources: {preset: gb200-tray, count: 1, prefix: s}
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
    void theAnswerIsRerunWithoutTheAssumedReadPlacement() throws Exception {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Path out = dir.resolve("o");
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "45ms", "--vary", "sources",
                "--out", out.toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("smallest sources that meets the target: 4"), o.out());
        String line = o.out().lines().filter(l -> l.startsWith("without nicReadAtResponder")).findFirst().orElse("");
        assertTrue(line.contains("profile gb200-roce") && line.contains("sources = 4 gives p99 0.05")
                && line.contains("misses the target: the answer rests on this assumption"), o.out());
        // two receivers' 1 GB through one source NIC at 308 Gbps (the responder placement), less than its wire rate
        double p99 = Double.parseDouble(line.replaceAll(".*gives p99 ([0-9.]+) s.*", "$1"));
        assertEquals(2 * 8e9 / 308e9, p99, 2 * 8e9 / 308e9 * 0.02, line);
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertEquals(line, json.get("answerWithoutAssumptions").get(0).asText());
    }
}
