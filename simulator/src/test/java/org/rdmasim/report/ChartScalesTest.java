package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.List;
import java.util.Optional;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.ValueMarker;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile.Kind;
import org.rdmasim.workload.CycleBound;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.StageParameter;

/** Axis scales, the series palette and the calibrated marks the report's charts carry. */
class ChartScalesTest {
    @Test
    void aSizingCurveFrom1To21SecondsIsDrawnOnALogAxisWithTheTargetInView() {
        JFreeChart c = Charts.sizing("t", "sources", new double[] {1, 2, 4, 8}, new double[] {21, 8, 2.5, 1.0},
                new double[] {22, 9, 3, 1.1}, 2.0);
        var y = c.getXYPlot().getRangeAxis();
        assertInstanceOf(LogAxis.class, y);
        assertTrue(y.getLowerBound() < 1.0 && y.getUpperBound() > 22, y.getRange().toString());
        ValueMarker target = (ValueMarker) c.getXYPlot().getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND).iterator().next();
        assertEquals(2.0, target.getValue(), 0);
        assertEquals("target p99 2 s", target.getLabel());
        NumberAxis x = (NumberAxis) c.getXYPlot().getDomainAxis();
        assertEquals(1, x.getStandardTickUnits().getCeilingTickUnit(0.1).getSize(), 0, "a count has whole ticks");
    }

    @Test
    void aSizingCurveWithinTenfoldStaysLinearFromZero() {
        JFreeChart c = Charts.sizing("t", "sources", new double[] {1, 2}, new double[] {3, 2}, new double[] {4, 3}, 2.5);
        var y = c.getXYPlot().getRangeAxis();
        assertFalse(y instanceof LogAxis);
        assertEquals(0, y.getLowerBound(), 0);
    }

    /** CIE L*a*b* of an sRGB colour (D65 white), for distances as the eye sees them. */
    private static double[] lab(Color c) {
        double[] lin = new double[3];
        int[] rgb = {c.getRed(), c.getGreen(), c.getBlue()};
        for (int i = 0; i < 3; i++) {
            double u = rgb[i] / 255.0;
            lin[i] = u > 0.04045 ? Math.pow((u + 0.055) / 1.055, 2.4) : u / 12.92;
        }
        double x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047;
        double y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
        double z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883;
        java.util.function.DoubleUnaryOperator f = t -> t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16.0 / 116;
        return new double[] {116 * f.applyAsDouble(y) - 16, 500 * (f.applyAsDouble(x) - f.applyAsDouble(y)),
                200 * (f.applyAsDouble(y) - f.applyAsDouble(z))};
    }

    @Test
    void paletteColoursAreFarApartAndNoneIsFaintOnWhite() {
        for (int i = 0; i < Charts.PALETTE.length; i++) {
            double[] a = lab(Charts.PALETTE[i]);
            // yellow (L* ~ 89) on white is hard to see
            assertTrue(a[0] < 75, "faint on white: " + Charts.PALETTE[i]);
            for (int j = i + 1; j < Charts.PALETTE.length; j++) {
                double[] b = lab(Charts.PALETTE[j]);
                double d = Math.sqrt(Math.pow(a[0] - b[0], 2) + Math.pow(a[1] - b[1], 2) + Math.pow(a[2] - b[2], 2));
                // JFreeChart's default red and its dark red, which two NICs of a DGX got, are 27 apart
                assertTrue(d > 30, Charts.PALETTE[i] + " vs " + Charts.PALETTE[j] + ": " + d);
            }
        }
        // past the palette's size a series takes a colour again, with a dash
        int n = Charts.PALETTE.length;
        assertEquals(Charts.colour(0), Charts.colour(n));
        assertTrue(Charts.stroke(0).getDashArray() == null && Charts.stroke(n).getDashArray() != null);
    }

    @Test
    void aBarACalibratedNumberLimitsIsLabelledAndTheCaptionNamesItsMeasurement() {
        var d = new org.jfree.data.category.DefaultCategoryDataset();
        d.addValue(308.0, "aggregate", "pinned");
        d.addValue(391.2, "aggregate", "uncalibrated");
        CalibratedLimit l = new CalibratedLimit("nicReadRate", "308 Gbps", "calibrated", "gb200-roce",
                "ai-dynamo/modelexpress #449");
        JFreeChart c = Charts.bars("t", "Gbps", d, List.of(), java.util.Map.of("pinned", l));
        var gen = c.getCategoryPlot().getRenderer().getDefaultItemLabelGenerator();
        assertEquals("308 calibrated", gen.generateLabel(d, 0, 0));
        assertEquals("391.2", gen.generateLabel(d, 0, 1));
        String captions = c.getSubtitles().stream().filter(t -> t instanceof org.jfree.chart.title.TextTitle)
                .map(t -> ((org.jfree.chart.title.TextTitle) t).getText()).reduce("", String::concat);
        assertTrue(captions.contains("CALIBRATED, not a mechanism: nicReadRate = 308 Gbps (profile gb200-roce), "
                + "fitted to ai-dynamo/modelexpress #449; it limits pinned"), captions);
        assertFalse(captions.contains("uncalibrated"), captions);
    }

    @Test
    void aRefitBoundByACalibratedStageCostNamesThatCostAndItsMeasurement() {
        List<StageParameter> restsOn = List.of(
                new StageParameter("refit.bucketSeconds", "0.005646 s", new StageParameter.Evidence(Kind.CALIBRATED,
                        "whitecircle/halo PR #11: Qwen3-8B synced over EFA")),
                new StageParameter("refit.loadTensorSeconds", "0.00009199 s", new StageParameter.Evidence(
                        Kind.CALIBRATED, "vllm-project/vime issue #175: slime's engine")),
                new StageParameter("registration: per MR", "16 us", new StageParameter.Evidence(Kind.ASSUMED,
                        "UCX's own estimate")));
        Optional<CalibratedLimit> l = CalibratedLimit.ofRefit(refit(restsOn, new CycleBound("GPU2@train0 bucket calls",
                "GPU2 on train0: per-bucket call cost (refit.bucketSeconds, calibrated)",
                List.of("refit.bucketSeconds"))).calibratedBound());
        assertEquals(Optional.of(new CalibratedLimit("refit.bucketSeconds", "0.005646 s", "calibrated", "",
                "whitecircle/halo PR #11")), l);
        assertEquals("calibrated: refit.bucketSeconds 0.005646 s, whitecircle/halo PR #11", l.get().mark());
        // a refit bound by a NIC's wire rate rests on no stage cost
        assertEquals(Optional.empty(), CalibratedLimit.ofRefit(refit(restsOn, new CycleBound("mlx5_0@t0 tx",
                "NIC mlx5_0's transmit line rate on t0", List.of())).calibratedBound()));
        // a bound on two stage costs names both, in the order the answer rests on them
        assertEquals("refit.bucketSeconds + refit.loadTensorSeconds", CalibratedLimit.ofRefit(refit(restsOn,
                new CycleBound("tie", "two calls", List.of("refit.loadTensorSeconds", "refit.bucketSeconds")))
                .calibratedBound()).get().parameter());
    }

    /** A one-cycle refit summary bound by {@code bound}, resting on {@code restsOn}. */
    private static RefitSummary refit(List<StageParameter> restsOn, CycleBound bound) {
        return new RefitSummary("m", "model", 1, 1, 1, 1, 1, List.of(new RefitSummary.Cycle(0, 1.0,
                java.util.Map.of(), 1, bound)), restsOn, List.of(), List.of(), true);
    }

    @Test
    void aLimitThatIsAProfilesCalibratedParameterIsFoundAndAWireIsNot() {
        var read = CalibratedLimit.of(new org.rdmasim.hardware.Bottleneck.NicReadCalibrated("r", "mlx5_0", "gb200-roce"));
        assertEquals("nicReadRate", read.orElseThrow().parameter());
        assertEquals("308 Gbps", read.get().value());
        assertEquals("ai-dynamo/modelexpress #449", read.get().measurement());
        assertEquals(Optional.empty(), CalibratedLimit.of(new org.rdmasim.hardware.Bottleneck.NicWire("s", "mlx5_0",
                org.rdmasim.hardware.Bottleneck.Side.TX, null)));
    }

    /** The rectangle each bar's value label takes as drawn, px, from the drawn bar and the label's font. */
    private static java.util.List<java.awt.geom.Rectangle2D> valueLabels(JFreeChart c, java.awt.geom.Rectangle2D[] area) {
        var img = new java.awt.image.BufferedImage(ChartFiles.WIDTH, ChartFiles.HEIGHT, java.awt.image.BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        var info = new org.jfree.chart.ChartRenderingInfo();
        c.draw(g, new java.awt.geom.Rectangle2D.Double(0, 0, ChartFiles.WIDTH, ChartFiles.HEIGHT), info);
        area[0] = info.getPlotInfo().getDataArea();
        var plot = c.getCategoryPlot();
        var r = (org.jfree.chart.renderer.category.BarRenderer) plot.getRenderer();
        boolean upright = r.getDefaultPositiveItemLabelPosition().getAngle() != 0;
        java.util.List<java.awt.geom.Rectangle2D> out = new java.util.ArrayList<>();
        for (Object o : info.getEntityCollection().getEntities()) {
            if (o instanceof org.jfree.chart.entity.CategoryItemEntity e) {
                var d = e.getDataset();
                int row = d.getRowIndex(e.getRowKey());
                int col = d.getColumnIndex(e.getColumnKey());
                var bar = e.getArea().getBounds2D();
                String label = r.getItemLabelGenerator(row, col).generateLabel(d, row, col);
                var text = r.getItemLabelFont(row, col).getStringBounds(label, g.getFontRenderContext());
                double length = upright ? text.getWidth() : text.getHeight();
                double across = upright ? text.getHeight() : text.getWidth();
                double bottom = bar.getMinY() - r.getItemLabelAnchorOffset();
                out.add(new java.awt.geom.Rectangle2D.Double(bar.getCenterX() - across / 2, bottom - length, across, length));
            }
        }
        g.dispose();
        return out;
    }

    /** The texts of a chart's legends. */
    private static java.util.List<String> legendTexts(JFreeChart c) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (Object t : c.getSubtitles()) {
            if (t instanceof org.jfree.chart.title.LegendTitle l) {
                for (var source : l.getSources()) {
                    var items = source.getLegendItems();
                    for (int i = 0; i < items.getItemCount(); i++) {
                        out.add(items.get(i).getLabel());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void everyValueLabelOfSeed003sBandwidthChartFitsInThePlotAndTheReferenceLinesAreNamedInTheirOwnLegend(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws java.io.IOException {
        // seed003's aggregate-bandwidth chart: 13 variants, a 1232 Gbps bar with "calibrated" on its label, two reference lines
        var d = new org.jfree.data.category.DefaultCategoryDataset();
        double[] gbps = {308, 391.2, 616, 616, 1232, 616, 308, 616, 616, 395.7, 376.4, 398.9, 398.9};
        java.util.Map<String, CalibratedLimit> calibrated = new java.util.HashMap<>();
        CalibratedLimit l = new CalibratedLimit("nicReadRate", "308 Gbps", "calibrated", "gb200-roce", "ai-dynamo/modelexpress #449");
        for (int i = 0; i < gbps.length; i++) {
            d.addValue(gbps[i], "aggregate", "variant-with-a-long-name-" + i);
            if (i != 1 && i < 9) {
                calibrated.put("variant-with-a-long-name-" + i, l);
            }
        }
        List<Charts.Reference> refs = List.of(new Charts.Reference("one 400G NIC line rate", 400),
                new Charts.Reference("ModelExpress #449: 4 x 308 Gbps naive striping ceiling", 1232));
        JFreeChart c = Charts.bars("Bandwidth per variant: seed003-nic-pin-vs-stripe", "Gbps", d, refs, calibrated);
        Charts.captions(c, List.of("one more caption line under the chart, as a report adds after the chart is made"));
        ChartFiles.write(c, tmp, "bw");
        java.awt.geom.Rectangle2D[] area = new java.awt.geom.Rectangle2D[1];
        var labels = valueLabels(c, area);
        assertEquals(gbps.length, labels.size());
        for (var r : labels) {
            assertTrue(area[0].contains(r), "a value label reaches out of the plot " + area[0] + ": " + r);
        }
        for (int i = 0; i < labels.size(); i++) {
            for (int j = i + 1; j < labels.size(); j++) {
                assertFalse(labels.get(i).intersects(labels.get(j)), "labels overlap: " + labels.get(i) + " " + labels.get(j));
            }
        }
        // the lines are in the plot, with no text of their own there; their names and values are in a legend
        var markers = c.getCategoryPlot().getRangeMarkers(org.jfree.chart.ui.Layer.BACKGROUND);
        assertEquals(2, markers.size());
        // behind the bars, so a value label a line crosses is drawn over the line
        assertEquals(null, c.getCategoryPlot().getRangeMarkers(org.jfree.chart.ui.Layer.FOREGROUND));
        for (Object m : markers) {
            assertEquals(null, ((ValueMarker) m).getLabel());
            assertTrue(((ValueMarker) m).getValue() < c.getCategoryPlot().getRangeAxis().getUpperBound());
        }
        assertEquals(List.of("one 400G NIC line rate (400 Gbps)", "ModelExpress #449: 4 x 308 Gbps naive striping ceiling (1232 Gbps)"),
                legendTexts(c));
    }

    @Test
    void aFewWideBarsKeepTheirLabelsLevelAndInsideThePlot() {
        var d = new org.jfree.data.category.DefaultCategoryDataset();
        d.addValue(616.0, "aggregate", "healthy");
        d.addValue(99.88, "aggregate", "port-flap");
        d.addValue(474.5, "aggregate", "degraded");
        JFreeChart c = Charts.bars("t", "Gbps", d, List.of(new Charts.Reference("one 400G NIC line rate", 400)));
        Charts.fitValueLabels(c);
        java.awt.geom.Rectangle2D[] area = new java.awt.geom.Rectangle2D[1];
        for (var r : valueLabels(c, area)) {
            assertTrue(area[0].contains(r), area[0] + " " + r);
            assertTrue(r.getWidth() > r.getHeight(), "level: " + r);
        }
    }

    @Test
    void aReferenceLabelGainsItsValueUnlessItGivesIt() {
        assertEquals("one 400G NIC line rate (400 Gbps)", Charts.referenceText(new Charts.Reference("one 400G NIC line rate", 400), "Gbps"));
        assertEquals("256 TiB: 48-bit", Charts.referenceText(new Charts.Reference("256 TiB: 48-bit", 256), "TiB"));
        assertEquals("48-bit (256 TiB)", Charts.referenceText(new Charts.Reference("48-bit", 256), "TiB"));
        assertEquals("Gbps", Charts.unit("bandwidth (Gbps)"));
        assertEquals("Gbps", Charts.unit("Gbps"));
        assertEquals("", Charts.unit("registered per GPU now"));
    }

    @Test
    void equalFirstAndSteadyCyclesAreOneLineThatSaysSoAndUnequalOnesShowBoth() {
        double[] x = {16, 64, 256};
        double[] t = {0.5, 0.3, 0.2};
        JFreeChart same = Charts.sizing("t", "bucket", x, "first cycle", t, "steady cycle", t.clone(), 0.4, "target");
        var data = same.getXYPlot().getDataset();
        assertEquals(1, data.getSeriesCount());
        assertEquals("first cycle = steady cycle", data.getSeriesKey(0));
        JFreeChart differ = Charts.sizing("t", "bucket", x, "first cycle", new double[] {0.9, 0.3, 0.2}, "steady cycle", t, 0.4,
                "target");
        assertEquals(2, differ.getXYPlot().getDataset().getSeriesCount());
        var r = (org.jfree.chart.renderer.xy.XYLineAndShapeRenderer) differ.getXYPlot().getRenderer();
        // where they meet (64 and 256), the steady cycle's dashed line and hollow ring show round the first's
        assertFalse(r.getSeriesShapesFilled(1));
        assertTrue(r.getSeriesShape(1).getBounds2D().getWidth() > r.lookupSeriesShape(0).getBounds2D().getWidth());
        assertTrue(((java.awt.BasicStroke) r.getSeriesStroke(1)).getDashArray() != null);
    }
}
