package org.rdmasim.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * Writes a chart as PNG and SVG. SVG is drawn into JFreeSVG's {@link SVGGraphics2D} directly
 * (JFreeChart's ExportUtils looks for a JFreeSVG 4 constructor that 5.x lacks), with a fixed defs
 * prefix so the file does not change from run to run.
 */
public final class ChartFiles {
    public static final int WIDTH = 900;
    public static final int HEIGHT = 500;

    private ChartFiles() {
    }

    public static void write(JFreeChart chart, Path dir, String baseName) throws IOException {
        style(chart);
        Charts.fitValueLabels(chart);
        ChartUtils.saveChartAsPNG(dir.resolve(baseName + ".png").toFile(), chart, WIDTH, HEIGHT);
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        g.setDefsKeyPrefix("rdmasim-" + baseName);
        chart.draw(g, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        Files.writeString(dir.resolve(baseName + ".svg"), xmlSafe(g.getSVGDocument()), StandardCharsets.UTF_8);
    }

    /** Draws {@code chart} as PNG into {@code png} and as SVG into memory, as {@link #write} does (warm-up). */
    static void draw(JFreeChart chart, java.io.OutputStream png) throws IOException {
        style(chart);
        Charts.fitValueLabels(chart);
        ChartUtils.writeChartAsPNG(png, chart, WIDTH, HEIGHT);
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(g, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        g.getSVGDocument();
    }

    private static void style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        if (chart.getTitle() != null) {
            chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        }
        chart.getPlot().setBackgroundPaint(new Color(250, 250, 250));
    }

    /**
     * The SVG with any control character a label carried written as {@code \xHH}: XML 1.0 allows only
     * tab, line feed and carriage return below U+0020, and JFreeSVG escapes markup characters only.
     */
    static String xmlSafe(String svg) {
        StringBuilder b = null;
        for (int i = 0; i < svg.length(); i++) {
            char c = svg.charAt(i);
            boolean bad = org.rdmasim.importers.PrintableText.isControl(c) && c != '\n' && c != '\t' && c != '\r';
            if (bad && b == null) {
                b = new StringBuilder(svg.length() + 16).append(svg, 0, i);
            }
            if (b != null) {
                if (bad) {
                    b.append(String.format(java.util.Locale.ROOT, "\\x%02X", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? svg : b.toString();
    }
}
