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

/**
 * What a study's folder holds beside its table: a chart of each figure against each knob (the mean
 * over the other knobs' values and the replications, ok rows only) and {@code index.html} with the
 * charts and the table. Made from the table alone, so a merge of shards writes what a local run does.
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

    static String html(ResultTable table, List<String> charts) {
        ResultTable.Meta m = table.meta();
        List<ResultRow> rows = table.rows();
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
                .append(esc(m.study())).append(" (study)</title>\n<style>body{font-family:sans-serif;margin:2em}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
                        + ".failed{color:#a00}</style></head><body>\n<h1>Study ").append(esc(m.study())).append("</h1>\n<p>");
        long failed = rows.stream().filter(r -> !r.ok()).count();
        h.append(String.format(Locale.ROOT, "%d point(s) x %d replication(s): %d row(s)%s", m.points(), m.replications(),
                rows.size(), table.complete() ? "" : " of " + m.expectedRows() + " (INCOMPLETE)"));
        if (failed > 0) {
            h.append(", ").append(failed).append(" failed");
        }
        h.append(". Fingerprint ").append(esc(m.fingerprint())).append(". Table: <a href=\"").append(ResultTable.CSV)
                .append("\">").append(ResultTable.CSV).append("</a>, <a href=\"").append(ResultTable.JSON).append("\">")
                .append(ResultTable.JSON).append("</a>.</p>\n<h2>Knobs</h2>\n<ul>\n");
        for (int k = 0; k < m.knobPaths().size(); k++) {
            h.append("<li><code>").append(esc(m.knobPaths().get(k))).append("</code>: ")
                    .append(esc(String.join(", ", m.knobValues().get(k)))).append("</li>\n");
        }
        h.append("</ul>\n");
        if (!charts.isEmpty()) {
            h.append("<h2>Figures against knobs</h2>\n");
            for (String c : charts) {
                h.append("<a href=\"").append(c).append(".svg\"><img src=\"").append(c).append(".png\" width=\"600\" alt=\"")
                        .append(c).append("\"></a>\n");
            }
        }
        h.append("<h2>Rows</h2>\n<table><tr><th>point</th><th>replication</th>");
        m.knobPaths().forEach(k -> h.append("<th>").append(esc(k)).append("</th>"));
        m.figures().forEach(f -> h.append("<th>").append(esc(f)).append("</th>"));
        h.append("<th>limiter or error</th></tr>\n");
        for (ResultRow r : rows.subList(0, Math.min(rows.size(), MAX_PAGE_ROWS))) {
            h.append(r.ok() ? "<tr>" : "<tr class=\"failed\">").append("<td>").append(r.point()).append("</td><td>")
                    .append(r.replication()).append("</td>");
            r.values().forEach(v -> h.append("<td>").append(esc(v)).append("</td>"));
            for (int f = 0; f < m.figures().size(); f++) {
                h.append("<td>").append(r.ok() ? String.format(Locale.ROOT, "%.6g", r.figures()[f]) : "-").append("</td>");
            }
            h.append("<td style=\"text-align:left\">").append(esc(r.ok() ? r.limiter() : "FAILED: " + r.error()))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (rows.size() > MAX_PAGE_ROWS) {
            h.append("<p>").append(rows.size() - MAX_PAGE_ROWS).append(" more row(s) in the CSV and JSON.</p>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
