package org.rdmasim.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The validation page's chart: modelled / published per row, one row of the chart per validation row,
 * on one unit-free axis. Each row carries its own tolerance band (the published range widened by the
 * row's relative tolerance, divided by the same reference), so a row passes exactly when its dot sits
 * in its band and a 20% miss is as far from 1 for a latency in microseconds as for a bandwidth in Gbps.
 *
 * <p>Why not published against modelled: rows span ten decades in a dozen units; on shared log axes a
 * factor of two is a few pixels and rows of different units sit side by side as if comparable.
 */
final class RatioChart {
    /** The axis runs over [1/SPAN, SPAN]; rows further out are drawn as an arrow at the edge with their value. */
    static final double SPAN = 10;
    private static final int LABEL = 200;
    private static final int PLOT = 560;
    private static final int RIGHT = 240;
    private static final int ROW = 14;
    private static final int TOP = 40;
    private static final double[] TICKS = {0.1, 0.2, 0.5, 0.8, 1, 1.25, 2, 5, 10};

    private RatioChart() {
    }

    /**
     * One charted row. {@code reference} is the published value (the geometric mean of a published
     * range); every other field is a multiple of it.
     *
     * @param ratio     modelled / reference
     * @param rangeLow  published low / reference (1 for a single value)
     * @param rangeHigh published high / reference (1 for a single value)
     * @param bandLow   lowest passing ratio: rangeLow * (1 - tolerance)
     * @param bandHigh  highest passing ratio: rangeHigh * (1 + tolerance)
     */
    record Point(String id, String unit, double reference, double ratio, double rangeLow, double rangeHigh,
            double bandLow, double bandHigh, Validation.Verdict verdict, boolean calibration) {
    }

    /** The rows charted: counted and calibration rows with a modelled value and a positive published figure. */
    static List<Point> points(List<Validation.Result> results) {
        List<Point> out = new ArrayList<>();
        for (Validation.Result r : results) {
            ValidationRow w = r.row();
            if (!(r.counted() || w.calibration()) || Double.isNaN(r.modelled()) || !(w.low() > 0)) {
                continue;
            }
            double ref = w.low() == w.high() ? w.low() : Math.sqrt(w.low() * w.high());
            out.add(new Point(w.id(), w.unit(), ref, r.modelled() / ref, w.low() / ref, w.high() / ref,
                    w.low() * (1 - w.tolerance()) / ref, w.high() * (1 + w.tolerance()) / ref, r.verdict(),
                    w.calibration()));
        }
        return out;
    }

    /** Counted and calibration rows the chart leaves out (no modelled value, or no positive published figure). */
    static List<String> unplotted(List<Validation.Result> results) {
        List<String> out = new ArrayList<>();
        for (Validation.Result r : results) {
            ValidationRow w = r.row();
            if ((r.counted() || w.calibration()) && (Double.isNaN(r.modelled()) || !(w.low() > 0))) {
                out.add(w.id());
            }
        }
        return out;
    }

    static String svg(List<Validation.Result> results) {
        List<Point> points = points(results);
        if (points.isEmpty()) {
            return "";
        }
        int height = TOP + points.size() * ROW + 40;
        int width = LABEL + PLOT + RIGHT;
        StringBuilder b = new StringBuilder();
        b.append("<h2>Modelled against published, row by row</h2>\n");
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" role=\"img\" aria-label=\"modelled over published per row\">%n", width, height));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"14\" font-size=\"12\" text-anchor=\"middle\">modelled / published"
                + " (log scale; 1 = the published figure)</text>%n", LABEL + PLOT / 2));
        // every other row shaded first, so the grid and the ratio-1 line stay on top of the shading
        for (int i = 1; i < points.size(); i += 2) {
            b.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>%n",
                    TOP + i * ROW, width, ROW));
        }
        for (double t : TICKS) {
            double x = x(t);
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"%s/>%n", x, TOP - 4,
                    x, TOP + points.size() * ROW, t == 1 ? "#333" : "#ddd", t == 1 ? "" : " stroke-dasharray=\"2 2\""));
            String label = org.rdmasim.hardware.Units.number(t);
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>%n",
                    x, TOP - 8, label));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>%n",
                    x, TOP + points.size() * ROW + 12, label));
        }
        for (int i = 0; i < points.size(); i++) {
            row(b, points.get(i), TOP + i * ROW);
        }
        b.append("</svg>\n");
        b.append("<p>One line per counted or calibration row (expectations are not drawn). Each dot is modelled / published;")
                .append(" a published range is divided by its geometric mean and drawn as a black bar; the shaded band is")
                .append(" the range widened by the row's tolerance, so a dot inside its band passes. Green circle: pass;")
                .append(" red square: fail; amber diamond: known failure; grey ring: calibration (not counted).")
                .append(String.format(Locale.ROOT, " Rows beyond %s or 1/%s are drawn as an arrow at the edge with their ratio.",
                        org.rdmasim.hardware.Units.number(SPAN), org.rdmasim.hardware.Units.number(SPAN)));
        List<String> missing = unplotted(results);
        if (!missing.isEmpty()) {
            b.append(" Not drawn (no modelled value): ").append(esc(String.join(", ", missing))).append('.');
        }
        return b.append("</p>\n").toString();
    }

    private static void row(StringBuilder b, Point p, int top) {
        double mid = top + ROW / 2.0;
        b.append(String.format(Locale.ROOT, "<g class=\"row\" data-id=\"%s\" data-ratio=\"%s\" data-band=\"%s %s\">"
                + "<title>%s: modelled %s %s, published %s (x%s, pass band x%s to x%s): %s</title>%n",
                esc(p.id()), exact(p.ratio()), exact(p.bandLow()), exact(p.bandHigh()), esc(p.id()),
                sig(p.ratio() * p.reference()), esc(p.unit()),
                p.rangeLow() == p.rangeHigh() ? sig(p.reference())
                        : sig(p.rangeLow() * p.reference()) + "-" + sig(p.rangeHigh() * p.reference()),
                sig(p.ratio()), sig(p.bandLow()), sig(p.bandHigh()), esc(p.verdict().words())));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>%n",
                LABEL - 6, mid + 3.5, esc(p.id())));
        double b0 = x(p.bandLow());
        double b1 = x(p.bandHigh());
        b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#9cc3e6\" fill-opacity=\"0.55\"/>%n",
                b0, top + 2.0, Math.max(1, b1 - b0), ROW - 4));
        if (p.rangeLow() != p.rangeHigh()) {
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\"/>%n",
                    x(p.rangeLow()), mid, x(p.rangeHigh()), mid));
        }
        double lo = 1 / SPAN;
        double hi = SPAN;
        double cx = x(p.ratio());
        if (p.ratio() < lo || p.ratio() > hi) {
            boolean left = p.ratio() < lo;
            double e = left ? LABEL : LABEL + PLOT;
            double d = left ? 7 : -7;
            b.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f L%.1f %.1f L%.1f %.1f Z\" fill=\"%s\"/>%n",
                    e, mid, e + d, mid - 5, e + d, mid + 5, colour(p)));
        } else {
            b.append(marker(p, cx, mid));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">x%s %s</text></g>%n",
                LABEL + PLOT + 8, mid + 3.5, colour(p), sig(p.ratio()),
                esc(p.verdict().words()) + (p.calibration() ? " (calibration)" : "")));
    }

    private static String marker(Point p, double cx, double cy) {
        String c = colour(p);
        if (p.calibration()) {
            return String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n", cx, cy, c);
        }
        return switch (p.verdict()) {
            case PASS -> String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n", cx, cy, c);
            case KNOWN_FAILURE -> String.format(Locale.ROOT, "<path d=\"M%.1f %.1f L%.1f %.1f L%.1f %.1f L%.1f %.1f Z\" fill=\"%s\"/>%n",
                    cx, cy - 5, cx + 5, cy, cx, cy + 5, cx - 5, cy, c);
            default -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>%n", cx - 4, cy - 4, c);
        };
    }

    private static String colour(Point p) {
        if (p.calibration()) {
            return "#777";
        }
        return switch (p.verdict()) {
            case PASS -> "#1a7f1a";
            case KNOWN_FAILURE -> "#b07800";
            default -> "#c00020";
        };
    }

    /** Horizontal position of a ratio, clamped to the plot. */
    static double x(double ratio) {
        double r = Math.max(1 / SPAN, Math.min(SPAN, ratio));
        return LABEL + (Math.log10(r) + Math.log10(SPAN)) / (2 * Math.log10(SPAN)) * PLOT;
    }

    private static String sig(double v) {
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** Enough digits to recover the double (for tests and readers of the page's source). */
    private static String exact(double v) {
        return Double.toString(v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
