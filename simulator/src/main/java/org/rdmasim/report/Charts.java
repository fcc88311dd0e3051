package org.rdmasim.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.rdmasim.workload.RunResult;

/** The chart shapes rdmasim draws. */
public final class Charts {
    /** Longest series drawn; longer ones are thinned (a 5,000-step series made a 4 MB SVG). */
    static final int MAX_POINTS = 500;

    private Charts() {
    }

    /** A reference line across a bar or line chart, e.g. one NIC's line rate. */
    public record Reference(String label, double value) {
    }

    public static JFreeChart bars(String title, String valueAxis, DefaultCategoryDataset data, List<Reference> refs) {
        JFreeChart chart = ChartFactory.createBarChart(title, null, valueAxis, data, PlotOrientation.VERTICAL,
                data.getRowCount() > 1, false, false);
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer r = (BarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setSeriesPaint(0, new Color(31, 119, 180));
        r.setSeriesPaint(1, new Color(255, 127, 14));
        r.setSeriesPaint(2, new Color(44, 160, 44));
        CategoryAxis axis = plot.getDomainAxis();
        if (data.getColumnCount() > 4) {
            axis.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        axis.setMaximumCategoryLabelLines(2);
        for (Reference ref : refs) {
            ValueMarker m = new ValueMarker(ref.value(), new Color(200, 30, 30), new BasicStroke(1.5f,
                    BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            m.setLabel(ref.label());
            m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
            plot.addRangeMarker(m);
        }
        double top = 0;
        for (int row = 0; row < data.getRowCount(); row++) {
            for (int col = 0; col < data.getColumnCount(); col++) {
                Number n = data.getValue(row, col);
                if (n != null) {
                    top = Math.max(top, n.doubleValue());
                }
            }
        }
        for (Reference ref : refs) {
            top = Math.max(top, ref.value());
        }
        if (top > 0) {
            plot.getRangeAxis().setUpperBound(top * 1.12);
        }
        return chart;
    }

    /**
     * Transmit throughput of every sending NIC over time, stacked, so the top edge is the total and
     * each band one NIC's share. Change instants are merged onto one timeline (thinned to at most
     * {@link #MAX_POINTS}) and drawn as steps.
     */
    public static JFreeChart nicThroughput(String title, List<RunResult.LoadSeries> series, List<Reference> refs) {
        java.util.TreeSet<Double> times = new java.util.TreeSet<>();
        for (RunResult.LoadSeries s : series) {
            for (double t : s.timeSeconds()) {
                times.add(t);
            }
        }
        double[] grid = times.stream().mapToDouble(Double::doubleValue).toArray();
        if (grid.length > MAX_POINTS) {
            int step = (grid.length + MAX_POINTS - 1) / MAX_POINTS;
            double[] thin = new double[(grid.length + step - 1) / step + 1];
            int k = 0;
            for (int i = 0; i < grid.length; i += step) {
                thin[k++] = grid[i];
            }
            thin[k++] = grid[grid.length - 1];
            grid = java.util.Arrays.copyOf(thin, k);
        }
        double span = grid.length > 1 ? grid[grid.length - 1] - grid[0] : 1.0;
        double eps = span * 1e-6;
        org.jfree.data.xy.DefaultTableXYDataset data = new org.jfree.data.xy.DefaultTableXYDataset();
        for (RunResult.LoadSeries s : series) {
            XYSeries xy = new XYSeries(s.nic(), true, false);
            int j = 0;
            double before = 0;
            for (double t : grid) {
                double after = before;
                while (j < s.timeSeconds().length && s.timeSeconds()[j] <= t) {
                    after = s.gbps()[j++];
                }
                xy.add(t - eps, before);
                xy.add(t, after);
                before = after;
            }
            data.addSeries(xy);
        }
        JFreeChart chart = ChartFactory.createStackedXYAreaChart(title, "time (s)", "transmit throughput (Gbps)", data,
                PlotOrientation.VERTICAL, series.size() <= 24, false, false);
        XYPlot plot = chart.getXYPlot();
        for (Reference ref : refs) {
            ValueMarker m = new ValueMarker(ref.value(), new Color(200, 30, 30), new BasicStroke(1f));
            m.setLabel(ref.label());
            m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
            plot.addRangeMarker(m);
        }
        return chart;
    }

    /** Bandwidth against message size, log2 size axis, one line per configuration. */
    public static JFreeChart sweep(String title, XYSeriesCollection data, List<Reference> refs) {
        JFreeChart chart = ChartFactory.createXYLineChart(title, "message size (bytes)", "bandwidth (Gbps)", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        org.jfree.chart.axis.LogAxis x = new org.jfree.chart.axis.LogAxis("message size (bytes, log2)");
        x.setBase(2);
        x.setNumberFormatOverride(new java.text.DecimalFormat("0"));
        plot.setDomainAxis(x);
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(r);
        for (Reference ref : refs) {
            ValueMarker m = new ValueMarker(ref.value(), new Color(200, 30, 30), new BasicStroke(1f));
            m.setLabel(ref.label());
            m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
            plot.addRangeMarker(m);
        }
        return chart;
    }

    /** Plain lines over a linear x axis, one per series, with reference lines. */
    public static JFreeChart lines(String title, String xLabel, String yLabel, XYSeriesCollection data, List<Reference> refs) {
        JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = chart.getXYPlot();
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(r);
        for (Reference ref : refs) {
            ValueMarker m = new ValueMarker(ref.value(), new Color(200, 30, 30), new BasicStroke(1.5f,
                    BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            m.setLabel(ref.label());
            m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
            plot.addRangeMarker(m);
        }
        return chart;
    }
}
