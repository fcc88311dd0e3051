package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A misspelt stack variable changes the answer as surely as a replaced one (UCX_MAX_RMA_RIALS leaves the rails at
 * NIXL's default): its warning is in the report and summary.json, not only on stderr.
 */
class WarningsBesideTheAnswerTest {
    @TempDir
    Path dir;

    @Test
    void aMisspeltVariablesWarningReachesThePageAndTheJson() throws Exception {
        Path f = Files.writeString(dir.resolve("s.yaml"), """
                name: typo
                hosts:
                  a: {preset: gb200-tray}
                  b: {preset: gb200-tray}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 4 GB}
                variants:
                  - name: misspelt
                    transport: {env: "UCX_MAX_RMA_RIALS=4"}
                  - name: spelt
                    transport: {env: "UCX_MAX_RMA_RAILS=4"}
                """);
        Path out = dir.resolve("out");
        var o = CliTestSupport.run("run", f.toString(), "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.err().contains("did you mean UCX_MAX_RMA_RAILS?"), o.err());
        JsonNode variants = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).path("variants");
        String misspelt = variants.get(0).path("warnings").toString();
        assertTrue(misspelt.contains("UCX_MAX_RMA_RIALS") && misspelt.contains("did you mean UCX_MAX_RMA_RAILS?"),
                misspelt);
        assertEquals(0, variants.get(1).path("warnings").size(), "the correctly spelt variant warns of nothing");
        String page = Files.readString(out.resolve("index.html"));
        // beside the answer, under its own heading: a misspelt variable is a warning, not a value replaced
        int heading = page.indexOf("<b>Warnings.</b>");
        assertTrue(heading >= 0 && page.indexOf("<li>misspelt: UCX_MAX_RMA_RIALS") > heading,
                "the page says it beside the answer");
        assertTrue(page.indexOf("<li>misspelt: UCX_MAX_RMA_RIALS") < page.indexOf("<h2", heading), "in the answer");
    }
}
