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
        // a refit's answer under the other UCX install is its steady cycle, in the text and the JSON
        JsonNode under = j.get("variants").get(0).get("ucxInstall").get("otherInstalls").get(0).get("modelled");
        assertTrue(text.out().contains(String.format(java.util.Locale.ROOT, "    modelled:    steady cycle %.4f s (%.4f s "
                + "under nixl-wheel), bound by %s", under.get("steadyCycleSeconds").asDouble(),
                r.get("steadyCycleSeconds").asDouble(), under.get("boundBy").asText())), text.out());
    }

    /**
     * The UCX install the answer rests on is in the JSON as in the text: assumed (not stated) with the answer under
     * the other install, or stated by the scenario with no other answer; a DGX (x86, no ucx.conf section) has none.
     */
    @Test
    void theJsonCarriesTheUcxInstallAndTheAnswerUnderTheOtherInstall() throws Exception {
        String scenario = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml").toString();
        var text = CliTestSupport.run("explain", scenario);
        var json = CliTestSupport.run("explain", scenario, "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals(List.of(), schema().validate(j));
        List<String> installLines = linesStarting(text.out(), "UCX install: ");
        List<String> otherLines = linesStarting(text.out(), "under ucxInstall: ");
        List<String> textModelled = text.out().lines().filter(l -> l.startsWith("    modelled:    ")).toList();
        List<String> jsonInstall = new ArrayList<>();
        List<String> jsonOther = new ArrayList<>();
        List<String> jsonModelled = new ArrayList<>();
        JsonNode wheel4 = null;
        JsonNode prefix4 = null;
        for (JsonNode v : j.get("variants")) {
            JsonNode u = v.get("ucxInstall");
            if (u == null) {
                assertTrue(v.get("name").asText().startsWith("dgx-"), v.get("name").asText());
                continue;
            }
            jsonInstall.add("UCX install: " + u.get("install").asText() + " (" + u.get("statedWhere").asText() + ")");
            assertEquals(u.get("stated").asBoolean(), u.get("otherInstalls").isEmpty(), u.toString());
            for (JsonNode o : u.get("otherInstalls")) {
                jsonOther.add("under ucxInstall: " + o.get("install").asText() + " ("
                        + (o.get("readsUcxConf").asBoolean() ? "ucx.conf read" : "no ucx.conf read") + "):");
                JsonNode m = o.get("modelled");
                jsonModelled.add(String.format(java.util.Locale.ROOT, "    modelled:    %.4f s (%.1f Gbps), limited by %s",
                        m.get("pullSeconds").asDouble(), m.get("gbps").asDouble(), m.get("limitedBy").asText()));
            }
            if (v.get("name").asText().equals("gb200-stripe-4-rails")) {
                wheel4 = v;
            } else if (v.get("name").asText().equals("gb200-stripe-4-rails-ucx-prefix")) {
                prefix4 = v;
            }
        }
        assertEquals(installLines, jsonInstall);
        assertEquals(otherLines, jsonOther);
        assertEquals(textModelled, jsonModelled);

        // 4 rails under the wheel's UCX (no ucx.conf): the ratio filter keeps 2 NICs; under a prefix install all 4
        JsonNode u = wheel4.get("ucxInstall");
        assertFalse(u.get("stated").asBoolean());
        assertEquals("nixl-wheel", u.get("install").asText());
        assertFalse(u.get("readsUcxConf").asBoolean());
        double own = wheel4.get("transfers").get(0).get("modelled").get("gbps").asDouble();
        JsonNode other = u.get("otherInstalls").get(0);
        assertEquals("prefix", other.get("install").asText());
        assertEquals(2 * own, other.get("modelled").get("gbps").asDouble(), own * 1e-4, other.toString());
        // the variant that names the prefix install gets that answer as its own, and no other
        JsonNode p = prefix4.get("ucxInstall");
        assertTrue(p.get("stated").asBoolean());
        assertEquals("transport.ucxInstall", p.get("statedWhere").asText());
        assertEquals(other.get("modelled").get("pullSeconds").asDouble(),
                prefix4.get("transfers").get(0).get("modelled").get("pullSeconds").asDouble(), 0);
        // the schema holds the field: an install the text does not know is refused
        ((com.fasterxml.jackson.databind.node.ObjectNode) u).put("install", "conda");
        assertFalse(schema().validate(j).isEmpty());
    }
}
