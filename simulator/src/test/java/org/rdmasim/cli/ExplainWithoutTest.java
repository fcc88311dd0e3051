package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code explain} shows, beside each calibrated or assumed parameter the answer rests on, the answer without it
 * (the variant rerun with the profile's copy that lacks it), in the text and in {@code --json}; a parameter whose
 * profile gives no "without" is said to have none.
 */
class ExplainWithoutTest {
    @TempDir
    java.nio.file.Path dir;

    private static final String SCENARIO = CliTestSupport.repo().resolve("scenarios/seed003-nic-pin-vs-stripe.yaml")
            .toString();

    /** {@code out} read as JSON, after checking that it follows explain's schema. */
    private static JsonNode followingTheSchema(String out) throws Exception {
        JsonNode j = new ObjectMapper().readTree(out);
        try (InputStream in = ExplainJson.class.getResourceAsStream("/schema/explain.schema.json")) {
            assertEquals(List.of(), SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in)
                    .validate(j));
        }
        return j;
    }

    @Test
    void jsonCarriesEachParametersAnswerWithoutItAndTheTextPrintsTheSame() throws Exception {
        var json = CliTestSupport.run("explain", SCENARIO, "--variant", "gb200-mx-pin-auto", "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode j = followingTheSchema(json.out());
        JsonNode t = j.get("variants").get(0).get("transfers").get(0);
        Map<String, JsonNode> byKey = new HashMap<>();
        t.get("restsOn").forEach(r -> byKey.put(r.get("key").asText(), r.get("without")));
        assertEquals(java.util.Set.of("qpReadRate", "graceToGrace", "nicReadRate", "nicReadAtResponder"), byKey.keySet());
        // one reader of one source NIC: the rate holds either end alike, so the other placement moves nothing
        assertEquals(t.get("modelled").get("pullSeconds").asDouble(),
                byKey.get("nicReadAtResponder").get("pullSeconds").asDouble(), 0);

        // the calibrated NIC READ rate holds the pinned pull at 308 Gbps; without it the NIC's RoCE wire holds it
        double modelled = t.get("modelled").get("pullSeconds").asDouble();
        JsonNode nic = byKey.get("nicReadRate");
        assertTrue(nic.get("rerun").asBoolean());
        assertTrue(nic.get("value").isNull(), "the rate is taken out, not replaced");
        double floor = t.get("lineRateFloor").get("seconds").asDouble();
        assertTrue(nic.get("pullSeconds").asDouble() < modelled, nic.toString());
        assertEquals(floor, nic.get("pullSeconds").asDouble(), floor * 1e-4, "at the wire, the line-rate floor");
        assertTrue(nic.get("limitedBy").asText().endsWith("tx"), nic.toString());
        // two paths of one NIC: two QPs reach the wire whatever one QP's rate, so without qpReadRate nothing moves
        JsonNode qp = byKey.get("qpReadRate");
        assertEquals(modelled, qp.get("pullSeconds").asDouble(), 0);
        // nothing stands in for an assumed link's absence
        JsonNode link = byKey.get("graceToGrace");
        assertFalse(link.get("rerun").asBoolean());
        assertEquals(ExplainCommand.NO_WITHOUT, link.get("why").asText());

        var text = CliTestSupport.run("explain", SCENARIO, "--variant", "gb200-mx-pin-auto");
        assertEquals(0, text.code(), text.err());
        String expected = String.format(Locale.ROOT, "    without it (%s): %.4f s (%.1f Gbps), limited by %s",
                nic.get("means").asText(), nic.get("pullSeconds").asDouble(), nic.get("gbps").asDouble(),
                nic.get("limitedBy").asText());
        assertTrue(text.out().contains(expected), text.out());
        List<String> lines = text.out().lines().toList();
        int rests = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("rests on (profile gb200-roce): graceToGrace")) {
                rests = i;
            }
        }
        assertTrue(rests >= 0, text.out());
        assertEquals("    without it: no rerun, " + ExplainCommand.NO_WITHOUT, lines.get(rests + 2));
    }

    @Test
    void theRunsPageShowsTheSameFigureUnderTheParameterItRestsOn() throws Exception {
        var run = CliTestSupport.run("run", SCENARIO, "--out", dir.resolve("out").toString(), "-q");
        assertTrue(run.code() == 0 || run.code() == 1, run.err());
        String page = java.nio.file.Files.readString(dir.resolve("out/index.html"));
        var json = CliTestSupport.run("explain", SCENARIO, "--variant", "gb200-mx-pin-auto", "--json");
        JsonNode t = new ObjectMapper().readTree(json.out()).get("variants").get(0).get("transfers").get(0);
        JsonNode nic = null;
        for (JsonNode r : t.get("restsOn")) {
            if (r.get("key").asText().equals("nicReadRate")) {
                nic = r.get("without");
            }
        }
        // one receiver: its pull is the variant's slowest, so the page and explain name the same rerun
        String expected = String.format(Locale.ROOT, "Rerun without it (%s), slowest pull: gb200-mx-pin-auto %.4f s "
                + "(%.0f Gbps; %.4f s with it)", nic.get("means").asText(), nic.get("pullSeconds").asDouble(),
                nic.get("gbps").asDouble(), t.get("modelled").get("pullSeconds").asDouble());
        assertTrue(page.contains(expected), expected);
        assertTrue(page.contains("graceToGrace = 100 GB/s") && page.contains("No rerun without it: nothing stands in"),
                "the parameter with no 'without' is said to have none");
        var skipped = CliTestSupport.run("run", SCENARIO, "--out", dir.resolve("skipped").toString(), "-q",
                "--skip-without");
        assertTrue(skipped.code() == 0 || skipped.code() == 1, skipped.err());
        String bare = java.nio.file.Files.readString(dir.resolve("skipped/index.html"));
        assertTrue(bare.contains("nicReadRate = 308 Gbps"), "the parameter is still listed");
        assertFalse(bare.contains("Rerun without it"), "--skip-without reruns nothing");
        for (String f : List.of("summary.json", "transfers.csv", "resources.csv")) {
            assertEquals(java.nio.file.Files.readString(dir.resolve("out").resolve(f)),
                    java.nio.file.Files.readString(dir.resolve("skipped").resolve(f)), f + " does not depend on the reruns");
        }
    }

    @Test
    void aRefitsAnswerWithoutAParameterIsItsSteadyCycle() throws Exception {
        String refit = CliTestSupport.repo().resolve("scenarios/refit-qwen3-4b-gb200.yaml").toString();
        var json = CliTestSupport.run("explain", refit, "--variant", "tree", "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode v = followingTheSchema(json.out()).get("variants").get(0);
        double own = v.get("refit").get("steadyCycleSeconds").asDouble();
        JsonNode nic = null;
        for (JsonNode r : v.get("transfers").get(0).get("restsOn")) {
            if (r.get("key").asText().equals("nicReadRate")) {
                nic = r.get("without");
            }
        }
        assertTrue(nic.get("rerun").asBoolean(), String.valueOf(nic));
        // the tree's re-serving inference ranks read through one NIC held at 308 Gbps: without the cap, faster
        assertTrue(nic.get("steadyCycleSeconds").asDouble() < own, nic + " vs " + own);
        assertFalse(nic.get("boundBy").asText().isEmpty());
    }
}
