package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rdmasim.validation.ValidationRow.Modelled;

/** The validation page's chart: modelled / published per row, with each row's own pass band. */
class RatioChartTest {
    private static Validation.Result judge(double low, double high, double tol, double modelled) {
        ValidationRow r = ValidationRow.measured("R", "src").what("what").setup("setup").published(low, high, "us")
                .tolerance(tol).noScenario().model(runs -> Modelled.value(modelled, ""));
        return Validation.run(List.of(r), Path.of("."), id -> { }).get(0);
    }

    @Test
    void aTwentyPercentMissIsOutsideItsBandAndFarFromOneWhateverTheUnit() {
        for (double scale : new double[] {1e-6, 1, 1e6}) {
            Validation.Result r = judge(100 * scale, 100 * scale, 0.1, 80 * scale);
            RatioChart.Point p = RatioChart.points(List.of(r)).get(0);
            assertEquals(0.8, p.ratio(), 1e-12);
            assertEquals(0.9, p.bandLow(), 1e-12);
            assertEquals(1.1, p.bandHigh(), 1e-12);
            assertFalse(r.pass());
            // the same distance on the page for a latency in microseconds and a bandwidth in Gbps
            assertTrue(RatioChart.x(1) - RatioChart.x(p.ratio()) > 24, "a 20% miss is more than three dot widths from 1");
        }
    }

    @Test
    void aPublishedRangeIsDrawnAsAnIntervalAroundItsGeometricMean() {
        Validation.Result r = judge(40, 90, 0.05, 62);
        RatioChart.Point p = RatioChart.points(List.of(r)).get(0);
        assertEquals(60, p.reference(), 1e-12);
        assertEquals(40 / 60.0, p.rangeLow(), 1e-12);
        assertEquals(1.5, p.rangeHigh(), 1e-12);
        assertEquals(40 * 0.95 / 60, p.bandLow(), 1e-12);
        assertEquals(90 * 1.05 / 60, p.bandHigh(), 1e-12);
        assertTrue(r.pass() && p.ratio() >= p.bandLow() && p.ratio() <= p.bandHigh());
        // off the axis: drawn at the edge, never beyond it
        assertEquals(RatioChart.x(RatioChart.SPAN), RatioChart.x(1000 * RatioChart.SPAN), 1e-9);
    }

    /**
     * The committed page charts every counted and calibration row with a value, at modelled / published
     * of validation.json, and a row's dot lies inside its band exactly when validate judged it within.
     */
    @Test
    void theCommittedChartIsValidationJsonRowByRow() throws Exception {
        Path folder = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("reports/validation");
        JsonNode rows = new ObjectMapper().readTree(folder.resolve("validation.json").toFile()).get("rows");
        String html = Files.readString(folder.resolve("index.html"), StandardCharsets.UTF_8);
        Map<String, double[]> drawn = new HashMap<>();
        Matcher m = Pattern.compile("<g class=\"row\" data-id=\"([^\"]+)\" data-ratio=\"([^\"]+)\" data-band=\"([^ ]+) ([^\"]+)\">")
                .matcher(html);
        while (m.find()) {
            drawn.put(m.group(1), new double[] {Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
                    Double.parseDouble(m.group(4))});
        }
        int expected = 0;
        for (JsonNode row : rows) {
            boolean charted = (row.get("counted").asBoolean() || row.get("calibration").asBoolean())
                    && !row.get("modelled").isNull();
            String id = row.get("id").asText();
            if (!charted) {
                assertFalse(drawn.containsKey(id), id + " is not charted");
                continue;
            }
            expected++;
            JsonNode pub = row.get("published");
            double lo = pub.isArray() ? pub.get(0).asDouble() : pub.asDouble();
            double hi = pub.isArray() ? pub.get(1).asDouble() : pub.asDouble();
            double published = lo == hi ? lo : Math.sqrt(lo * hi);
            double modelled = row.get("modelled").asDouble();
            double tol = row.get("tolerance").asDouble();
            double[] d = drawn.get(id);
            assertTrue(d != null, id + " is charted");
            // validation.json's figures are rounded to a few digits; the chart keeps the model's double
            assertEquals(modelled / published, d[0], 1e-3 * modelled / published + 1e-12, id + " ratio");
            assertEquals(lo * (1 - tol) / published, d[1], 1e-3 * d[1] + 1e-12, id + " band low");
            assertEquals(hi * (1 + tol) / published, d[2], 1e-3 * d[2] + 1e-12, id + " band high");
            String verdict = row.get("verdict").asText();
            boolean inside = d[0] >= d[1] * (1 - 1e-9) && d[0] <= d[2] * (1 + 1e-9);
            if (verdict.equals("pass") || verdict.equals("fitted") || verdict.equals("UNEXPECTED PASS")) {
                assertTrue(inside, id + " passed: its dot is in its band");
            } else if (verdict.equals("FAIL") || verdict.equals("known failure")) {
                assertFalse(inside, id + " missed: its dot is outside its band");
            }
        }
        assertEquals(expected, drawn.size(), "one chart row per counted or calibration row with a value");
        assertTrue(expected > 80, "rows charted: " + expected);
        assertFalse(html.contains("each row in its own unit"), "the mixed-unit scatter is gone");
    }
}
