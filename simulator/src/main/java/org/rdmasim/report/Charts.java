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

/**
 * The chart shapes rdmasim draws.
 *
 * <p>Why one class of this size: every chart kind of the reports is drawn the same way (one renderer,
 * one downsampling rule, the same markers); a file per chart would repeat that set-up.
 */
public final class Charts {
    /** Longest series drawn; longer ones are thinned (a 5,000-step series made a 4 MB SVG). */
    static final int MAX_POINTS = 500;

    /** A value axis spanning more than this ratio is drawn on a log scale where a chart allows it. */
    static final double LOG_SPAN = 10;

    /** Most NIC bands a stacked chart shows before it stacks hosts instead. */
    static final int MAX_STACKED_SERIES = 16;

    /**
     * Most bands a stacked chart names: past this the bands that carried the most bytes are kept and
     * the rest summed into one "others" band, so every drawn band has a legend entry (64 unnamed host
     * bands were colours nobody could match to a host).
     */
    static final int MAX_NAMED_BANDS = MAX_STACKED_SERIES;

    /**
     * The bands of a stacked chart: the series that carried the most bytes, in their own order, then
     * (when {@code others} is above zero) one band summing the other {@code others} series.
     */
    record Bands(List<String> labels, List<double[]> values, int others) {
        static Bands of(List<RunResult.LoadSeries> series, NicSteps steps, int named, String what) {
            int n = series.size();
            if (n <= named) {
                return new Bands(series.stream().map(RunResult.LoadSeries::label).toList(),
                        java.util.Arrays.asList(steps.values()), 0);
            }
            Integer[] order = new Integer[n];
            for (int k = 0; k < n; k++) {
                order[k] = k;
            }
            // most bytes first; ties keep series order, so the choice is the same on every run
            java.util.Arrays.sort(order, java.util.Comparator.comparingDouble((Integer k) -> -steps.gigabits(k))
                    .thenComparingInt(k -> k));
            java.util.Set<Integer> kept = new java.util.TreeSet<>(java.util.Arrays.asList(order).subList(0, named - 1));
            List<String> labels = new java.util.ArrayList<>();
            List<double[]> values = new java.util.ArrayList<>();
            double[] rest = new double[steps.times().length];
            for (int k = 0; k < n; k++) {
                if (kept.contains(k)) {
                    labels.add(series.get(k).label());
                    values.add(steps.values()[k]);
                } else {
                    for (int i = 0; i < rest.length; i++) {
                        rest[i] += steps.values()[k][i];
                    }
                }
            }
            int others = n - kept.size();
            labels.add("others (" + others + " " + what + ")");
            values.add(rest);
            return new Bands(labels, values, others);
        }
    }

