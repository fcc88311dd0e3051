package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's paragraph on {@code size --target-refit}: each figure it states is the one the search prints now,
 * read from the searches run as it writes them (output folders moved to a temporary one). A change that moves
 * a figure must move the README too.
 */
class ReadmeRefitSizingTest {
    @TempDir
    Path tmp;

    private static String paragraph() throws Exception {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"), StandardCharsets.UTF_8);
        int at = readme.indexOf("`size --target-refit DURATION --vary KNOB` answers the other question");
        assertTrue(at >= 0, "README has the refit sizing paragraph");
        return readme.substring(at, readme.indexOf("\n\n", at)).replaceAll("\\s+", " ");
    }

    /** Steady (or first) cycle seconds by knob value as sizing.json shows it ({@code shown}). */
    private Map<String, JsonNode> search(String scenario, String target, String knob) throws Exception {
        Path out = tmp.resolve(knob + "-" + target);
        var r = CliTestSupport.run("size", CliTestSupport.repo().resolve(scenario).toString(), "--target-refit",
                target, "--vary", knob, "--out", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        Map<String, JsonNode> byValue = new HashMap<>();
        JsonNode sizing = new ObjectMapper().readTree(out.resolve("sizing.json").toFile());
        for (JsonNode p : sizing.get("sweep")) {
            byValue.put(p.get("shown").asText(), p);
        }
        byValue.put("", sizing);
        return byValue;
    }

    private static String s(JsonNode point, String field) {
        return String.format(Locale.ROOT, "%.2f", point.get(field).asDouble());
    }

    @Test
    void theRefitSizingParagraphStatesTheFiguresTheSearchesPrint() throws Exception {
        String text = paragraph();
        Map<String, JsonNode> tp = search("scenarios/refit-qwen3-4b-gb200.yaml", "0.5s", "inference-tp");
        assertTrue(text.contains("runs TP 1 (" + s(tp.get("1"), "steadyCycleSeconds") + " s a steady cycle, misses)"
                + " and TP 2 (" + s(tp.get("2"), "steadyCycleSeconds") + " s, meets"), text);
        Map<String, JsonNode> nics = search("scenarios/refit-qwen3-4b-gb200.yaml", "0.5s", "nics");
        assertEquals(s(nics.get("1"), "steadyCycleSeconds"), s(nics.get("4"), "steadyCycleSeconds"));
        assertTrue(text.contains("at 1 and 4 (" + s(nics.get("1"), "steadyCycleSeconds") + " s a steady cycle)"), text);
        assertTrue(text.contains("two NICs to send on (" + s(nics.get("2"), "steadyCycleSeconds") + " s)"), text);
        assertTrue(text.contains("the first cycle grows from " + s(nics.get("1"), "firstCycleSeconds") + " s at 1 NIC"
                + " to " + s(nics.get("4"), "firstCycleSeconds") + " s at 4"), text);
        Map<String, JsonNode> bucket = search("scenarios/refit-bucket-sweep.yaml", "0.5s", "bucket");
        assertTrue(text.contains("bound the refit (" + s(bucket.get("16 MiB"), "steadyCycleSeconds") + " s)"), text);
        assertTrue(text.contains("fills the pipeline late (" + s(bucket.get("8 GiB"), "steadyCycleSeconds") + " s)"),
                text);
        assertTrue(text.contains("the fastest, 1 GiB (" + s(bucket.get("1 GiB"), "steadyCycleSeconds") + " s)"), text);
        Map<String, JsonNode> met = search("scenarios/refit-bucket-sweep.yaml", "1.8s", "bucket");
        assertEquals(128L << 20, met.get("").get("smallestMeeting").asLong());
        assertTrue(text.contains("the smallest bucket that meets is 128 MiB ("
                + s(met.get("128 MiB"), "steadyCycleSeconds") + " s)"), text);
    }
}
