package org.rdmasim.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.report.SummaryJson;

/** A search on made-up points, through the same table and files as a real one: rises, interrupts, Ctrl-C. */
class SizingSweepTest {
    @TempDir
    Path dir;

    /** The table and the lines after it as the command prints them, with no status line. */
    private record Text(StringWriter text) implements SizingSweep.Display {
        @Override
        public SizingSweep.StatusLine statusLine() {
            return SizingSweep.StatusLine.of(line -> { }, () -> { });
        }

        @Override
        public void table(String table) {
            text.write(table);
        }

        @Override
        public void written(Path where, boolean complete, int points) {
            text.write((complete ? "search written to " : "points so far written to ") + where + "\n");
        }

        @Override
        public void notWritten(IOException e) {
            text.write("not written: " + e.getMessage() + "\n");
        }
    }

    private SizingSweep sweep(Path out, StringWriter text) {
        return new SizingSweep(new P99Target("made-up", "v", FanoutSizing.Knob.SOURCES, 5.0, 1, 8, "8 receiver host(s)"),
                out, new Text(text));
    }

    private static SimulatedPoint row(int value, double p99) {
        return new SimulatedPoint(value, p99, p99, p99, p99 <= 5.0, "", new double[] {p99});
    }

    @Test
    void aRiseInP99IsReportedInTheTableAndTheJson() throws IOException {
        double[] p99 = {0, 10, 12, 11, 1, 1, 1, 1, 1};
        Path out = dir.resolve("out");
        StringWriter text = new StringWriter();
        assertTrue(sweep(out, text).run(value -> row(value, p99[value])), "ran to its end");
        assertTrue(text.toString().contains("monotonicity violated: p99 rises from 10.0000 s at sources=1 to 12.0000 s at sources=2 (by 2.00 s, 20%)"),
                text.toString());
        assertTrue(text.toString().contains("smallest sources that meets the target: 4"), text.toString());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertEquals(1, json.get("monotonicityViolations").size());
    }

    /** A rise of microseconds is still a rise, and the line says how large it is, so it reads as what it is. */
    @Test
    void aRiseIsSaidWithItsSize() throws IOException {
        double[] p99 = new double[9];
        java.util.Arrays.fill(p99, 18.623380763998494);
        p99[1] = 20.2;
        p99[2] = 18.623349165765475;
        StringWriter text = new StringWriter();
        assertTrue(sweep(dir.resolve("tiny"), text).run(value -> row(value, p99[value])), "ran to its end");
        assertTrue(text.toString().contains("p99 rises from 18.6233 s at sources=2 to 18.6234 s at sources=4 "
                + "(by 31.6 us, 0.0001697%)"), text.toString());
    }

    @Test
    void anInterruptKeepsThePointsSimulatedSoFar() throws IOException {
        Path out = dir.resolve("out");
        StringWriter text = new StringWriter();
        int[] calls = {0};
        boolean complete;
        try {
            complete = sweep(out, text).run(value -> {
                if (++calls[0] == 3) {
                    Thread.currentThread().interrupt(); // as the Ctrl-C hook does, during the third point
                }
                return row(value, 20.0 / value);
            });
        } finally {
            Thread.interrupted();
        }
        assertFalse(complete);
        assertTrue(text.toString().contains("INCOMPLETE"), text.toString());
        assertTrue(text.toString().contains("no answer yet: no sources tried so far meets the target (largest tried 2)"),
                text.toString());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertFalse(json.get("complete").asBoolean());
        assertTrue(json.get("smallestMeeting").isNull());
        assertEquals(2, json.get("sweep").size(), "the point cut short is not kept");
        assertEquals(List.of("sources,status,p99PullSeconds,meanPullSeconds,makespanSeconds,meetsTarget,searchComplete",
                "1,ok,20.0,20.0,20.0,false,false", "2,ok,10.0,10.0,10.0,false,false"), Files.readAllLines(out.resolve("sizing.csv")));
        assertFalse(Files.exists(out.resolve("sizing-sources.png")), "no charts for an unfinished search");
    }

