package org.rdmasim.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.PageTemplate;

/**
 * What a study's folder holds beside its table: a chart of each figure against each knob (one line per
 * combination of the other knobs' values, each point a configuration's mean over its replications, ok rows
 * only) and {@code index.html} with the
 * charts and the table ({@code templates/study.mustache}). Made from the table alone, so a merge of shards writes what a local run does.
 */
public final class StudyPage {
    /** Rows shown on the page; the CSV and JSON hold all of them. */
    static final int MAX_PAGE_ROWS = 2000;
    private static final Pattern LEADING_NUMBER = Pattern.compile("^\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)");

    private StudyPage() {
    }

    /** Writes table, charts and page into {@code dir}, and removes the journal the rows came through. */
    public static void write(ResultTable table, Path dir, boolean charts) throws IOException {
        Files.createDirectories(dir);
        table.write(dir);
        List<String> names = new ArrayList<>();
        ResultTable.Meta m = table.meta();
        for (int k = 0; k < m.knobPaths().size(); k++) {
            for (int f = 0; f < m.figures().size(); f++) {
                String name = m.figures().get(f) + "-vs-" + slug(m.knobPaths().get(k));
                names.add(name);
                Files.deleteIfExists(dir.resolve(name + ".png"));
                Files.deleteIfExists(dir.resolve(name + ".svg"));
                if (charts) {
                    ChartFiles.write(chart(table, k, f), dir, name);
                }
            }
        }
        Files.writeString(dir.resolve("index.html"), html(table, charts ? names : List.of()), StandardCharsets.UTF_8);
        // the manifest lists what this wrote, so a later write replaces it and nothing of the user's
        List<String> written = new ArrayList<>(List.of(ResultTable.CSV, ResultTable.JSON, ResultTable.JOURNAL,
                "index.html"));
        if (charts) {
            for (String n : names) {
                written.add(n + ".png");
                written.add(n + ".svg");
            }
        }
        org.rdmasim.report.ReportFolder.addWritten(dir, written);
    }

    /**
     * Figure {@code f} against knob {@code k}: one line per combination of the other knobs' values (a mean
     * over configurations would plot points no configuration has), each point the mean of its
     * configuration's replications with a bar from their least to their greatest, ok rows only.
     */
    static org.jfree.chart.JFreeChart chart(ResultTable table, int k, int f) {
        ResultTable.Meta m = table.meta();
        List<String> all = m.knobValues().get(k);
        KnobAxis axis = KnobAxis.of(m.knobPaths().get(k), all);
        Map<String, YIntervalSeries> lines = new java.util.LinkedHashMap<>();
        Map<String, List<String>> limiters = new java.util.LinkedHashMap<>();
        for (Map.Entry<List<String>, double[]> e : table.replicationsBy(f).entrySet()) {
            List<String> values = e.getKey();
            List<String> others = new ArrayList<>();
            for (int j = 0; j < values.size(); j++) {
                if (j != k) {
                    others.add(m.knobPaths().get(j) + " = " + values.get(j));
                }
            }
            String name = others.isEmpty() ? m.figures().get(f) : String.join(", ", others);
            YIntervalSeries s = lines.computeIfAbsent(name, n -> new YIntervalSeries(n, false, true));
            double[] reps = e.getValue();
            double mean = java.util.Arrays.stream(reps).average().orElse(Double.NaN);
            double lo = java.util.Arrays.stream(reps).min().orElse(Double.NaN);
            double hi = java.util.Arrays.stream(reps).max().orElse(Double.NaN);
            s.add(axis.x(values.get(k)), mean, lo, hi);
        }
        YIntervalSeriesCollection data = new YIntervalSeriesCollection();
        lines.values().forEach(data::addSeries);
        String figureAxis;
        try {
            figureAxis = Figure.byKey(m.figures().get(f)).axis();
        } catch (StudyInputException unknown) {
            figureAxis = m.figures().get(f);
        }
        String title = m.figures().get(f) + " against " + m.knobPaths().get(k) + ": " + m.study();
        List<String> caption = new ArrayList<>();
        if (m.replications() > 1) {
            caption.add("Each point: the mean of a configuration's " + m.replications()
                    + " replications; its bar spans their least to greatest.");
        }
        // a limit that is a calibrated or assumed number (the row's limitNumbers, taken from the limit's own
        // fields when the row ran, never from its words) is said under the chart
        java.util.Set<String> calibrated = new java.util.LinkedHashSet<>();
        long limited = 0;
        long ok = 0;
        for (ResultRow r : table.rows()) {
            if (r.ok()) {
                ok++;
                if (!r.limitNumbers().isEmpty()) {
                    limited++;
                    calibrated.add(r.limiter() + " (" + String.join(", ", r.limitNumbers()) + ")");
                }
            }
        }
        if (limited > 0) {
            caption.add(String.format(Locale.ROOT, "CALIBRATED or ASSUMED limit in %d of %d rows (a number fitted to a "
                    + "measurement, or assumed: not a mechanism): %s.", limited, ok, String.join("; ", calibrated.stream().limit(3).toList())
                    + (calibrated.size() > 3 ? "; and " + (calibrated.size() - 3) + " more (see the limiter column)" : "")));
        }
        return Charts.knobLines(title, axis.label(), figureAxis, data, axis.integer(), axis.ticks(), caption);
    }

