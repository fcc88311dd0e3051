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
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import org.rdmasim.report.PageTemplate;

/**
 * What a study's folder holds beside its table: a chart of each figure against each knob (the mean
 * over the other knobs' values and the replications, ok rows only) and {@code index.html} with the
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

    static org.jfree.chart.JFreeChart chart(ResultTable table, int k, int f) {
        ResultTable.Meta m = table.meta();
        Map<String, double[]> means = table.meansBy(k);
        List<String> all = m.knobValues().get(k);
        boolean numeric = all.stream().allMatch(v -> LEADING_NUMBER.matcher(v).find());
        XYSeries s = new XYSeries("mean over points and replications", false, true);
        for (Map.Entry<String, double[]> e : means.entrySet()) {
            double x;
            if (numeric) {
                Matcher mm = LEADING_NUMBER.matcher(e.getKey());
                mm.find();
                x = Double.parseDouble(mm.group(1));
            } else {
                x = all.indexOf(e.getKey()) + 1;
            }
            s.add(x, e.getValue()[f]);
        }
        XYSeriesCollection data = new XYSeriesCollection(s);
        String xLabel = m.knobPaths().get(k) + (numeric ? "" : " (value number: " + String.join(", ", all) + ")");
        return Charts.lines(m.figures().get(f) + " against " + m.knobPaths().get(k) + ": " + m.study(), xLabel,
                m.figures().get(f), data, List.of());
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
