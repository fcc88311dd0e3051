package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;
import org.rdmasim.workload.RunResult;

/** What the stacked NIC chart names, and how a bar chart shows a variant with no value. */
class ChartBandsTest {
    /** Host h sends at (h + 1) Gbps from its own start time until 10 s. */
    private static List<RunResult.LoadSeries> hosts(int n) {
        List<RunResult.LoadSeries> out = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            out.add(new RunResult.LoadSeries("h" + h, null, new double[] {0.1 * h, 10}, new double[] {h + 1, 0}));
        }
        return out;
    }

    @Test
    void pastTheLimitTheBandsThatCarriedMostAreNamedAndTheRestSummedIntoOthers() {
        List<RunResult.LoadSeries> series = hosts(40);
        NicSteps steps = NicSteps.of(series, 1000);
        Charts.Bands bands = Charts.Bands.of(series, steps, 16, "hosts");
        assertEquals(16, bands.labels().size());
        assertEquals(25, bands.others());
        assertEquals("others (25 hosts)", bands.labels().get(15));
        // the 15 named are the 15 that carried the most bytes (h25..h39), in their own order
        for (int k = 0; k < 15; k++) {
            assertEquals("h" + (25 + k), bands.labels().get(k));
        }
        // nothing is lost: at every instant the bands sum to the total of all hosts
        for (int i = 0; i < steps.times().length; i++) {
            double all = 0;
            for (double[] v : steps.values()) {
                all += v[i];
            }
            double drawn = 0;
            for (double[] v : bands.values()) {
                drawn += v[i];
            }
            assertEquals(all, drawn, 1e-9 * Math.max(1, all));
        }
    }

    @Test
    void upToTheLimitEverySeriesIsNamedAndNothingIsLumped() {
        List<RunResult.LoadSeries> series = hosts(16);
        Charts.Bands bands = Charts.Bands.of(series, NicSteps.of(series, 1000), 16, "NICs");
        assertEquals(0, bands.others());
        assertEquals(series.stream().map(RunResult.LoadSeries::label).toList(), bands.labels());
    }

    @Test
    void aVariantWithNoValueIsSaidSoWhereItsBarWouldStand() {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        d.addValue(5, "aggregate", "ok");
        d.addValue(null, "aggregate", "broken (FAILED)");
        JFreeChart chart = Charts.bars("t", "Gbps", d, List.of());
        var notes = chart.getCategoryPlot().getAnnotations();
        assertEquals(1, notes.size());
        var note = (org.jfree.chart.annotations.CategoryTextAnnotation) notes.get(0);
        assertEquals("broken (FAILED)", note.getCategory());
        assertEquals("no value", note.getText());
        assertTrue(note.getValue() > 0 && note.getValue() < 5, "drawn just above the axis, below the tallest bar");
    }

    private static double labelAngle(int columns, int rows) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (int c = 0; c < columns; c++) {
            for (int r = 0; r < rows; r++) {
                d.addValue(0.1 + c, "s" + r, "v" + c);
            }
        }
        var renderer = (org.jfree.chart.renderer.category.BarRenderer) Charts.bars("t", "s", d, List.of())
                .getCategoryPlot().getRenderer();
        return renderer.getDefaultPositiveItemLabelPosition().getAngle();
    }

    @Test
    void valueLabelsStandUprightOnlyWhenSideBySideTheyWouldOverlap() {
        // 20 bars in ~820 px: 41 px a bar, narrower than a four-digit label
        assertEquals(-Math.PI / 2, labelAngle(10, 2), 1e-12);
        // 10 or 6 bars: room for each label across its bar
        assertEquals(0, labelAngle(10, 1), 1e-12);
        assertEquals(0, labelAngle(3, 2), 1e-12);
    }
}
