package org.rdmasim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.junit.jupiter.api.Test;

/**
 * A study's chart against one knob draws one line per value of the other knob, each point one
 * configuration's mean over its replications (never a mean over configurations), with units on its axes.
 */
class StudyChartTest {
    private static final List<String> SOURCES = List.of("1", "2", "4");
    private static final List<String> GAPS = List.of("5 ms", "15 ms", "25 ms");

    /** p99 of (sources, gap) in replication {@code rep}: the README study's numbers, replication 1 a little off. */
    private static double p99(int s, int g, int rep) {
        double[][] at = {{2.43, 2.05, 1.61}, {1.12, 0.69, 0.29}, {0.47, 0.14, 0.10}};
        return at[s][g] + rep * 0.02;
    }

    private static ResultTable table() {
        ResultTable t = new ResultTable(new ResultTable.Meta("sources-and-arrivals", "f",
                List.of("hosts.sources.count", "workload.fanout.arrival.meanGap"), List.of(SOURCES, GAPS),
                List.of("p99PullSeconds", "aggregateGbps"), 9, 2, null));
        int point = 0;
        for (int s = 0; s < 3; s++) {
            for (int g = 0; g < 3; g++) {
                for (int rep = 0; rep < 2; rep++) {
                    double gbps = 782.0 * (1 << s) / (1 + g);
                    t.add(new ResultRow(point, rep, List.of(SOURCES.get(s), GAPS.get(g)), true,
                            new double[] {p99(s, g, rep), gbps}, "NIC mlx5_0's transmit line rate on s0", ""));
                }
                point++;
            }
        }
        return t;
    }

    @Test
    void againstTheArrivalGapEachSourceCountIsALineOfItsOwnConfigurationsMeans() {
        JFreeChart chart = StudyPage.chart(table(), 1, 0);
        var data = (YIntervalSeriesCollection) chart.getXYPlot().getDataset();
        assertEquals(3, data.getSeriesCount(), "one line per source count");
        for (int s = 0; s < 3; s++) {
            assertEquals("hosts.sources.count = " + SOURCES.get(s), data.getSeriesKey(s));
            for (int g = 0; g < 3; g++) {
                assertEquals(new double[] {5, 15, 25}[g], data.getXValue(s, g), 0);
                // the mean of this configuration's two replications, its bar from the one to the other
                assertEquals(p99(s, g, 0) + 0.01, data.getYValue(s, g), 1e-12);
                assertEquals(p99(s, g, 0), data.getStartYValue(s, g), 1e-12);
                assertEquals(p99(s, g, 1), data.getEndYValue(s, g), 1e-12);
            }
        }
        // at 5 ms no line passes the mean over source counts (1.34 s), a configuration that does not exist
        for (int s = 0; s < 3; s++) {
            assertTrue(Math.abs(data.getYValue(s, 0) - 1.34) > 0.2, "series " + s);
        }
        assertEquals("workload.fanout.arrival.meanGap (ms)", chart.getXYPlot().getDomainAxis().getLabel());
        assertEquals("p99 pull time (s)", chart.getXYPlot().getRangeAxis().getLabel());
        assertTrue(captions(chart).contains("mean of a configuration's 2 replications"), captions(chart));
    }

    @Test
    void againstTheSourceCountTheTicksAreWholeAndEachGapIsALine() {
        JFreeChart chart = StudyPage.chart(table(), 0, 1);
        var data = (YIntervalSeriesCollection) chart.getXYPlot().getDataset();
        assertEquals(3, data.getSeriesCount());
        assertEquals("workload.fanout.arrival.meanGap = 5 ms", data.getSeriesKey(0));
        // 4 sources at 5 ms: 3,128 Gbps, not the 2,170-style mean over the three gaps
        assertEquals(782.0 * 4, data.getYValue(0, 2), 1e-9);
        assertEquals("aggregate throughput (Gbps)", chart.getXYPlot().getRangeAxis().getLabel());
        NumberAxis x = (NumberAxis) chart.getXYPlot().getDomainAxis();
        assertEquals("hosts.sources.count", x.getLabel());
        // whole ticks: the smallest tick unit the axis may choose is 1
        assertEquals(1, x.getStandardTickUnits().getCeilingTickUnit(0.1).getSize(), 0);
        assertFalse(captions(chart).contains("CALIBRATED"), "a wire-limited study has no calibrated limit");
    }

