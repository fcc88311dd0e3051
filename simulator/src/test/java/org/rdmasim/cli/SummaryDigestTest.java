package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare reads a summary.json as a stream: what it keeps of each variant equals what the whole tree
 * says (slowest pull, figures, the first transfer's lanes), and a summary with hundreds of thousands of
 * receivers is digested without holding them.
 */
class SummaryDigestTest {
    @TempDir
    Path dir;

    @Test
    void theDigestKeepsWhatCompareShowsOfEveryCatalogSummary() throws Exception {
        Path reports = CliTestSupport.repo().resolve("reports");
        int read = 0;
        try (var s = Files.list(reports)) {
            for (Path d : s.sorted().toList()) {
                Path f = d.resolve("summary.json");
                if (!Files.isRegularFile(f)) {
                    continue;
                }
                JsonNode whole = new ObjectMapper().readTree(f.toFile());
                JsonNode digest = SummaryDigest.read(f);
                assertEquals(whole.get("variants").size(), digest.get("variants").size(), f.toString());
                for (int i = 0; i < whole.get("variants").size(); i++) {
                    JsonNode w = whole.get("variants").get(i);
                    JsonNode g = digest.get("variants").get(i);
                    for (String field : new String[] {"name", "status", "aggregateGbps", "limitedBy"}) {
                        assertEquals(w.path(field), g.path(field), f + " " + field);
                    }
                    assertEquals(w.path("registration"), g.path("registration"), f + " registration");
                    double slowest = 0;
                    for (JsonNode r : w.path("receivers")) {
                        slowest = Math.max(slowest, r.path("pullSeconds").asDouble());
                    }
                    assertEquals(slowest, g.path("receivers").path(0).path("pullSeconds").asDouble(0), f + " slowest");
                    String first = w.path("lanes").path(0).path("transfer").asText();
                    int firstLanes = 0;
                    for (JsonNode l : w.path("lanes")) {
                        firstLanes += l.path("transfer").asText().equals(first) ? 1 : 0;
                    }
                    assertEquals(w.has("lanes") ? firstLanes : 0, g.path("lanes").size(), f + " lanes");
                }
                read++;
            }
        }
        assertTrue(read >= 10, "the catalog's summaries are read: " + read);
    }

    @Test
    void aSummaryOfHalfAMillionReceiversIsComparedWithoutHoldingThem() throws Exception {
        Path f = dir.resolve("summary.json");
        int receivers = 500_000;
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            w.write("{\"schemaVersion\":1,\"variants\":[{\"name\":\"big\",\"status\":\"ok\",\"aggregateGbps\":1.5,"
                    + "\"receivers\":[");
            for (int i = 0; i < receivers; i++) {
                w.write(String.format(Locale.ROOT, "%s{\"id\":\"r%d\",\"pullSeconds\":%d.5}", i == 0 ? "" : ",", i,
                        i == 321_000 ? 9_999 : i % 100));
            }
            w.write("],\"nics\":[" + "{\"nic\":\"x\",\"txBytes\":1},".repeat(100_000) + "{}]}]}");
        }
        assertTrue(Files.size(f) > 20_000_000, "a large file: " + Files.size(f));
        JsonNode digest = SummaryDigest.read(f);
        assertEquals(9_999.5, digest.get("variants").get(0).get("receivers").get(0).get("pullSeconds").asDouble());
        assertEquals(1, digest.get("variants").get(0).get("receivers").size(), "one receiver kept");
        var o = CliTestSupport.run("compare", f.toString(), f.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("slowest pull (s)") && l.contains("10000")),
                "the slowest of half a million receivers, 9,999.5 s, shown to five digits: " + o.out());
    }
}
