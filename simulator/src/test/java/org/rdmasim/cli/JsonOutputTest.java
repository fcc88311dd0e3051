package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * {@code memory register|mtt|va --json} and {@code compare --json} print one JSON object holding the figures
 * the text prints, with the same exit code, and nothing else on standard output.
 */
class JsonOutputTest {
    private static JsonNode json(CliTestSupport.Outcome o) throws Exception {
        return new ObjectMapper().readTree(o.out());
    }

    @Test
    void registerGivesEachConfigurationsFiguresAndTheSameExitCode() throws Exception {
        String[] args = {"memory", "register", "--host", "dgx-h100", "--buffer", "40GiB", "--fw-page-cap", "1GiB",
                "--compare"};
        var text = CliTestSupport.run(args);
        var asJson = CliTestSupport.run(concat(args, "--json"));
        assertEquals(text.code(), asJson.code(), "the same verdict");
        JsonNode j = json(asJson);
        assertEquals(1, j.get("schemaVersion").asInt());
        assertEquals("memory register", j.get("command").asText());
        assertEquals(8, j.get("gpus").asInt());
        assertEquals(1L << 30, j.get("limits").get("firmwarePageCapBytes").asLong());
        JsonNode configs = j.get("configurations");
        assertEquals(5, configs.size(), "the five configurations --compare runs");
        boolean anyFailed = false;
        for (JsonNode c : configs) {
            assertTrue(text.out().contains(c.get("name").asText()), "the text names " + c.get("name"));
            // 40 GiB per GPU over 4 KiB pages: translation bytes are 8 bytes a page per MR, so a multiple of 80 MiB
            assertEquals(0, c.get("translationBytes").asLong() % (80L << 20), c.toString());
            assertTrue(c.get("mrs").asLong() >= 8, "at least one MR per GPU");
            anyFailed |= !c.get("passed").asBoolean();
            assertEquals(c.get("passed").asBoolean(), !c.has("failure"), "a failure is given exactly when it fails");
            assertEquals(c.get("passed").asBoolean() ? "ok" : "fail",
                    c.get("caps").get("firmwarePageCap").asText().equals("fail") ? "fail" : "ok",
                    "under a 1 GiB cap, the firmware cap decides");
        }
        assertEquals(anyFailed ? 1 : 0, asJson.code());
    }

    @Test
    void mttAndVaGiveTheirFigures() throws Exception {
        JsonNode mtt = json(CliTestSupport.run("memory", "mtt", "--memory", "64GiB", "--json"));
        // 2 x 64 GiB over 2^3 MTTs per segment and 4 KiB pages: 2^37 / (2^3 * 2^12) = 2^22
        assertEquals(22, mtt.get("neededLogNumMtt").asInt());
        assertEquals(1L << 37, mtt.get("neededMaxRegisterableBytes").asLong());
        assertTrue(mtt.get("openMpiWarns").asBoolean(), "log_num_mtt 20 registers 32 GiB of 64");
        var va = CliTestSupport.run("memory", "va", "--gpu", "gb300", "--communicators", "200", "--json");
        assertEquals(0, va.code());
        JsonNode v = json(va);
        assertEquals(200 * v.get("vaPerCommunicatorBytes").asLong(), v.get("totalBytes").asLong());
        for (JsonNode s : v.get("spaces")) {
            assertEquals(s.get("fits").asBoolean(), v.get("totalBytes").asLong() <= s.get("bytes").asLong());
        }
    }

    @Test
    void compareGivesEachRowWithExactFiguresAndTheTextsChange() throws Exception {
        String summary = CliTestSupport.repo().resolve("reports/max-rma-rails-2-vs-4/summary.json").toString();
        var text = CliTestSupport.run("compare", summary, "--variant", "gb200-rails-1", "--variant", "gb200-rails-2");
        var asJson = CliTestSupport.run("compare", summary, "--variant", "gb200-rails-1", "--variant", "gb200-rails-2",
                "--json");
        assertEquals(0, asJson.code(), asJson.err());
        JsonNode rows = json(asJson).get("pairs").get(0).get("rows");
        JsonNode whole = new ObjectMapper().readTree(new java.io.File(summary));
        for (JsonNode r : rows) {
            assertTrue(text.out().contains(r.get("what").asText()), "the text shows " + r.get("what"));
            if (r.get("what").asText().equals("aggregate (Gbps)")) {
                for (JsonNode v : whole.get("variants")) {
                    if (v.get("name").asText().equals("gb200-rails-1")) {
                        assertEquals(v.get("aggregateGbps").asDouble(), r.get("a").asDouble(), "exact, not rounded");
                    }
                }
            }
        }
    }

    private static String[] concat(String[] a, String b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }
}
