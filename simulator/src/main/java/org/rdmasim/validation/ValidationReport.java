package org.rdmasim.validation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.report.PageTemplate;
import org.rdmasim.report.ReportFolder;

/**
 * validation.json ({@code id, source, published, modelled, unit, tolerance, pass, calibration} and more) and
 * index.html ({@code templates/validation.mustache}).
 */
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

    private static final PageTemplate PAGE = PageTemplate.named("validation");

    /** One row of a section's table: the figure, its source and setup (folded), and the verdict. */
    record Row(String id, String source, String what, String setup, String nics, String published, String modelled,
            String unit, String tolerance, String verdict, String verdictClass, String knownFailure, String scenario,
            String dependsOn, String note) {
        /** Whether the row is a known failure, with why the model does not reproduce the figure. */
        boolean explained() {
            return !knownFailure.isEmpty();
        }
    }

    /** The rows of one kind of evidence under its title. */
    record Section(String title, List<Row> rows) {
    }

    /** A tick of the scatter's log axes: where it sits on either axis and its power of ten. */
    record Tick(int at, int mirrored, int power) {
    }

    /** One row on the scatter: where, its colour by verdict, and what hovering over it says. */
    record Dot(String x, String y, String colour, String title) {
    }

    /** Published (x) against modelled (y) on log axes, with the y = x line; {@code size} the plot's side. */
    record Scatter(int size, int pad, List<Tick> ticks, List<Dot> dots) {
        int side() {
            return size + 2 * pad;
        }

        int bottom() {
            return pad + size;
        }

        int right() {
            return pad + size;
        }

        int tickLabelY() {
            return pad + size + 16;
        }

        int tickLabelX() {
            return pad - 6;
        }

        int titleY() {
            return pad + size + 34;
        }

        int middle() {
            return pad + size / 2;
        }
    }

    /** The page: the tally first (id verdict), the scatter, then one table per kind of evidence. */
    record Page(String tally, Scatter scatter, List<Section> sections) {
    }

    static String html(List<Validation.Result> results) {
        List<Section> sections = new ArrayList<>();
        for (ValidationRow.Evidence kind : ValidationRow.Evidence.values()) {
            List<Row> rows = results.stream().filter(r -> r.row().evidence() == kind).map(ValidationReport::row).toList();
            if (!rows.isEmpty()) {
                sections.add(new Section(Validation.sectionTitle(kind), rows));
            }
        }
        return PAGE.render(new Page(Validation.tally(results).describe(), scatter(results), sections));
    }

    private static Row row(Validation.Result r) {
        ValidationRow w = r.row();
        String cls = r.verdict() == Validation.Verdict.PASS ? "pass"
                : r.verdict() == Validation.Verdict.FAIL || r.verdict() == Validation.Verdict.ERROR
                        || r.verdict() == Validation.Verdict.UNEXPECTED_PASS ? "fail" : "other";
        String verdict = r.verdict().words() + (w.calibration() ? " (calibration, not counted)" : "");
        return new Row(w.id(), w.source(), w.what(), w.setup(), w.nics() == 0 ? "-" : String.valueOf(w.nics()),
                w.low() == w.high() ? num(w.low()) : num(w.low()) + "-" + num(w.high()),
                Double.isNaN(r.modelled()) ? "-" : String.format(Locale.ROOT, "%.4g", r.modelled()), w.unit(),
                num(100 * w.tolerance()) + "%", verdict, cls, w.knownFailure(), w.scenario(), String.join(", ", w.dependsOn()), r.note());
    }

    /** Published (x) against modelled (y) on log axes, one dot per row with a value; null when no row has one. */
    static Scatter scatter(List<Validation.Result> results) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (Validation.Result r : results) {
            double p = Math.sqrt(r.row().low() * r.row().high());
            if (p > 0 && r.modelled() > 0) {
                lo = Math.min(lo, Math.min(p, r.modelled()));
                hi = Math.max(hi, Math.max(p, r.modelled()));
            }
        }
        if (!(hi > 0)) {
            return null;
        }
        double l0 = Math.floor(Math.log10(lo));
        double l1 = Math.ceil(Math.log10(hi));
        int size = 420;
        int pad = 50;
        List<Tick> ticks = new ArrayList<>();
        for (double d = l0; d <= l1; d++) {
            int at = (int) Math.round(pad + (d - l0) / (l1 - l0) * size);
            ticks.add(new Tick(at, pad + size - (at - pad) + 3, (int) d));
        }
        List<Dot> dots = new ArrayList<>();
        for (Validation.Result r : results) {
            double p = Math.sqrt(r.row().low() * r.row().high());
            if (!(p > 0 && r.modelled() > 0) || !r.counted() && !r.row().calibration()) {
                continue;
            }
            double x = pad + (Math.log10(p) - l0) / (l1 - l0) * size;
            double y = pad + size - (Math.log10(r.modelled()) - l0) / (l1 - l0) * size;
            String colour = r.row().calibration() ? "#888" : r.pass() ? "#1a7f1a"
                    : r.verdict() == Validation.Verdict.KNOWN_FAILURE ? "#c08a00" : "#c00020";
            dots.add(new Dot(String.format(Locale.ROOT, "%.1f", x), String.format(Locale.ROOT, "%.1f", y), colour,
                    String.format(Locale.ROOT, "%s: published %s, modelled %.4g %s", r.row().id(), num(p), r.modelled(),
                            r.row().unit())));
        }
        return new Scatter(size, pad, ticks, dots);
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

}
