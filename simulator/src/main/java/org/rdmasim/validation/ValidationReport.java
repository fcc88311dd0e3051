package org.rdmasim.validation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.rdmasim.report.ReportFolder;

/** validation.json ({@code id, source, published, modelled, unit, tolerance, pass, calibration} and more) and index.html. */
public final class ValidationReport {
    private ValidationReport() {
    }

    /** What validate wrote before its folder carried a manifest: an unmarked folder of only these is its own. */
    public static final java.util.Set<String> FILES = java.util.Set.of("validation.json", "index.html");

    /** Writes the folder whole or not at all, replacing only what an earlier validate wrote ({@link ReportFolder}). */
    public static void write(Path dir, List<Validation.Result> results) throws IOException {
        ReportFolder folder = ReportFolder.stage(dir, FILES);
        try {
            Files.writeString(folder.staging().resolve("validation.json"), json(results), StandardCharsets.UTF_8);
            Files.writeString(folder.staging().resolve("index.html"), html(results), StandardCharsets.UTF_8);
            folder.publish();
        } finally {
            folder.discard();
        }
    }

    static String json(List<Validation.Result> results) {
        StringBuilder b = new StringBuilder("[\n");
        for (int i = 0; i < results.size(); i++) {
            Validation.Result r = results.get(i);
            ValidationRow w = r.row();
            b.append("  {\"id\": ").append(q(w.id())).append(", \"source\": ").append(q(w.source()))
                    .append(", \"what\": ").append(q(w.what())).append(", \"setup\": ").append(q(w.setup()))
                    .append(", \"published\": ").append(w.low() == w.high() ? num(w.low())
                            : "[" + num(w.low()) + ", " + num(w.high()) + "]")
                    .append(", \"modelled\": ").append(Double.isNaN(r.modelled()) ? "null" : num(r.modelled()))
                    .append(", \"unit\": ").append(q(w.unit())).append(", \"tolerance\": ").append(num(w.tolerance()))
                    .append(", \"evidence\": ").append(q(w.evidence().name().toLowerCase(Locale.ROOT)))
                    .append(", \"nics\": ").append(w.nics()).append(", \"counted\": ").append(r.counted())
                    .append(", \"pass\": ").append(r.pass()).append(", \"verdict\": ").append(q(r.verdict().words()))
                    .append(", \"calibration\": ").append(w.calibration())
                    .append(", \"knownFailure\": ").append(q(w.knownFailure()))
                    .append(", \"scenario\": ").append(q(w.scenario()))
                    .append(", \"dependsOn\": [");
            for (int k = 0; k < w.dependsOn().size(); k++) {
                b.append(k == 0 ? "" : ", ").append(q(w.dependsOn().get(k)));
            }
            b.append("], \"note\": ").append(q(r.note())).append('}').append(i + 1 < results.size() ? ",\n" : "\n");
        }
        return b.append("]\n").toString();
    }

    static String html(List<Validation.Result> results) {
        StringBuilder b = new StringBuilder();
        b.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rdmasim validation</title>\n")
                .append("<style>body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:3px 6px;font-size:13px;vertical-align:top}")
                .append(".pass{color:#176317}.fail{color:#b00020;font-weight:bold}.other{color:#7a5b00}</style></head><body>\n")
                .append("<h1>rdmasim against published figures</h1>\n<p><b>").append(esc(Validation.tally(results).describe()))
                .append(".</b> Only measurements and configuration arithmetic are counted. Calibration rows (a profile")
                .append(" parameter was fitted to them) are shown but not counted. Known failures count as failures:")
                .append(" each says why the model does not reproduce the figure. Expectations (a proposal's expected")
                .append(" impact, a ceiling, a rule of thumb) are checked against the floor and the model and never")
                .append(" counted.</p>\n");
        b.append(RatioChart.svg(results));
        for (ValidationRow.Evidence kind : ValidationRow.Evidence.values()) {
            List<Validation.Result> section = results.stream().filter(r -> r.row().evidence() == kind).toList();
            if (section.isEmpty()) {
                continue;
            }
            b.append("<h2>").append(esc(Validation.sectionTitle(kind))).append("</h2>\n");
            b.append("<table><tr><th>id</th><th>source</th><th>what</th><th>setup as published</th><th>NICs</th>")
                    .append("<th>published</th><th>modelled</th><th>unit</th><th>tolerance</th><th>verdict</th>")
                    .append("<th>scenario</th><th>depends on</th><th>note</th></tr>\n");
            for (Validation.Result r : section) {
                row(b, r);
            }
            b.append("</table>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    private static void row(StringBuilder b, Validation.Result r) {
        ValidationRow w = r.row();
        String cls = r.verdict() == Validation.Verdict.PASS ? "pass"
                : r.verdict() == Validation.Verdict.FAIL || r.verdict() == Validation.Verdict.ERROR
                        || r.verdict() == Validation.Verdict.UNEXPECTED_PASS ? "fail" : "other";
        String verdict = r.verdict().words() + (w.calibration() ? " (calibration, not counted)" : "")
                + (w.knownFailure().isEmpty() ? "" : ": " + w.knownFailure());
        b.append("<tr><td>").append(esc(w.id())).append("</td><td>").append(esc(w.source())).append("</td><td>")
                .append(esc(w.what())).append("</td><td>").append(esc(w.setup())).append("</td><td>")
                .append(w.nics() == 0 ? "-" : String.valueOf(w.nics())).append("</td><td>")
                .append(w.low() == w.high() ? num(w.low()) : num(w.low()) + "-" + num(w.high())).append("</td><td>")
                .append(Double.isNaN(r.modelled()) ? "-" : String.format(Locale.ROOT, "%.4g", r.modelled()))
                .append("</td><td>").append(esc(w.unit())).append("</td><td>")
                .append(num(100 * w.tolerance()) + "%")
                .append("</td><td class=\"").append(cls).append("\">").append(esc(verdict)).append("</td><td>")
                .append(esc(w.scenario())).append("</td><td>").append(esc(String.join(", ", w.dependsOn())))
                .append("</td><td>").append(esc(r.note())).append("</td></tr>\n");
    }

    private static String num(double v) {
        return org.rdmasim.hardware.Units.number(v);
    }

    private static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
