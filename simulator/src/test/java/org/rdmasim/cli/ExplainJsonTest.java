package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code explain --json} prints one object that follows schema/explain.schema.json and says what the text says:
 * the same lanes, the same UCX_PROTO_INFO row, the storage ports left out.
 */
class ExplainJsonTest {
    private static final Pattern PROTO_ROW = Pattern.compile("^\\|\\s+(\\S+) \\| (.+?)\\s+\\| (.+?)\\s+\\|$");

    private static Schema schema() throws Exception {
        try (InputStream in = ExplainJson.class.getResourceAsStream("/schema/explain.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    /** The NICs each lane of the text's lane table marks picked, in lane order. */
    private static List<String> pickedInText(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.lines().toList()) {
            Matcher m = Pattern.compile("^\\s{4}(mlx5_\\d+)\\s+path(\\d)\\s+\\S+\\s+.*\\bpicked$").matcher(l);
            if (m.find()) {
                out.add(m.group(1) + "/path" + m.group(2));
            }
        }
        return out;
    }

    @Test
    void jsonFollowsTheSchemaAndItsLanesAreTheText() throws Exception {
        String scenario = CliTestSupport.repo().resolve("scenarios/max-rma-rails-2-vs-4.yaml").toString();
        var text = CliTestSupport.run("explain", scenario, "--variant", "dgx-rails-4");
        var json = CliTestSupport.run("explain", scenario, "--variant", "dgx-rails-4", "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals(List.of(), schema().validate(j));
        assertEquals("explain", j.get("command").asText());
        JsonNode t = j.get("variants").get(0).get("transfers").get(0);

        List<String> jsonLanes = new ArrayList<>();
        for (JsonNode l : t.get("lanes")) {
            jsonLanes.add(l.get("sinkNic").asText() + "/path" + l.get("path").asInt());
        }
        assertEquals(pickedInText(text.out()), jsonLanes, text.out());
        assertEquals(List.of("mlx5_0/path0", "mlx5_3/path0", "mlx5_4/path0", "mlx5_5/path0"), jsonLanes);

        // the protocol row is the text's row, cell for cell
        JsonNode row = t.get("protocol").get("ranges").get(0);
        Matcher m = text.out().lines().map(PROTO_ROW::matcher).filter(Matcher::matches).findFirst().orElseThrow();
        assertEquals(m.group(1), row.get("range").asText());
        assertEquals(m.group(2), row.get("protocol").asText());
        assertEquals(m.group(3), row.get("lanes").asText());
        assertTrue(text.out().contains("| inter-node cfg#0 | " + t.get("protocol").get("operation").asText()), text.out());

        List<String> left = new ArrayList<>();
        t.get("decision").get("notCandidates").forEach(n -> left.add(n.asText()));
        assertEquals(List.of("mlx5_1", "mlx5_2", "mlx5_7", "mlx5_8"), left);
        assertTrue(t.get("modelled").get("pullSeconds").asDouble() > t.get("lineRateFloor").get("seconds").asDouble() * 0.99);
    }

    @Test
    void givenLanesAndASchemaViolationAreSeen() throws Exception {
        String scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml").toString();
        var json = CliTestSupport.run("explain", scenario, "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals(List.of(), schema().validate(j));
        JsonNode t = j.get("variants").get(1).get("transfers").get(0);
        assertTrue(t.get("lanesGiven").asBoolean());
        assertFalse(t.has("decision"));
        assertEquals("mlx5_3", t.get("lanes").get(1).get("sinkNic").asText());
        // the schema can fail: a transfer without lanes is not one
        ((com.fasterxml.jackson.databind.node.ObjectNode) t).remove("lanes");
        assertFalse(schema().validate(j).isEmpty());
    }

    /** Lines of the text that start with {@code prefix}. */
    private static List<String> linesStarting(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    @Test
    void theJsonCarriesTheGpuLinkFloorAndWhatTheAnswerRestsOn() throws Exception {
        String scenario = CliTestSupport.repo().resolve("scenarios/dgx-h100-nic-pin-vs-stripe.yaml").toString();
        var text = CliTestSupport.run("explain", scenario);
        JsonNode j = new ObjectMapper().readTree(CliTestSupport.run("explain", scenario, "--json").out());
        assertEquals(List.of(), schema().validate(j));
        List<String> floors = linesStarting(text.out(), "GPU link floor:");
        List<String> restsOn = linesStarting(text.out(), "rests on (profile ");
        assertFalse(floors.isEmpty(), "the scenario's 2 and 4 lanes stop at GPU0's PCIe link:\n" + text.out());
        int jsonFloors = 0;
        List<String> jsonRestsOn = new ArrayList<>();
        for (JsonNode v : j.get("variants")) {
            for (JsonNode t : v.get("transfers")) {
                jsonFloors += t.get("gpuLinkFloors").size();
                for (JsonNode g : t.get("gpuLinkFloors")) {
                    // the text's floor in seconds, to its 4 decimals
                    assertTrue(floors.stream().anyMatch(f -> f.contains(g.get("endpoint").asText())
                            && f.endsWith(String.format(java.util.Locale.ROOT, "%.4f s", g.get("seconds").asDouble()))), g.toString());
                }
                t.get("restsOn").forEach(r -> jsonRestsOn.add("rests on (profile " + r.get("profile").asText() + "): "
                        + r.get("text").asText()));
            }
        }
        assertEquals(floors.size(), jsonFloors);
        assertEquals(restsOn, jsonRestsOn);
    }

    @Test
    void aRefitsJsonHasItsPlanStagesAndWhatWouldHalveIt() throws Exception {
        String scenario = CliTestSupport.repo().resolve("scenarios/refit-qwen3-4b-gb200.yaml").toString();
        var text = CliTestSupport.run("explain", scenario);
        var json = CliTestSupport.run("explain", scenario, "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals(List.of(), schema().validate(j));
        JsonNode r = j.get("variants").get(0).get("refit");
        assertTrue(r != null, json.out());
        assertTrue(r.get("plan").size() > 0 && r.get("cycles").size() > 0 && r.get("restsOn").size() > 0, r.toString());
        for (JsonNode line : r.get("plan")) {
            assertTrue(text.out().contains("  " + line.asText() + "\n"), line.asText());
        }
        JsonNode c0 = r.get("cycles").get(0);
        assertTrue(text.out().contains(String.format(java.util.Locale.ROOT, "  %-6d %10.4f", c0.get("index").asInt(),
                c0.get("seconds").asDouble())), c0.toString());
        assertEquals(text.out().contains("what would halve it"), r.get("whatWouldHalveIt").size() > 0);
        for (JsonNode c : r.get("whatWouldHalveIt")) {
            assertTrue(text.out().contains(c.get("change").asText()), c.toString());
        }
    }
}
