package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Answer takes the shape of the scenario's question, stated ({@code question:}) or inferred: variants
 * on different platforms are ranked within their own platform, caps say which variants fit and why the
 * others do not, a sweep gives its curve's knee, and a fault scenario says what the faults cost.
 */
class AnswerShapeTest {
    @TempDir
    Path dir;

    private static final String PULL = """
            workload:
              transfers:
                - {from: "a:GPU0", to: "b:GPU0", size: 4 GB}
            """;

    /** The Answer paragraph of the page, tags removed. */
    private String answer(String scenario) throws Exception {
        Path f = Files.writeString(dir.resolve("s.yaml"), scenario);
        Path out = dir.resolve("out");
        var o = CliTestSupport.run("run", f.toString(), "-q", "--force", "--out", out.toString());
        assertTrue(o.code() == 0, o.err());
        String page = Files.readString(out.resolve("index.html"));
        Matcher m = Pattern.compile("<h2>Answer</h2>\n<p>(.*?)</p>", Pattern.DOTALL).matcher(page);
        assertTrue(m.find(), "the page opens with an Answer");
        return m.group(1).replaceAll("<[^>]+>", "").replace("&#39;", "'");
    }

    @Test
    void variantsOnTwoPlatformsAreRankedWithinTheirOwn() throws Exception {
        String a = answer("""
                name: platforms
                hosts:
                  a: {preset: gb200-tray}
                  b: {preset: gb200-tray}
                """ + PULL + """
                variants:
                  - name: gb200-one-rail
                    transport: {env: "UCX_MAX_RMA_RAILS=1"}
                  - name: gb200-two-rails
                    transport: {env: "UCX_MAX_RMA_RAILS=2"}
                  - name: h100-one-rail
                    hosts: {a: {preset: dgx-h100}, b: {preset: dgx-h100}}
                    transport: {env: "UCX_MAX_RMA_RAILS=1"}
                  - name: h100-two-rails
                    hosts: {a: {preset: dgx-h100}, b: {preset: dgx-h100}}
                    transport: {env: "UCX_MAX_RMA_RAILS=2"}
                """);
        assertTrue(a.contains("Variants run on 2 platforms"), a);
        int gb = a.indexOf("On GB200");
        int dgx = a.indexOf("On DGX H100");
        assertTrue(gb >= 0 && dgx >= 0, a);
        String gbPart = gb < dgx ? a.substring(gb, dgx) : a.substring(gb);
        assertFalse(gbPart.contains("h100-"), "no DGX H100 variant is ranked against GB200 ones: " + gbPart);
    }

    @Test
    void aCapScenarioSaysWhichVariantsFitAndWhyTheOthersDoNot() throws Exception {
        String a = answer("""
                name: caps
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                registration:
                  firmwarePageCap: 8 GiB
                  capScope: host
                """ + PULL + """
                variants:
                  - name: one-rail
                    transport: {env: "UCX_MAX_RMA_RAILS=1"}
                  - name: starved
                    expect: failed
                    registration: {firmwarePageCap: 1 MiB}
                """);
        assertTrue(a.contains("Fit (1 of 2): one-rail"), a);
        assertTrue(a.contains("Do not fit (1)") && a.contains("starved:"), a);
        assertFalse(a.contains("Fastest"), "a fits question is not answered with a ranking: " + a);
    }

    @Test
    void aSweepGivesItsCurveAndTheKneeReadFromItsPoints() throws Exception {
        String a = answer("""
                name: curve
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                protocol: {perDescriptor: 50 ns}
                transport:
                  lanes:
                    - {source: mlx5_0, sink: mlx5_0}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 MiB}
                sweep:
                  messageSize: [64 B, 1 KiB, 16 KiB, 256 KiB, 4 MiB]
                  messages: 100
                """);
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
        double peak = 0;
        for (JsonNode v : summary.get("variants")) {
            peak = Math.max(peak, v.get("aggregateGbps").asDouble());
        }
        String knee = null;
        for (String size : new String[] {"64 B", "1 KiB", "16 KiB", "256 KiB", "4 MiB"}) {
            JsonNode v = null;
            for (JsonNode x : summary.get("variants")) {
                if (x.get("name").asText().equals("baseline@" + size.replace(" ", ""))) {
                    v = x;
                }
            }
            if (knee == null && v != null && v.get("aggregateGbps").asDouble() >= 0.5 * peak) {
                knee = size;
            }
        }
        assertTrue(a.contains("Bandwidth against message size"), a);
        assertTrue(knee != null && a.contains("half the peak from " + knee), "knee " + knee + " in: " + a);
    }

    @Test
    void aFaultScenarioSaysWhatTheFaultsCostAndAStatedQuestionIsObeyed() throws Exception {
        String scenario = """
                name: faults
                hosts:
                  a: {preset: gb200-tray}
                  b: {preset: gb200-tray}
                transport: {env: "UCX_NET_DEVICES=all\\nUCX_MAX_RMA_RAILS=2\\n"}
                """ + PULL + """
                variants:
                  - name: flap
                    faults: {events: [{kind: nic-down, host: b, nic: mlx5_1, at: 10 ms, until: 200 ms}]}
                  - name: calm
                """;
        String a = answer(scenario);
        assertTrue(a.contains("What the faults cost") && a.contains("flap: makespan"), a);
        assertTrue(a.contains("of it the faults' cost"), "the slowest pull is put down to the fault: " + a);
        String asked = answer(scenario.replace("name: faults\n", "name: faults\nquestion: fastest\n"));
        assertFalse(asked.contains("What the faults cost"), "question: fastest gives a ranking: " + asked);
        Path bad = Files.writeString(dir.resolve("bad.yaml"), scenario.replace("name: faults\n",
                "name: faults\nquestion: cheapest\n"));
        var o = CliTestSupport.run("run", bad.toString(), "-q", "--out", dir.resolve("bad").toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("bad.yaml:2:") && o.err().contains("fastest, fits, curve, faults or refit"), o.err());
    }
}
