package org.rdmasim.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.rdmasim.workload.VariantOutcome;

/** A static page with the key numbers per variant and every chart. */
final class IndexHtml {
    private IndexHtml() {
    }

    static void write(Path file, String scenario, String description, List<VariantOutcome> outcomes, List<String> charts)
            throws IOException {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rdmasim: ")
                .append(esc(scenario)).append("</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;"
                        + "color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;"
                        + "text-align:right}td:first-child,th:first-child{text-align:left}.failed{color:#b00}"
                        + "pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}img{max-width:100%}</style></head><body>\n");
        h.append("<h1>").append(esc(scenario)).append("</h1>\n");
        if (!description.isEmpty()) {
            h.append("<p>").append(esc(description).replace("\n", "<br>\n")).append("</p>\n");
        }
        h.append("<table><tr><th>variant</th><th>status</th><th>receivers</th><th>slowest pull (s)</th>"
                + "<th>aggregate (Gbps)</th><th>mean per receiver (Gbps)</th><th>slowest receiver limited by</th></tr>\n");
        for (VariantOutcome o : outcomes) {
            h.append("<tr><td>").append(esc(o.name())).append("</td>");
            if (o.result() == null) {
                h.append("<td class=\"failed\">failed</td><td colspan=\"5\"></td></tr>\n");
                continue;
            }
            ReceiverSummary s = ReceiverSummary.of(o.result());
            ReceiverSummary.Receiver slowest = null;
            for (ReceiverSummary.Receiver r : s.receivers()) {
                if (slowest == null || r.pullSeconds() > slowest.pullSeconds()) {
                    slowest = r;
                }
            }
            h.append("<td>ok</td><td>").append(s.receivers().size()).append("</td><td>")
                    .append(fmt(slowest == null ? 0 : slowest.pullSeconds())).append("</td><td>")
                    .append(fmt(s.aggregateGbps())).append("</td><td>").append(fmt(s.meanReceiverGbps())).append("</td><td>")
                    .append(esc(slowest == null ? "" : slowest.bottleneck())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (outcomes.stream().anyMatch(o -> o.replicationStats() != null && o.replicationStats().replications() > 1)) {
            h.append("<h2>Replications: mean and 95% confidence interval</h2>\n<table><tr><th>variant</th>"
                    + "<th>replications</th><th>last receiver (s)</th><th>mean pull (s)</th><th>p99 pull (s)</th></tr>\n");
            for (VariantOutcome o : outcomes) {
                var st = o.replicationStats();
                if (st == null) {
                    continue;
                }
                h.append("<tr><td>").append(esc(o.name())).append("</td><td>").append(st.replications()).append("</td><td>")
                        .append(interval(st.makespanSeconds())).append("</td><td>").append(interval(st.meanPullSeconds()))
                        .append("</td><td>").append(interval(st.p99PullSeconds())).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        boolean anyClaim = outcomes.stream().anyMatch(o -> o.claim() != null);
        if (anyClaim) {
            h.append("<h2>Claims against the model and the line-rate floor</h2>\n<table><tr><th>variant</th><th>source</th>"
                    + "<th>claimed (s)</th><th>NICs</th><th>line-rate floor (s)</th><th>modelled (s)</th><th>verdict</th></tr>\n");
            for (VariantOutcome o : outcomes) {
                if (o.claim() == null) {
                    continue;
                }
                double modelled = o.result() == null ? Double.NaN : ReceiverSummary.of(o.result()).receivers().stream()
                        .mapToDouble(ReceiverSummary.Receiver::pullSeconds).max().orElse(0);
                var c = o.claim();
                String claimed = c.lowSeconds() == c.highSeconds() ? fmt(c.lowSeconds())
                        : fmt(c.lowSeconds()) + "-" + fmt(c.highSeconds());
                h.append("<tr><td>").append(esc(o.name())).append("</td><td>").append(esc(c.source())).append("</td><td>")
                        .append(claimed).append("</td><td>").append(c.nics()).append("</td><td>").append(fmt(c.floorSeconds()))
                        .append("</td><td>").append(fmt(modelled)).append("</td><td").append(c.belowFloor() ? " class=\"failed\">" : ">")
                        .append(esc(o.result() == null ? "variant failed" : c.verdict(modelled))).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.FAILED) {
                h.append("<h3 class=\"failed\">").append(esc(o.name())).append(" failed</h3><pre>")
                        .append(esc(o.error())).append("</pre>\n");
            }
        }
        for (String c : charts) {
            h.append("<h2>").append(esc(c)).append("</h2>\n<a href=\"").append(c).append(".svg\"><img src=\"").append(c)
                    .append(".png\" alt=\"").append(esc(c)).append("\"></a>\n");
        }
        h.append("<p>Tables: <a href=\"summary.json\">summary.json</a>, <a href=\"transfers.csv\">transfers.csv</a>, "
                + "<a href=\"resources.csv\">resources.csv</a></p>\n</body></html>\n");
        Files.writeString(file, h.toString(), StandardCharsets.UTF_8);
    }

    private static String interval(org.rdmasim.workload.ReplicationStats.Estimate e) {
        return fmt(e.mean()) + " [" + fmt(e.ci95Low()) + ", " + fmt(e.ci95High()) + "]";
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