    /** Lines without markers, each series drawn as one path (small SVGs for long series). */
    static org.jfree.chart.renderer.xy.XYLineAndShapeRenderer pathRenderer(int series) {
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true);
        paint(r, series);
        return r;
    }

    /** Sums the NIC series of each host into one step series per host. */
    static List<RunResult.LoadSeries> perHost(List<RunResult.LoadSeries> series) {
        java.util.Map<String, List<RunResult.LoadSeries>> byHost = new java.util.LinkedHashMap<>();
        for (RunResult.LoadSeries s : series) {
            byHost.computeIfAbsent(s.host(), k -> new java.util.ArrayList<>()).add(s);
        }
        List<RunResult.LoadSeries> out = new java.util.ArrayList<>();
        for (var e : byHost.entrySet()) {
            java.util.TreeSet<Double> times = new java.util.TreeSet<>();
            for (RunResult.LoadSeries s : e.getValue()) {
                for (double t : s.timeSeconds()) {
                    times.add(t);
                }
            }
            double[] t = times.stream().mapToDouble(Double::doubleValue).toArray();
            double[] v = new double[t.length];
            for (RunResult.LoadSeries s : e.getValue()) {
                int j = 0;
                double current = 0;
                for (int i = 0; i < t.length; i++) {
                    while (j < s.timeSeconds().length && s.timeSeconds()[j] <= t[i]) {
                        current = s.gbps()[j++];
                    }
                    v[i] += current;
                }
            }
            out.add(new RunResult.LoadSeries(e.getKey(), null, t, v));
        }
        return out;
    }

    private Charts() {
    }

    /** A reference line across a bar or line chart, e.g. one NIC's line rate. */
    public record Reference(String label, double value) {
    }

    /**
     * The reference lines' colours, one per line in order (then again): none is a colour of {@link #PALETTE}, so a
     * reference is not read as one more series.
     */
    static final Color[] REFERENCE_COLOURS = {new Color(200, 30, 30), new Color(70, 70, 70), new Color(130, 70, 20)};

    /** The reference lines' dash patterns, one per line in order (then again). */
    private static final float[][] REFERENCE_DASHES = {{6f, 4f}, {2f, 3f}, {10f, 3f, 2f, 3f}, {12f, 6f}};

    /**
     * Reference line {@code i}: a dash and colour of its own, and no text in the plot. Its name is in the legend
     * under the plot ({@link #referenceLegend}): a label drawn on the line lay over the bars' value labels and
     * over the next line's label, and one near the top was cut by the plot's edge ("232 calibrated" for 1232).
     */
    static ValueMarker marker(int i) {
        return new ValueMarker(0, REFERENCE_COLOURS[i % REFERENCE_COLOURS.length], new BasicStroke(1.5f,
                BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, REFERENCE_DASHES[i % REFERENCE_DASHES.length], 0f));
    }

    /**
     * Draws {@code refs} as dashed lines across the plot and names each, with its value, in a legend of its own
     * under the plot, where JFreeChart lays the entries out side by side and wraps them, so no name is cut or
     * drawn over another. {@code valueAxis} gives the unit: its text in brackets, or the whole text when it is
     * one word ("Gbps").
     */
    static void referenceLegend(JFreeChart chart, List<Reference> refs, String valueAxis) {
        if (refs.isEmpty()) {
            return;
        }
        String unit = unit(valueAxis);
        org.jfree.chart.LegendItemCollection items = new org.jfree.chart.LegendItemCollection();
        for (int i = 0; i < refs.size(); i++) {
            Reference ref = refs.get(i);
            ValueMarker m = marker(i);
            m.setValue(ref.value());
            // behind the bars, lines and value labels: a label the line crosses is drawn over it, not under it
            if (chart.getPlot() instanceof CategoryPlot p) {
                p.addRangeMarker(m, org.jfree.chart.ui.Layer.BACKGROUND); // bars() sets its axis to reach the line
            } else {
                XYPlot p = chart.getXYPlot();
                p.addRangeMarker(m, org.jfree.chart.ui.Layer.BACKGROUND);
                // the axis ranges over the data: a line above it would be named under the plot and not drawn
                if (p.getRangeAxis().getUpperBound() < ref.value() * 1.03) {
                    p.getRangeAxis().setUpperBound(ref.value() * 1.03);
                }
            }
            items.add(new org.jfree.chart.LegendItem(referenceText(ref, unit), null, null, null,
                    new java.awt.geom.Line2D.Double(-14, 0, 14, 0), m.getStroke(), m.getPaint()));
        }
        org.jfree.chart.title.LegendTitle legend = new org.jfree.chart.title.LegendTitle(() -> items);
        legend.setPosition(org.jfree.chart.ui.RectangleEdge.BOTTOM);
        legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        legend.setItemPaint(new Color(60, 60, 60));
        legend.setFrame(org.jfree.chart.block.BlockBorder.NONE);
        legend.setBackgroundPaint(null);
        // added last: drawn next to the plot, inside the series legend and the captions
        chart.addSubtitle(legend);
    }

    /**
     * A reference's legend text: its label, then its value with the unit, unless the label already gives both
     * ("256 TiB: 48-bit" does; "one 400G NIC line rate" does not say Gbps).
     */
    static String referenceText(Reference ref, String unit) {
        String value = org.rdmasim.hardware.Units.number(ref.value());
        String valueText = value + (unit.isEmpty() ? "" : " " + unit);
        boolean stated = java.util.regex.Pattern.compile("(^|[^0-9.])" + java.util.regex.Pattern.quote(value)
                + (unit.isEmpty() ? "" : " ?" + java.util.regex.Pattern.quote(unit)) + "($|[^0-9.A-Za-z])")
                .matcher(ref.label()).find();
        return stated ? ref.label() : ref.label() + " (" + valueText + ")";
    }

    /** The unit an axis label names: "bandwidth (Gbps)" and "Gbps" give Gbps, "seconds" gives s. */
    static String unit(String axis) {
        if (axis == null) {
            return "";
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(([^()]+)\\)\\s*$").matcher(axis);
        if (m.find()) {
            return m.group(1);
        }
        if (axis.equals("seconds")) {
            return "s";
        }
        return axis.contains(" ") ? "" : axis;
    }

    /**
     * The series colours: Okabe and Ito's colour-blind-safe qualitative palette (Okabe and Ito, "Color
     * Universal Design", 2008, https://jfly.uni-koeln.de/color/) without its yellow, which is faint on white,
     * and its sky blue, which beside its blue reads as the same colour in a thin line. Past these six a
     * series takes the colours again with a dash pattern ({@link #stroke}).
     */
    static final Color[] PALETTE = {new Color(0, 114, 178), new Color(230, 159, 0), new Color(0, 158, 115),
            new Color(213, 94, 0), new Color(204, 121, 167), new Color(0, 0, 0)};

    /** Series {@code i}'s colour. */
    static Color colour(int i) {
        return PALETTE[i % PALETTE.length];
    }

    /** Series {@code i}'s line: solid for the first round of colours, then dashed, dotted, dash-dotted. */
    static BasicStroke stroke(int i) {
        float[][] dashes = {null, {8f, 4f}, {2f, 3f}, {8f, 3f, 2f, 3f}};
        float[] dash = dashes[(i / PALETTE.length) % dashes.length];
        return dash == null ? new BasicStroke(2f) : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                10f, dash, 0f);
    }

    /** Colours and lines of every series of an XY renderer from {@link #PALETTE}. */
    static void paint(org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r, int series) {
        for (int i = 0; i < series; i++) {
            r.setSeriesPaint(i, colour(i));
            r.setSeriesStroke(i, stroke(i));
        }
    }

    /**
     * A line of text under the chart, below its legend (wrapped to the chart's width): what a reader must
     * know to read it, such as the calibrated number a bar stands on or the NICs left out.
     */
    public static void caption(JFreeChart chart, String text) {
        org.jfree.chart.title.TextTitle t = new org.jfree.chart.title.TextTitle(text,
                new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        t.setPosition(org.jfree.chart.ui.RectangleEdge.BOTTOM);
        t.setHorizontalAlignment(org.jfree.chart.ui.HorizontalAlignment.LEFT);
        t.setTextAlignment(org.jfree.chart.ui.HorizontalAlignment.LEFT);
        t.setPaint(new Color(60, 60, 60));
        t.setPadding(2, 8, 2, 8);
        // index 0: drawn at the outer edge, so under the legend
        chart.addSubtitle(0, t);
    }

    /** Each line of {@code lines} under the chart, in order, top to bottom. */
    public static void captions(JFreeChart chart, List<String> lines) {
        for (String line : lines) {
            caption(chart, line); // each goes outermost: the last line ends at the bottom
        }
    }

    /**
     * The caption lines for variants whose figures a calibrated (or assumed) number limits: one line per
     * number, naming it, its profile and its measurement, and the variants it limits.
     */
    static List<String> calibratedCaptions(java.util.Map<String, CalibratedLimit> limits, String marked) {
        java.util.Map<CalibratedLimit, List<String>> byLimit = new java.util.LinkedHashMap<>();
        limits.forEach((variant, l) -> byLimit.computeIfAbsent(l, k -> new java.util.ArrayList<>()).add(variant));
        List<String> out = new java.util.ArrayList<>();
        byLimit.forEach((l, variants) -> out.add(l.sentence() + "; it limits " + String.join(", ", variants)
                + String.format(java.util.Locale.ROOT, marked, l.kind()) + "."));
        return out;
    }

    /** Bars as {@link #bars(String, String, DefaultCategoryDataset, List)} with no calibrated number marked. */
    public static JFreeChart bars(String title, String valueAxis, DefaultCategoryDataset data, List<Reference> refs) {
        return bars(title, valueAxis, data, refs, java.util.Map.of());
    }

    /**
     * Bars of {@code data}, one group per column. {@code calibrated} maps a column to the calibrated (or
     * assumed) number that limits its values: those bars' value labels say "calibrated" and a caption names
     * the number, its profile and its measurement.
     */
    public static JFreeChart bars(String title, String valueAxis, DefaultCategoryDataset data, List<Reference> refs,
            java.util.Map<String, CalibratedLimit> calibrated) {
        JFreeChart chart = ChartFactory.createBarChart(title, null, valueAxis, data, PlotOrientation.VERTICAL,
                data.getRowCount() > 1, false, false);
        CategoryPlot plot = chart.getCategoryPlot();
        LabelledBars r = new LabelledBars();
        // as ChartFactory set up its own renderer: labels above a bar, the theme's fonts and colours
        r.setDefaultPositiveItemLabelPosition(new org.jfree.chart.labels.ItemLabelPosition(
                org.jfree.chart.labels.ItemLabelAnchor.OUTSIDE12, TextAnchor.BOTTOM_CENTER));
        plot.setRenderer(r);
        ChartFactory.getChartTheme().apply(chart);
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        for (int i = 0; i < data.getRowCount(); i++) {
            r.setSeriesPaint(i, colour(i));
        }
        CategoryAxis axis = plot.getDomainAxis();
        if (data.getColumnCount() > 4) {
            axis.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        axis.setMaximumCategoryLabelLines(2);
        referenceLegend(chart, refs, valueAxis);
        double top = 0;
        for (int row = 0; row < data.getRowCount(); row++) {
            for (int col = 0; col < data.getColumnCount(); col++) {
                Number n = data.getValue(row, col);
                if (n != null && n.doubleValue() > 0) {
                    top = Math.max(top, n.doubleValue());
                }
            }
        }
        for (Reference ref : refs) {
            top = Math.max(top, ref.value());
        }
        // A bar's length is its value: the axis is linear from zero (a log axis makes a 4x gap look like
        // 1.5x and puts ticks at 3.981), and every bar carries its value, so a short one is still read.
        // a bar a calibrated number limits says so on its label, as the text reports say so in words
        SignificantFormat digits = new SignificantFormat();
        r.setDefaultItemLabelGenerator(new org.jfree.chart.labels.StandardCategoryItemLabelGenerator("{2}", digits) {
            @Override
            public String generateLabel(org.jfree.data.category.CategoryDataset d, int row, int column) {
                String label = super.generateLabel(d, row, column);
                CalibratedLimit l = calibrated.get(String.valueOf(d.getColumnKey(column)));
                return l == null || label == null ? label : label + " " + l.kind();
            }
        });
        r.setDefaultItemLabelsVisible(true);
        // Labels side by side overlap once a bar's slot is narrower than a label ("0.1127" is ~42 px at
        // this font, "615.9 calibrated" ~100 px): then each label stands upright on its bar, with room above
        // the tallest one.
        int bars = Math.max(1, data.getColumnCount() * data.getRowCount());
        int widest = calibrated.isEmpty() ? 0 : 7 * (6 + 1 + "calibrated".length()) + 6;
        boolean upright = (double) (ChartFiles.WIDTH - 80) / bars < Math.max(48, widest);
        if (upright) {
            r.setDefaultPositiveItemLabelPosition(new org.jfree.chart.labels.ItemLabelPosition(
                    org.jfree.chart.labels.ItemLabelAnchor.OUTSIDE12, TextAnchor.CENTER_LEFT, TextAnchor.CENTER_LEFT,
                    -Math.PI / 2));
            r.setItemLabelAnchorOffset(4);
        }
        // A variant with no value (a failed one) has no bar; say so where its bar would stand, so the gap
        // is not read as a value too small to see.
        for (int col = 0; col < data.getColumnCount(); col++) {
            boolean empty = true;
            for (int row = 0; row < data.getRowCount(); row++) {
                empty &= data.getValue(row, col) == null;
            }
            if (empty) {
                org.jfree.chart.annotations.CategoryTextAnnotation a = new org.jfree.chart.annotations.CategoryTextAnnotation(
                        "no value", data.getColumnKey(col), top > 0 ? top * 0.03 : 0.03);
                a.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
                a.setPaint(new Color(176, 0, 32));
                a.setTextAnchor(TextAnchor.BOTTOM_CENTER);
                plot.addAnnotation(a);
            }
        }
        if (top > 0) {
            // a first guess; ChartFiles sets the top from the drawn plot's height (fitValueLabels)
            plot.getRangeAxis().setRange(0, top * 1.15);
            ((org.jfree.chart.axis.NumberAxis) plot.getRangeAxis()).setNumberFormatOverride(new SignificantFormat());
        }
        r.top = top;
        r.upright = upright;
        java.util.Map<String, CalibratedLimit> drawn = new java.util.LinkedHashMap<>();
        for (int col = 0; col < data.getColumnCount(); col++) {
            String key = String.valueOf(data.getColumnKey(col));
            if (calibrated.containsKey(key)) {
                drawn.put(key, calibrated.get(key));
            }
        }
        captions(chart, calibratedCaptions(drawn, " (bars labelled '%s')"));
        return chart;
    }

    /** The bars of {@link #bars}: what the value axis must reach, and how the value labels stand. */
    static final class LabelledBars extends BarRenderer {
        private static final long serialVersionUID = 1L;
        /** The tallest bar or reference line; 0 when there is none. */
        double top;
        /** Whether the value labels stand upright (their length is their height). */
        boolean upright;

        /**
         * A label above its bar is drawn on a patch of the plot's background: a reference line it crosses
         * (drawn behind the bars) then stops at the label's edge instead of running through its digits.
         */
        @Override
        protected void drawItemLabel(java.awt.Graphics2D g2, org.jfree.data.category.CategoryDataset data, int row,
                int column, CategoryPlot plot, org.jfree.chart.labels.CategoryItemLabelGenerator generator,
                java.awt.geom.Rectangle2D bar, boolean negative) {
            var position = negative ? getNegativeItemLabelPosition(row, column) : getPositiveItemLabelPosition(row, column);
            String label = generator == null ? null : generator.generateLabel(data, row, column);
            if (label != null && !negative && plot.getOrientation() == PlotOrientation.VERTICAL
                    && position.getItemLabelAnchor() == org.jfree.chart.labels.ItemLabelAnchor.OUTSIDE12) {
                g2.setFont(getItemLabelFont(row, column));
                // where BarRenderer puts an OUTSIDE12 label: the bar's centre, the anchor offset above its top
                java.awt.Shape box = org.jfree.chart.text.TextUtils.calculateRotatedStringBounds(label, g2,
                        (float) bar.getCenterX(), (float) (bar.getMinY() - getItemLabelAnchorOffset()),
                        position.getTextAnchor(), position.getAngle(), position.getRotationAnchor());
                if (box != null) {
                    java.awt.Paint before = g2.getPaint();
                    g2.setPaint(plot.getBackgroundPaint() instanceof Color c ? c : Color.WHITE);
                    g2.fill(box);
                    g2.setPaint(before);
                }
            }
            super.drawItemLabel(g2, data, row, column, plot, generator, bar, negative);
        }
    }

    /** Room left between a value label's end and the plot's edge, px. */
    static final double LABEL_MARGIN = 4;

    /**
     * Sets the top of a {@link #bars} chart's value axis so that each bar's value label ends inside the plot:
     * draws the chart once at {@link ChartFiles#WIDTH} x {@link ChartFiles#HEIGHT} to learn the plot's height
     * (what the title, the slanted names, the legends and the captions leave), then for each bar, whose label
     * needs its own length (upright) or height above it, the top at which that much room is left above it.
     * The plot's height does not depend on the axis's range, so one drawing is enough. Charts of other
     * shapes are left as they are.
     */
    static void fitValueLabels(JFreeChart chart) {
        if (!(chart.getPlot() instanceof CategoryPlot plot) || !(plot.getRenderer() instanceof LabelledBars r)
                || r.top <= 0) {
            return;
        }
        var img = new java.awt.image.BufferedImage(ChartFiles.WIDTH, ChartFiles.HEIGHT,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = img.createGraphics();
        try {
            var info = new org.jfree.chart.ChartRenderingInfo();
            chart.draw(g, new java.awt.geom.Rectangle2D.Double(0, 0, ChartFiles.WIDTH, ChartFiles.HEIGHT), info);
            double height = info.getPlotInfo().getDataArea().getHeight();
            // a reference line at the very top would be drawn on the plot's edge
            double upper = r.top * 1.03;
            var data = plot.getDataset();
            for (int row = 0; row < data.getRowCount(); row++) {
                for (int col = 0; col < data.getColumnCount(); col++) {
                    Number n = data.getValue(row, col);
                    if (n == null || n.doubleValue() <= 0) {
                        continue;
                    }
                    String label = r.getItemLabelGenerator(row, col).generateLabel(data, row, col);
                    var bounds = r.getItemLabelFont(row, col).getStringBounds(label, g.getFontRenderContext());
                    double room = r.getItemLabelAnchorOffset() + (r.upright ? bounds.getWidth() : bounds.getHeight())
                            + LABEL_MARGIN;
                    // the bar's top at v/upper of the height, so (1 - v/upper) * height is left above it
                    if (room < 0.9 * height) {
                        upper = Math.max(upper, n.doubleValue() / (1 - room / height));
                    }
                }
            }
            plot.getRangeAxis().setRange(0, upper);
        } finally {
            g.dispose();
        }
    }

    /**
     * Transmit throughput of every sending NIC over time, stacked, so the top edge is the total and
     * each band one NIC's share. Change instants are merged onto one timeline (thinned to at most
     * {@link #MAX_POINTS}) and drawn as steps.
     */
    public static JFreeChart nicThroughput(String title, List<RunResult.LoadSeries> series, List<Reference> refs) {
        boolean perHost = series.size() > MAX_STACKED_SERIES;
        if (perHost) {
            // Too many bands to read (and a multi-megabyte SVG): stack hosts instead of NICs.
            series = perHost(series);
            title = title + " (per host)";
        }
        NicSteps steps = NicSteps.of(series, MAX_POINTS / 2);
        if (steps.binned()) {
            title = title + String.format(java.util.Locale.ROOT, " (averaged over %s s bins)",
                    org.rdmasim.hardware.Units.number(steps.binSeconds()));
        }
        Bands bands = Bands.of(series, steps, MAX_NAMED_BANDS, perHost ? "hosts" : "NICs");
        // Stacked by hand: each band's top edge is the running total, drawn as one path per band (a
        // stacked-area renderer writes one SVG element per point and made multi-megabyte files). Every
        // change is drawn where it happens: a vertical step at its instant (repeated x values allowed).
        XYSeriesCollection data = new XYSeriesCollection();
        double[] grid = steps.times();
        double[] below = new double[grid.length];
        for (int k = 0; k < bands.labels().size(); k++) {
            XYSeries xy = new XYSeries(bands.labels().get(k), false, true);
            double[] v = bands.values().get(k);
            double previousTop = 0;
            for (int i = 0; i < grid.length; i++) {
                double top = below[i] + v[i];
                xy.add(grid[i], i == 0 ? below[i] : previousTop);
                xy.add(grid[i], top);
                previousTop = top;
                below[i] = top;
            }
            data.addSeries(xy);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "time (s)", "transmit throughput, stacked (Gbps)", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(pathRenderer(data.getSeriesCount()));
        if (bands.others() > 0) {
            // the lumped band in grey, so it is not read as one more host or NIC
            ((org.jfree.chart.renderer.xy.XYLineAndShapeRenderer) plot.getRenderer()).setSeriesPaint(
                    data.getSeriesCount() - 1, new Color(150, 150, 150));
            ((org.jfree.chart.renderer.xy.XYLineAndShapeRenderer) plot.getRenderer()).setSeriesStroke(
                    data.getSeriesCount() - 1, new BasicStroke(2f));
        }
        referenceLegend(chart, refs, "transmit throughput, stacked (Gbps)");
        return chart;
    }

    /**
     * Draws each scheduled fault's start or end on a time chart: a dashed vertical line labelled with
     * what happened ("receiver:mlx5_1 port down"), so a throughput step can be read against its cause.
     */
    static void markFaults(JFreeChart chart, List<RunResult.FaultRecord> log) {
        XYPlot plot = chart.getXYPlot();
        for (RunResult.FaultRecord f : log) {
            if (!f.fault()) {
                continue;
            }
            ValueMarker m = new ValueMarker(f.atSeconds(), new Color(150, 40, 150), new BasicStroke(1.2f,
                    BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {5f, 4f}, 0f));
            m.setLabel(f.what());
            m.setLabelFont(new java.awt.Font("SansSerif", java.awt.Font.PLAIN, 10));
            m.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_RIGHT);
            m.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.TOP_LEFT);
            plot.addDomainMarker(m);
        }
    }

    /** Bandwidth against message size, log2 size axis, one line per configuration. */
    public static JFreeChart sweep(String title, XYSeriesCollection data, List<Reference> refs) {
        JFreeChart chart = ChartFactory.createXYLineChart(title, "message size (bytes)", "bandwidth (Gbps)", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        org.jfree.chart.axis.LogAxis x = new org.jfree.chart.axis.LogAxis("message size (log2)");
        x.setBase(2);
        x.setNumberFormatOverride(new BinarySizeFormat());
        plot.setDomainAxis(x);
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, true);
        paint(r, data.getSeriesCount());
        plot.setRenderer(r);
        referenceLegend(chart, refs, "bandwidth (Gbps)");
        return chart;
    }

    /**
     * Cumulative distribution of per-receiver pull time, one line per variant; each line keeps at most
     * {@link #MAX_POINTS} quantiles (evenly spaced ranks, the last one always kept).
     */
    public static JFreeChart pullCdf(String title, java.util.Map<String, double[]> sortedPulls) {
        XYSeriesCollection data = cumulative(sortedPulls, true);
        JFreeChart chart = ChartFactory.createXYLineChart(title, "pull time (s)", "fraction of receivers", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(pathRenderer(data.getSeriesCount()));
        plot.getRangeAxis().setRange(0, 1.02);
        return chart;
    }

    /**
     * For each sorted sample, how many values (or what fraction, with {@code fraction}) are reached by
     * each x: a step curve thinned to at most {@link #MAX_POINTS} steps (evenly spaced ranks, the last
     * always kept), with explicit corners so each curve is one SVG path.
     */
    static XYSeriesCollection cumulative(java.util.Map<String, double[]> sorted, boolean fraction) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (java.util.Map.Entry<String, double[]> e : sorted.entrySet()) {
            double[] xs = e.getValue();
            XYSeries xy = new XYSeries(e.getKey(), false, true);
            int n = xs.length;
            double scale = fraction ? n : 1.0;
            int step = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
            double previous = 0;
            for (int i = 0; i < n; i += step) {
                xy.add(xs[i], previous);
                previous = (i + 1) / scale;
                xy.add(xs[i], previous);
            }
            if (n > 0 && (n - 1) % step != 0) {
                xy.add(xs[n - 1], previous);
                xy.add(xs[n - 1], n / scale);
            }
            data.addSeries(xy);
        }
        return data;
    }

    /** One bar of the receiver timeline: waiting for a source from arrival to post, then pulling to finish. */
    public record TimelineBar(double arrivalSeconds, double postSeconds, double finishSeconds) {
    }

    /**
     * Receiver timeline (a Gantt of arrival, post and finish per receiver), receivers in arrival order.
     * More than {@link #MAX_POINTS} receivers are sampled: every k-th, the title says which.
     */
    public static JFreeChart receiverTimeline(String title, List<TimelineBar> bars) {
        int n = bars.size();
        int step = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
        org.jfree.data.xy.XYIntervalSeries waiting = new org.jfree.data.xy.XYIntervalSeries("waiting for a source");
        org.jfree.data.xy.XYIntervalSeries pulling = new org.jfree.data.xy.XYIntervalSeries("pulling");
        int row = 0;
        for (int i = 0; i < n; i += step) {
            TimelineBar b = bars.get(i);
            if (b.postSeconds() > b.arrivalSeconds()) {
                waiting.add(row, row - 0.4, row + 0.4, b.arrivalSeconds(), b.arrivalSeconds(), b.postSeconds());
            }
            pulling.add(row, row - 0.4, row + 0.4, b.postSeconds(), b.postSeconds(), b.finishSeconds());
            row++;
        }
        org.jfree.data.xy.XYIntervalSeriesCollection data = new org.jfree.data.xy.XYIntervalSeriesCollection();
        data.addSeries(pulling);
        data.addSeries(waiting);
        String label = step == 1 ? "receiver (arrival order)" : "receiver (every " + step + "th of " + n + ", arrival order)";
        org.jfree.chart.axis.NumberAxis x = new org.jfree.chart.axis.NumberAxis(label);
        org.jfree.chart.axis.NumberAxis y = new org.jfree.chart.axis.NumberAxis("time (s)");
        y.setAutoRangeIncludesZero(false);
        org.jfree.chart.renderer.xy.XYBarRenderer r = new org.jfree.chart.renderer.xy.XYBarRenderer();
        r.setUseYInterval(true);
        r.setShadowVisible(false);
        r.setBarPainter(new org.jfree.chart.renderer.xy.StandardXYBarPainter());
        r.setSeriesPaint(0, new Color(31, 119, 180));
        r.setSeriesPaint(1, new Color(255, 187, 120));
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        x.setInverted(true);
        return new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }

    /** A sizing sweep: p99 pull time and makespan against the knob's value, with the target drawn across. */
    public static JFreeChart sizing(String title, String knob, double[] values, double[] p99, double[] makespan,
            double targetSeconds) {
        return sizing(title, knob, values, "p99 pull time", p99, "makespan", makespan, targetSeconds, "target p99");
    }

    /** A sizing search's two figures against the knob, with the target as a line labelled {@code targetLabel}. */
    public static JFreeChart sizing(String title, String knob, double[] values, String firstName, double[] first,
            String secondName, double[] second, double targetSeconds, String targetLabel) {
        XYSeriesCollection data = new XYSeriesCollection();
        // Two equal figures at every point (a refit engine that registers nothing has a first cycle as long as
        // its steady one) drew one line over the other, and the legend named a line nobody could see: then one
        // line says both are equal.
        boolean same = java.util.Arrays.equals(first, second);
        XYSeries a = new XYSeries(same ? firstName + " = " + secondName : firstName);
        XYSeries b = new XYSeries(secondName);
        for (int i = 0; i < values.length; i++) {
            a.add(values[i], first[i]);
            b.add(values[i], second[i]);
        }
        data.addSeries(a);
        if (!same) {
            data.addSeries(b);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, knob, "seconds", data, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = chart.getXYPlot();
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, true);
        paint(r, 2);
        // where the two meet at some points only, the second shows round the first: a dashed line and a hollow
        // ring wider than the first's filled square
        r.setSeriesStroke(1, new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 4f}, 0f));
        r.setSeriesShape(1, new java.awt.geom.Ellipse2D.Double(-6, -6, 12, 12));
        r.setSeriesShapesFilled(1, false);
        plot.setRenderer(r);
        // the first series drawn last, on top: the ring stays visible round its square
        plot.setSeriesRenderingOrder(org.jfree.chart.plot.SeriesRenderingOrder.REVERSE);
        // the knob is a count (hosts, receivers): whole ticks only
        ((org.jfree.chart.axis.NumberAxis) plot.getDomainAxis()).setStandardTickUnits(
                org.jfree.chart.axis.NumberAxis.createIntegerTickUnits());
        double low = targetSeconds;
        double high = targetSeconds;
        for (int i = 0; i < values.length; i++) {
            for (double v : new double[] {first[i], second[i]}) {
                if (v > 0 && Double.isFinite(v)) {
                    low = Math.min(low, v);
                    high = Math.max(high, v);
                }
            }
        }
        if (low > 0 && high / low > LOG_SPAN) {
            // 1 s beside 21 s on a linear axis squashes the points near the target into one line
            org.jfree.chart.axis.LogAxis y = new org.jfree.chart.axis.LogAxis("seconds (log scale)");
            y.setNumberFormatOverride(new SignificantFormat());
            // ticks at whole decades (0.1, 1, 10), the steps between marked: fractional exponents put ticks at 3.981
            y.setStandardTickUnits(org.jfree.chart.axis.NumberAxis.createIntegerTickUnits());
            y.setMinorTickCount(9);
            y.setMinorTickMarksVisible(true);
            y.setSmallestValue(low / 2);
            // whole decades from below the lowest point to above the highest, so both ends carry a tick
            y.setRange(0.999 * Math.pow(10, Math.floor(Math.log10(low / 1.05))),
                    1.001 * Math.pow(10, Math.ceil(Math.log10(high * 1.05))));
            plot.setRangeAxis(y);
        } else if (high > 0) {
            plot.getRangeAxis().setRange(0, high * 1.08);
        }
        ValueMarker m = new ValueMarker(targetSeconds, new Color(200, 30, 30), new BasicStroke(1.5f,
                BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        m.setLabel(targetLabel + " " + org.rdmasim.hardware.Units.number(targetSeconds) + " s");
        m.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 11));
        m.setLabelPaint(new Color(200, 30, 30));
        m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        m.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        plot.addRangeMarker(m);
        return chart;
    }

    /**
     * Receivers holding the model against time, one line per configuration: where a line reaches the
     * receiver count is that configuration's makespan. Thinned to {@link #MAX_POINTS} points per line.
     */
    public static JFreeChart receiversVsTime(String title, java.util.Map<String, double[]> sortedFinishes) {
        XYSeriesCollection data = cumulative(sortedFinishes, false);
        JFreeChart chart = ChartFactory.createXYLineChart(title, "time since the pull phase began (s)",
                "receivers with the model", data, PlotOrientation.VERTICAL, true, false, false);
        chart.getXYPlot().setRenderer(pathRenderer(data.getSeriesCount()));
        return chart;
    }

    /** Plain lines over a linear x axis, one per series, with reference lines. */
    public static JFreeChart lines(String title, String xLabel, String yLabel, XYSeriesCollection data, List<Reference> refs) {
        JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = chart.getXYPlot();
        org.jfree.chart.renderer.xy.XYLineAndShapeRenderer r = new org.jfree.chart.renderer.xy.XYLineAndShapeRenderer(true, true);
        paint(r, data.getSeriesCount());
        plot.setRenderer(r);
        referenceLegend(chart, refs, yLabel);
        return chart;
    }

    /**
     * A figure against one knob of a study, one line per combination of the other knobs, each point with a
     * bar over its replications' spread. {@code ticks} names the x positions 0, 1, ... when the knob's values
     * are not numbers; {@code integer} asks for whole ticks (a count of hosts or sources).
     */
    public static JFreeChart knobLines(String title, String xLabel, String yLabel,
            org.jfree.data.xy.YIntervalSeriesCollection data, boolean integer, List<String> ticks, List<String> caption) {
        org.jfree.chart.axis.NumberAxis x = ticks.isEmpty() ? new org.jfree.chart.axis.NumberAxis(xLabel)
                : new org.jfree.chart.axis.SymbolAxis(xLabel, ticks.toArray(new String[0]));
        x.setAutoRangeIncludesZero(false);
        if (integer && ticks.isEmpty()) {
            x.setStandardTickUnits(org.jfree.chart.axis.NumberAxis.createIntegerTickUnits());
        }
        org.jfree.chart.axis.NumberAxis y = new org.jfree.chart.axis.NumberAxis(yLabel);
        y.setNumberFormatOverride(new SignificantFormat());
        org.jfree.chart.renderer.xy.XYErrorRenderer r = new org.jfree.chart.renderer.xy.XYErrorRenderer();
        r.setDrawXError(false);
        r.setDefaultLinesVisible(true);
        r.setDefaultShapesVisible(true);
        r.setErrorPaint(null); // each bar in its series' colour
        paint(r, data.getSeriesCount());
        XYPlot plot = new XYPlot(data, x, y, r);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        captions(chart, caption);
        return chart;
    }

    /** Axis labels for byte sizes in binary units: 1024 -> "1 KiB", 2^30 -> "1 GiB". */
    static final class BinarySizeFormat extends java.text.NumberFormat {
        private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

        @Override
        public StringBuffer format(double number, StringBuffer to, java.text.FieldPosition pos) {
            double v = number;
            int u = 0;
            while (v >= 1024 && u < UNITS.length - 1) {
                v /= 1024;
                u++;
            }
            return to.append(org.rdmasim.hardware.Units.number(v)).append(' ').append(UNITS[u]);
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, java.text.FieldPosition pos) {
            return format((double) number, to, pos);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            throw new UnsupportedOperationException("labels only");
        }
    }

    /** Numbers for people: at most 4 significant digits, never an exponent. */
    static final class SignificantFormat extends java.text.NumberFormat {
        @Override
        public StringBuffer format(double number, StringBuffer to, java.text.FieldPosition pos) {
            return to.append(org.rdmasim.hardware.Units.number(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, java.text.FieldPosition pos) {
            return to.append(number);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            throw new UnsupportedOperationException("labels only");
        }
    }
}