    @Test
    void rowsTheTableCallsCalibratedAreSaidUnderTheChart() {
        ResultTable t = new ResultTable(new ResultTable.Meta("s", "f", List.of("hosts.sources.count"),
                List.of(List.of("1", "2")), List.of("aggregateGbps"), 2, 1, null));
        String limit = "NIC mlx5_0's delivered RDMA READ rate on r0, CALIBRATED (308 Gbps, profile gb200-roce)";
        t.add(new ResultRow(0, 0, List.of("1"), true, new double[] {308}, limit,
                List.of("nicReadRate in gb200-roce (calibrated)"), ""));
        t.add(new ResultRow(1, 0, List.of("2"), true, new double[] {391}, "NIC mlx5_0's transmit line rate on s0", ""));
        String caption = captions(StudyPage.chart(t, 0, 0));
        assertTrue(caption.contains("CALIBRATED or ASSUMED limit in 1 of 2 rows"), caption);
        assertTrue(caption.contains("308 Gbps, profile gb200-roce"), caption);
        // an assumed number is not a mechanism either: said as the bar charts say it
        ResultTable efa = new ResultTable(new ResultTable.Meta("s", "f", List.of("hosts.sources.count"),
                List.of(List.of("1", "2")), List.of("aggregateGbps"), 2, 1, null));
        efa.add(new ResultRow(0, 0, List.of("1"), true, new double[] {98}, "s0:rdmap79s0 tx, SRD efficiency assumed in aws-efa",
                List.of("efaWireEfficiency in aws-efa (assumed)"), ""));
        efa.add(new ResultRow(1, 0, List.of("2"), true, new double[] {196}, "NIC mlx5_0's transmit line rate on s0", ""));
        assertTrue(captions(StudyPage.chart(efa, 0, 0)).contains("CALIBRATED or ASSUMED limit in 1 of 2 rows"));
    }

    /**
     * Whether a row's limit is a calibrated or assumed number is the row's own field, not a word in its limiter:
     * a mechanism whose words happen to say "assumed" is not flagged, and a calibrated stage cost whose words do
     * not say so is; both survive the journal.
     */
    @Test
    void theCaptionReadsTheLimitsKindNotItsWords() {
        ResultTable t = new ResultTable(new ResultTable.Meta("s", "f", List.of("hosts.sources.count"),
                List.of(List.of("1", "2")), List.of("aggregateGbps"), 2, 1, null));
        t.add(t.row(t.rowJson(new ResultRow(0, 0, List.of("1"), true, new double[] {1},
                "GPU0@t0 bucket calls", List.of("refit.bucketSeconds (calibrated)"), ""))));
        t.add(t.row(t.rowJson(new ResultRow(1, 0, List.of("2"), true, new double[] {2},
                "NIC mlx5_0's transmit line rate on s0 (no parameter assumed)", ""))));
        String caption = captions(StudyPage.chart(t, 0, 0));
        assertTrue(caption.contains("CALIBRATED or ASSUMED limit in 1 of 2 rows"), caption);
        assertTrue(caption.contains("GPU0@t0 bucket calls (refit.bucketSeconds (calibrated))"), caption);
        assertFalse(caption.contains("no parameter assumed"), caption);
    }

    private static String captions(JFreeChart chart) {
        StringBuilder b = new StringBuilder();
        for (Object t : chart.getSubtitles()) {
            if (t instanceof TextTitle tt) {
                b.append(tt.getText()).append('\n');
            }
        }
        return b.toString();
    }
}