    /**
     * How a knob's values sit on an x axis: numbers with one unit written after them (the unit goes in the
     * axis label), or, when they are not all numbers of one unit, their position in the study's list.
     */
    record KnobAxis(String label, boolean integer, List<String> ticks, Map<String, Double> xs) {
        static KnobAxis of(String path, List<String> values) {
            Map<String, Double> xs = new java.util.LinkedHashMap<>();
            java.util.Set<String> units = new java.util.LinkedHashSet<>();
            boolean numeric = true;
            boolean integer = true;
            for (String v : values) {
                Matcher mm = LEADING_NUMBER.matcher(v);
                if (!mm.find()) {
                    numeric = false;
                    break;
                }
                double x = Double.parseDouble(mm.group(1));
                xs.put(v, x);
                units.add(v.substring(mm.end()).trim());
                integer &= x == Math.rint(x);
            }
            if (numeric && units.size() == 1) {
                String unit = units.iterator().next();
                return new KnobAxis(path + (unit.isEmpty() ? "" : " (" + unit + ")"), integer, List.of(), xs);
            }
            xs.clear();
            for (int i = 0; i < values.size(); i++) {
                xs.put(values.get(i), (double) i);
            }
            return new KnobAxis(path, true, List.copyOf(values), xs);
        }

        double x(String value) {
            return xs.get(value);
        }
    }

    static String slug(String path) {
        return path.replaceAll("[^A-Za-z0-9_-]+", "-");
    }

    private static final PageTemplate PAGE = PageTemplate.named("study");

    /** A knob and the values the study gave it. */
    record Knob(String path, String values) {
    }

    /** A table cell; numbers are right-aligned. */
    record Cell(String text, boolean number) {
    }

    /** One row of the study: a point's replication, failed or not. */
    record Row(boolean failed, List<Cell> cells) {
    }

    /** A column heading; numbers are right-aligned. */
    record Heading(String text, boolean number) {
    }

    /** The page: what ran (id verdict), the knobs, the figures against each knob, and the rows. */
    record Page(String study, String summary, boolean incomplete, List<Knob> knobs, List<String> charts,
            List<Heading> headings, List<Row> rows, int moreRows) {
        boolean anyChart() {
            return !charts.isEmpty();
        }

        boolean anyMoreRows() {
            return moreRows > 0;
        }
    }

    static String html(ResultTable table, List<String> charts) {
        ResultTable.Meta m = table.meta();
        List<ResultRow> rows = table.rows();
        long failed = rows.stream().filter(r -> !r.ok()).count();
        String summary = String.format(Locale.ROOT, "%d point(s) x %d replication(s): %d row(s)%s", m.points(),
                m.replications(), rows.size(), table.complete() ? "" : " of " + m.expectedRows() + " (INCOMPLETE)")
                + (failed > 0 ? ", " + failed + " failed" : "") + ".";
        List<Knob> knobs = new ArrayList<>();
        for (int k = 0; k < m.knobPaths().size(); k++) {
            knobs.add(new Knob(m.knobPaths().get(k), String.join(", ", m.knobValues().get(k))));
        }
        List<Heading> headings = new ArrayList<>(List.of(new Heading("point", true), new Heading("replication", true)));
        m.knobPaths().forEach(k -> headings.add(new Heading(k, false)));
        m.figures().forEach(f -> headings.add(new Heading(f, true)));
        headings.add(new Heading("limiter or error", false));
        List<Row> shown = new ArrayList<>();
        for (ResultRow r : rows.subList(0, Math.min(rows.size(), MAX_PAGE_ROWS))) {
            List<Cell> cells = new ArrayList<>(List.of(new Cell(String.valueOf(r.point()), true),
                    new Cell(String.valueOf(r.replication()), true)));
            r.values().forEach(v -> cells.add(new Cell(v, false)));
            for (int f = 0; f < m.figures().size(); f++) {
                cells.add(new Cell(r.ok() ? String.format(Locale.ROOT, "%.6g", r.figures()[f]) : "-", true));
            }
            cells.add(new Cell(r.ok() ? r.limiter() : "FAILED: " + r.error(), false));
            shown.add(new Row(!r.ok(), cells));
        }
        return PAGE.render(new Page(m.study(), summary + " Fingerprint " + m.fingerprint() + ".", !table.complete(),
                knobs, charts, headings, shown, rows.size() - shown.size()));
    }

}
