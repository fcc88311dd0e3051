package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.workload.FanoutResult;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/** The receiver timeline's data: arrival order, names as summary.json's, and a sane size for a huge fan-out. */
class InteractiveChartsTest {
    /** {@code n} receivers over two refit cycles, recorded in the reverse of their arrival order. */
    private static VariantOutcome fanout(int n) {
        List<FanoutResult.ReceiverPull> pulls = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            double arrival = i * 0.001;
            pulls.add(new FanoutResult.ReceiverPull(i % 2, "r" + i, "s0", false, 1_000_000, arrival, arrival + 0.5,
                    arrival + 0.75, new Bottleneck.Failed("test")));
        }
        FanoutResult f = new FanoutResult(pulls, List.of(new FanoutResult.Cycle(0, 0, 0, 0, 1, 1),
                new FanoutResult.Cycle(1, 1, 0, 0, 1, 1)), List.of("s0"));
        RunResult r = new RunResult(List.of(), List.of(), List.of(), List.of(), 0, 0, f);
        return new VariantOutcome("v", "d", VariantOutcome.Status.OK, "", r, 1.0, null, null);
    }

    private static JsonNode receivers(List<VariantOutcome> outcomes) throws Exception {
        JsonNode all = new ObjectMapper().readTree(InteractiveCharts.json("s", outcomes)).get("receivers");
        assertEquals(1, all.size());
        return all.get(0);
    }

    @Test
    void aSmallFanOutIsDrawnWholeInArrivalOrderWithItsCycleInTheName() throws Exception {
        JsonNode t = receivers(List.of(fanout(5)));
        assertEquals(1, t.get("every").asInt());
        assertEquals(5, t.get("of").asInt());
        assertEquals("[\"r0@cycle0\",\"r1@cycle1\",\"r2@cycle0\",\"r3@cycle1\",\"r4@cycle0\"]", t.get("names").toString());
        assertEquals(0.002, t.get("arrival_s").get(2).asDouble(), 0);
        assertEquals(0.502, t.get("post_s").get(2).asDouble(), 1e-15);
        assertEquals(0.752, t.get("finish_s").get(2).asDouble(), 1e-15);
    }

    @Test
    void aHugeFanOutDrawsEveryKthReceiverAndSaysSo() throws Exception {
        int n = 3 * InteractiveCharts.MAX_TIMELINE_RECEIVERS + 1;
        String json = InteractiveCharts.json("s", List.of(fanout(n)));
        assertEquals(json, InteractiveCharts.json("s", List.of(fanout(n))), "the same records give the same bytes");
        JsonNode t = receivers(List.of(fanout(n)));
        int every = t.get("every").asInt();
        assertEquals(4, every, "ceil(n / MAX_TIMELINE_RECEIVERS)");
        assertEquals(n, t.get("of").asInt());
        int drawn = t.get("names").size();
        assertTrue(drawn <= InteractiveCharts.MAX_TIMELINE_RECEIVERS, "drawn: " + drawn);
        assertEquals((n + every - 1) / every, drawn);
        for (int i = 0; i < drawn; i++) {
            // receiver i*every of the arrival order, its own name and times
            int k = i * every;
            assertEquals("r" + k + "@cycle" + (k % 2), t.get("names").get(i).asText());
            assertEquals(k * 0.001, t.get("arrival_s").get(i).asDouble(), 0);
        }
        assertTrue(json.length() < 600_000, "a 30k-receiver fan-out's data stays small: " + json.length() + " chars");
    }
}
