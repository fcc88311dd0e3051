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
        List<String> restsOn = List.of(
                "refit.bucketSeconds = 0.005646 s, calibrated (whitecircle/halo PR #11: Qwen3-8B synced over EFA)",
                "refit.loadTensorSeconds = 0.00009199 s, calibrated (vllm-project/vime issue #175: slime's engine)",
                "registration: per MR = 16 us, assumed (UCX's own estimate)");
        Optional<CalibratedLimit> l = CalibratedLimit.ofRefit(
                "GPU2 on train0: per-bucket call cost (refit.bucketSeconds, calibrated)", restsOn);
        assertEquals(Optional.of(new CalibratedLimit("refit.bucketSeconds", "0.005646 s", "calibrated", "",
                "whitecircle/halo PR #11")), l);
        assertEquals("calibrated: refit.bucketSeconds 0.005646 s, whitecircle/halo PR #11", l.get().mark());
        // a refit bound by a NIC's wire rate rests on no stage cost
        assertEquals(Optional.empty(), CalibratedLimit.ofRefit("NIC mlx5_0's transmit line rate on t0", restsOn));
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
}