    @Test
    void theCtrlCHookWritesThePointsWhenThePointUnderWayDoesNotStop() throws IOException {
        Path out = dir.resolve("out");
        StringWriter text = new StringWriter();
        SizingSweep s = sweep(out, text);
        s.add(row(1, 10), 1_000_000_000L);
        s.add(row(2, 8), 1_000_000_000L);
        // Next 4: meeting at 8 would take 4, 8 and bisection's 6, 7 (meeting at 4: 4 and 3), 1 s each so far.
        assertTrue(s.status(4, 0.25).endsWith("sources = 4, point 3 of at most 6, running 0 s; 1.0 s per point so far; "
                + "up to 4 s left at that rate"), s.status(4, 0.25));
        // A point running longer than the mean sets the rate for the points after it; its own end is unknown.
        assertTrue(s.status(4, 30).endsWith("running 30 s; 1.0 s per point so far; this point has run past that; "
                + "then up to 90 s for the 3 after it at this point's time so far"), s.status(4, 30));
        s.add(row(4, 2), 1_000_000_000L);
        // Only 3 is left: past the mean it is not counted done ("up to 0 s left" while it still runs).
        assertTrue(s.status(3, 30).endsWith("point 4 of at most 4, running 30 s; 1.0 s per point so far; "
                + "this point, the last, has run past that"), s.status(3, 30));
        assertTrue(s.status(3, 0.5).endsWith("up to 0 s left at that rate") || s.status(3, 0.5).endsWith(
                "up to 1 s left at that rate"), s.status(3, 0.5));
        // The worker is inside point 3 and does not answer the interrupt within the wait.
        s.onCtrlC(new Thread(() -> { }), 0);
        assertTrue(text.toString().contains("no answer yet: the smallest sources that meets the target is between 3 and 4"),
                text.toString());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertFalse(json.get("complete").asBoolean());
        assertEquals(3, json.get("sweep").size());
        // A second signal (or the worker arriving late) does not write again.
        int length = text.toString().length();
        s.onCtrlC(new Thread(() -> { }), 0);
        assertEquals(length, text.toString().length());
    }

    @Test
    void anInterruptedRefitSearchKeepsItsPoints() throws IOException {
        Path out = dir.resolve("interrupted");
        StringWriter text = new StringWriter();
        List<RefitSizing.Step> steps = List.of(new RefitSizing.Step(1, "1"),
                new RefitSizing.Step(2, "2"), new RefitSizing.Step(4, "4"),
                new RefitSizing.Step(8, "8"));
        SizingSweep sweep = new SizingSweep(new RefitCycleTarget("made-up", "v",
                RefitSizing.Knob.INFERENCE_TP, "steady", 1.0, steps, List.of(), "4 valid degrees"), out,
                new Text(text));
        int[] calls = {0};
        boolean complete;
        try {
            complete = sweep.run(position -> {
                if (++calls[0] == 2) {
                    Thread.currentThread().interrupt(); // as the Ctrl-C hook does, during the second point
                }
                double t = 4.0 / steps.get(position - 1).value();
                return new SimulatedPoint(position, t, t, t, t <= 1.0, "", null, "x");
            });
        } finally {
            Thread.interrupted();
        }
        assertFalse(complete);
        assertTrue(text.toString().contains("INCOMPLETE"), text.toString());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertFalse(json.get("complete").asBoolean());
        assertEquals(1, json.get("sweep").size(), "the point cut short is not kept");
        assertEquals(List.of("inference-tp,status,refitSeconds,firstCycleSeconds,steadyCycleSeconds,meetsTarget,boundBy,searchComplete",
                "1,ok,4.0,4.0,4.0,false,x,false"), Files.readAllLines(out.resolve("sizing.csv")));
        assertFalse(Files.exists(out.resolve("sizing-inference-tp.png")), "no charts for an unfinished search");
    }
    /**
     * A refit's first figure column is the time of the cycle the target is on, headed so: with the target on the
     * first cycle it holds the first cycle's time (not the steady one, nor the refit's time over all cycles), and
     * the CSV keeps its name, refitSeconds.
     */
    @Test
    void aRefitTableHeadsItsComparedColumnAsTheTargetCycle() throws IOException {
        Path out = dir.resolve("first-cycle");
        StringWriter text = new StringWriter();
        List<RefitSizing.Step> steps = List.of(new RefitSizing.Step(1, "1"), new RefitSizing.Step(2, "2"));
        SizingSweep sweep = new SizingSweep(new RefitCycleTarget("made-up", "v", RefitSizing.Knob.INFERENCE_TP,
                "first", 1.0, steps, List.of(), "2 valid degrees"), out, new Text(text));
        // first cycle 1.5 s / n, steady 0.5 s / n: the target (1 s) is on the first cycle
        assertTrue(sweep.run(position -> new SimulatedPoint(position, 1.5 / position, 1.5 / position,
                0.5 / position, 1.5 / position <= 1.0, "", null, "x")));
        String head = text.toString().lines().filter(l -> l.contains("bound by")).findFirst().orElseThrow();
        assertEquals(List.of("inference-tp", "target", "cycle(s)", "first(s)", "steady(s)", "meets", "target", "bound",
                "by"), List.of(head.trim().split(" +")));
        assertFalse(text.toString().contains("refit(s)"), text.toString());
        String row = text.toString().lines().filter(l -> l.trim().startsWith("1 ")).findFirst().orElseThrow();
        assertEquals(List.of("1", "1.5000", "1.5000", "0.5000", "no", "x"), List.of(row.trim().split(" +")));
        assertEquals("inference-tp,status,refitSeconds,firstCycleSeconds,steadyCycleSeconds,meetsTarget,boundBy,"
                + "searchComplete", Files.readAllLines(out.resolve("sizing.csv")).get(0));
    }
}
