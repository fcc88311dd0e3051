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

    static void write(Path file, String scenario, String description, List<VariantOutcome> outcomes, List<String> charts,
            Provenance provenance,
            java.util.Map<String, List<String>> environments) throws IOException {
        write(file, scenario, description, outcomes, charts, provenance, environments, null, AnswerContext.NONE);
    }

    static void write(Path file, String scenario, String description, List<VariantOutcome> outcomes, List<String> charts,
            Provenance provenance, java.util.Map<String, List<String>> environments, ReportWriter.SweepChart sweep,
            AnswerContext answer) throws IOException {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rdmasim: ")
                .append(esc(scenario)).append("</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;"
                        + "color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;"
                        + "text-align:right}td:first-child,th:first-child{text-align:left}.failed{color:#b00}"
                        + "pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}img{max-width:100%}"
                        + ".verdict{background:#eef5ee;border-left:4px solid #2a7a2a;padding:8px 12px}"
                        + ".question{background:#f6f6f6;padding:8px}.note{font-size:90%;color:#555}"
                        + "td{vertical-align:top}</style></head><body>\n");
        h.append("<h1>").append(esc(scenario)).append("</h1>\n");
        h.append("<p class=\"provenance\"><small>rdmasim ").append(esc(provenance.rdmasimVersion()))
                .append(" &middot; scenario SHA-256 <code>").append(esc(provenance.scenarioSha256()))
                .append("</code> &middot; seed ").append(provenance.seed()).append("</small></p>\n");
        h.append(Verdict.html(outcomes, sweep, answer));
        if (!description.isEmpty()) {
            h.append("<h2>The question</h2>\n<p class=\"question\"><i>The scenario author's question and expected answer, "
                    + "from its opening comment: an expectation, not a result.</i><br>\n")
                    .append(esc(description).replace("\n", "<br>\n")).append("</p>\n");
        }
        h.append("<h2>Variants</h2>\n<table><tr><th>variant</th><th>status</th><th>receivers</th><th>slowest pull (s)</th>"
                + "<th>aggregate (Gbps)</th><th>mean per receiver (Gbps)</th><th>slowest receiver limited by</th>"
                + "<th>registration (s)</th><th>wall (s)</th><th>lanes of its first transfer</th><th>description</th></tr>\n");
        for (VariantOutcome o : outcomes) {
            boolean notAsWritten = !o.audit().overrides().isEmpty() || !NicUse.shortfall(o).isEmpty();
            h.append("<tr><td>").append(esc(o.name())).append(notAsWritten ? " <b>(not as written: see the answer)</b>" : "")
                    .append("</td>");
            if (o.status() == VariantOutcome.Status.FAILED || o.result() == null) {
                h.append("<td class=\"failed\">failed</td><td colspan=\"8\"></td><td>").append(esc(o.description()))
                        .append("</td></tr>\n");
                continue;
            }
            ReceiverSummary s = ReceiverSummary.of(o.result());
            ReceiverSummary.Receiver slowest = null;
            for (ReceiverSummary.Receiver r : s.receivers()) {
                if (slowest == null || r.pullSeconds() > slowest.pullSeconds()) {
                    slowest = r;
                }
            }
            h.append(status(o)).append("<td>").append(s.receivers().size()).append("</td><td>")
                    .append(fmt(slowest == null ? 0 : slowest.pullSeconds())).append("</td><td>")
                    .append(fmt(s.aggregateGbps())).append("</td><td>").append(fmt(s.meanReceiverGbps())).append("</td><td>")
                    .append(esc(slowest == null ? "" : slowest.bottleneck().words())).append("</td><td>")
                    .append(registration(o)).append("</td><td>").append(wall(o, slowest)).append("</td><td>")
                    .append(lanes(o)).append("</td><td>").append(esc(o.description())).append("</td></tr>\n");
        }
        h.append("</table>\n<p class=\"note\">Registration: before the first pull; for a fan-out, one refit cycle's "
                + "(hosts register in parallel), else every MR of the variant one after another. Wall: registration plus "
                + "the slowest pull (a fan-out cycle's wall time: metadata, registration and its pulls).</p>\n");
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
        h.append(faults(outcomes));
        for (VariantOutcome o : outcomes) {
            if (o.status() == VariantOutcome.Status.FAILED) {
                h.append("<h3 class=\"failed\">").append(esc(o.name())).append(" failed</h3><pre>")
                        .append(esc(o.error())).append("</pre>\n");
            }
        }
        if (environments.values().stream().anyMatch(e -> !e.isEmpty())) {
            h.append("<h2>Environment per variant</h2>\n<p class=\"note\">Each variant's env merged into the "
                    + "base env, variable by variable, before the stack's layers apply (explain shows the result).</p>\n");
            for (VariantOutcome o : outcomes) {
                List<String> env = environments.getOrDefault(o.name(), List.of());
                if (!env.isEmpty()) {
                    h.append("<h3>").append(esc(o.name())).append("</h3><pre>").append(esc(String.join("\n", env)))
                            .append("</pre>\n");
                }
            }
        }
        for (String c : charts) {
            h.append("<h2>").append(esc(c)).append("</h2>\n<a href=\"").append(c).append(".svg\"><img src=\"").append(c)
                    .append(".png\" alt=\"").append(esc(c)).append("\"></a>\n");
        }
        h.append("<p><a href=\"interactive.html\">Interactive charts</a>: NIC timelines and receiver CDF, hover and zoom</p>\n");
        h.append("<p>Tables: <a href=\"summary.json\">summary.json</a>, <a href=\"transfers.csv\">transfers.csv</a>, "
                + "<a href=\"resources.csv\">resources.csv</a></p>\n</body></html>\n");
        Files.writeString(file, h.toString(), StandardCharsets.UTF_8);
    }

    /** "ok", or with faults how many attempts failed and how many pulls gave up. */
    private static String status(VariantOutcome o) {
        var c = o.faultCost();
        if (c == null || c.failedAttempts() == 0) {
            return "<td>ok</td>";
        }
        return "<td" + (c.gaveUp() > 0 ? " class=\"failed\">" : ">") + "ok; " + c.failedAttempts() + " attempt(s) failed"
                + (c.gaveUp() > 0 ? ", " + c.gaveUp() + " gave up" : "") + "</td>";
    }

    /** Per variant with faults: what each cost (same seed, with and without) and the timeline. */
    private static String faults(List<VariantOutcome> outcomes) {
        if (outcomes.stream().noneMatch(o -> o.faultCost() != null)) {
            return "";
        }
        StringBuilder h = new StringBuilder();
        h.append("<h2>Faults and what they cost</h2>\n<p class=\"note\">Each variant with faults was run again, same "
                + "seed, without them. Pull: a fan-out receiver's wait, or a transfer's time from its first post to its "
                + "successful attempt; receivers or transfers that gave up are counted apart. A lane through a port "
                + "that is down stalls; its QP retries on its ACK timer (UCX_RC_TIMEOUT, UCX_RC_RETRY_COUNT) and fails "
                + "the transfer after its retries (NIXL_ERR_REMOTE_DISCONNECT); UCX does not move a posted operation to "
                + "another lane. ASSUMED: the delay between an error and the next attempt (retry delay), and, for a "
                + "list of transfers, that the application re-posts.</p>\n<table><tr><th>variant</th><th>mean pull "
                + "with / without (s)</th><th>slowest pull with / without (s)</th><th>makespan with / without (s)</th>"
                + "<th>failed attempts</th><th>gave up</th><th>QP error after (s)</th><th>retry delay (s, assumed)</th>"
                + "</tr>\n");
        for (VariantOutcome o : outcomes) {
            var c = o.faultCost();
            if (c == null) {
                continue;
            }
            h.append("<tr><td>").append(esc(o.name())).append("</td><td>").append(fmt(c.meanPullWith())).append(" / ")
                    .append(fmt(c.meanPullWithout())).append("</td><td>").append(fmt(c.maxPullWith())).append(" / ")
                    .append(fmt(c.maxPullWithout())).append("</td><td>").append(fmt(c.makespanWith())).append(" / ")
                    .append(fmt(c.makespanWithout())).append("</td><td>").append(c.failedAttempts()).append("</td><td")
                    .append(c.gaveUp() > 0 ? " class=\"failed\">" : ">").append(c.gaveUp()).append("</td><td>")
                    .append(fmt(c.plan().qpRetry().errorAfterSeconds())).append("</td><td>")
                    .append(fmt(c.plan().retryDelaySeconds())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        for (VariantOutcome o : outcomes) {
            if (o.faultCost() == null || o.result() == null) {
                continue;
            }
            h.append("<h3>Timeline: ").append(esc(o.name())).append("</h3>\n<table><tr><th>time (s)</th><th>what</th></tr>\n");
            List<org.rdmasim.workload.RunResult.FaultRecord> log = o.result().faultLog();
            int shown = 0;
            for (var f : log) {
                if (shown++ == 200) {
                    h.append("<tr><td></td><td>... ").append(log.size() - 200).append(" more in summary.json</td></tr>\n");
                    break;
                }
                h.append("<tr><td>").append(fmt(f.atSeconds())).append("</td><td>").append(f.fault() ? "<b>" : "")
                        .append(esc(f.what())).append(f.fault() ? "</b>" : "").append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        return h.toString();
    }

    private static String registration(VariantOutcome o) {
        if (o.result().fanout() != null && !o.result().fanout().cycles().isEmpty()) {
            return fmt(o.result().fanout().cycles().get(0).registrationSeconds());
        }
        return o.registration() == null ? "-" : fmt(o.registration().registrationSeconds());
    }

    private static String wall(VariantOutcome o, ReceiverSummary.Receiver slowest) {
        if (o.result().fanout() != null && !o.result().fanout().cycles().isEmpty()) {
            return fmt(o.result().fanout().cycles().get(0).wallSeconds());
        }
        double reg = o.registration() == null ? 0 : o.registration().registrationSeconds();
        return fmt(reg + (slowest == null ? 0 : slowest.pullSeconds()));
    }

    /** The first transfer's lanes: NICs, path, share of the bytes, achieved rate, what held the lane. */
    private static String lanes(VariantOutcome o) {
        if (o.result().transfers().isEmpty()) {
            return "";
        }
        var t = o.result().transfers().get(0);
        StringBuilder b = new StringBuilder();
        for (var l : t.lanes()) {
            if (b.length() > 0) {
                b.append("<br>");
            }
            b.append(esc(l.sourceNic() + "&rarr;" + l.sinkNic()).replace("&amp;rarr;", "&rarr;")).append(" path")
                    .append(l.path()).append(": ").append(fmt(100.0 * l.bytes() / t.spec().bytes())).append("% at ")
                    .append(fmt(l.gbps())).append(" Gbps, held by ").append(esc(l.limiter().words()));
        }
        return b.toString();
    }

    private static String interval(org.rdmasim.workload.ReplicationStats.Estimate e) {
        return fmt(e.mean()) + " [" + fmt(e.ci95Low()) + ", " + fmt(e.ci95High()) + "]";
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "-" : org.rdmasim.hardware.Units.number(v);
    }

    static String esc(String s) {
        return org.rdmasim.importers.PrintableText.markup(s);
    }
}
