package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scripts read rdmasim's answers from standard output: --json prints the report's JSON; -q hides progress only. */
class MachineReadableTest {
    @TempDir
    Path dir;

    @Test
    void runJsonPrintsTheSummaryItWritesAndQuietStillPrintsTheResults() throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml");
        var json = CliTestSupport.run("run", scenario.toString(), "--out", dir.resolve("a").toString(), "--json", "-q");
        assertEquals(0, json.code(), json.err());
        assertEquals(Files.readString(dir.resolve("a/summary.json"), StandardCharsets.UTF_8), json.out(),
                "stdout is exactly the summary.json written");
        JsonNode parsed = new ObjectMapper().readTree(json.out());
        assertEquals("seed003-nic-pin-vs-stripe", parsed.get("scenario").asText());
        var quiet = CliTestSupport.run("run", scenario.toString(), "--out", dir.resolve("b").toString(), "-q");
        assertEquals(0, quiet.code());
        assertTrue(quiet.out().contains("gb200-mx-pin-auto") && quiet.out().contains("0.4156"), quiet.out());
        assertTrue(!quiet.err().contains("ETA"), "no progress line: " + quiet.err());
    }

    @Test
    void validateJsonPrintsTheRowsAsValidationJson() throws Exception {
        var r = CliTestSupport.run("validate", "--scenarios", CliTestSupport.repo().resolve("scenarios").toString(),
                "--out", dir.resolve("v").toString(), "--row", "MTT-LOG-NUM", "--row", "MX-449-4X", "--json");
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(1, doc.get("schemaVersion").asInt(), r.out());
        JsonNode rows = doc.get("rows");
        assertEquals(2, rows.size(), r.out());
        assertEquals(Files.readString(dir.resolve("v/validation.json"), StandardCharsets.UTF_8), r.out());
        for (JsonNode row : rows) {
            if (row.get("id").asText().equals("MX-449-4X")) {
                assertEquals("expectation", row.get("evidence").asText());
                assertEquals(false, row.get("counted").asBoolean());
            }
        }
    }
}
