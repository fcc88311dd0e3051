package org.rdmasim.validation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.report.JsonText;
import org.rdmasim.report.PageTemplate;
import org.rdmasim.report.ReportFolder;


/**
 * validation.json ({@code id, source, published, modelled, unit, tolerance, pass, calibration} and more) and
 * index.html ({@code templates/validation.mustache}). A calibration row's {@code pass} is false (the model was
 * fitted to its figure, so it cannot pass); its {@code fitWithinTolerance} says whether the model still lands
 * within tolerance of that figure.
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

    /** The version of validation.json's layout; raised when a field is renamed or removed. */
    public static final int SCHEMA_VERSION = 1;

    /**
     * One object, as every other JSON rdmasim writes: {@code schemaVersion}, {@code command}, {@code tally} (what
     * the rows came to, as the table's last line says it) and {@code rows}, one object per row.
     */
    static String json(List<Validation.Result> results) {
        Validation.Tally t = Validation.tally(results);
        StringBuilder b = new StringBuilder("{\"schemaVersion\": ").append(SCHEMA_VERSION)
                .append(", \"command\": \"validate\",\n")
                .append(" \"tally\": {\"rows\": ").append(t.rows())
                .append(", \"measurements\": ").append(t.measurements())
                .append(", \"measurementsPassed\": ").append(t.measurementsPassed())
                .append(", \"multiNic\": ").append(t.multiNic())
                .append(", \"multiNicPassed\": ").append(t.multiNicPassed())
                .append(", \"configurations\": ").append(t.configurations())
                .append(", \"configurationsPassed\": ").append(t.configurationsPassed())
                .append(", \"calibration\": ").append(t.calibration())
                .append(", \"expectations\": ").append(t.expectations())
                .append(", \"flagged\": ").append(t.flagged())
                .append(", \"notCounted\": ").append(t.posed()).append("},\n")
                .append(" \"rows\": [\n");
        for (int i = 0; i < results.size(); i++) {
            Validation.Result r = results.get(i);
            ValidationRow w = r.row();
            b.append("  {\"id\": ").append(JsonText.quote(w.id()))
                    .append(", \"source\": ").append(JsonText.quote(w.source()))
                    .append(", \"what\": ").append(JsonText.quote(w.what()))
                    .append(", \"setup\": ").append(JsonText.quote(w.setup()))
                    .append(", \"published\": ").append(w.low() == w.high() ? num(w.low())
                            : "[" + num(w.low()) + ", " + num(w.high()) + "]")
                    .append(", \"modelled\": ").append(Double.isNaN(r.modelled()) ? "null" : num(r.modelled()))
                    .append(", \"unit\": ").append(JsonText.quote(w.unit()))
                    .append(", \"tolerance\": ").append(num(w.tolerance()))
                    .append(", \"evidence\": ").append(JsonText.quote(w.evidence().name().toLowerCase(Locale.ROOT)))
                    .append(", \"nics\": ").append(w.nics()).append(", \"counted\": ").append(r.counted())
                    .append(", \"pass\": ").append(r.pass())
                    .append(", \"verdict\": ").append(JsonText.quote(r.verdict().words()))
                    .append(", \"calibration\": ").append(w.calibration())
                    .append(w.calibration() ? ", \"fitWithinTolerance\": " + r.withinTolerance() : "")
                    .append(w.uncounted().isEmpty() ? "" : ", \"notCountedBecause\": " + JsonText.quote(w.uncounted()))
                    .append(", \"knownFailure\": ").append(JsonText.quote(w.knownFailure()))
                    .append(", \"scenario\": ").append(JsonText.quote(w.scenario()))
                    .append(", \"dependsOn\": [");
            for (int k = 0; k < w.dependsOn().size(); k++) {
                b.append(k == 0 ? "" : ", ").append(JsonText.quote(w.dependsOn().get(k)));
            }
            b.append("], \"note\": ").append(JsonText.quote(r.note())).append('}')
                    .append(i + 1 < results.size() ? ",\n" : "\n");
        }
        return b.append(" ]\n}\n").toString();
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

        /** Whether the row names parameters it depends on (a "depends on:" line with nothing after it is left out). */
        boolean hasDependsOn() {
            return !dependsOn.isEmpty();
        }
    }

    /** The rows of one kind of evidence under its title. */
    record Section(String title, List<Row> rows) {
    }

    /**
     * The page: the tally first (id verdict), the modelled/published chart per row ({@link RatioChart}, markup
     * written by this project, placed unescaped), then one table per kind of evidence.
     */
    record Page(String tally, String ratioChart, List<Section> sections) {
    }

    static String html(List<Validation.Result> results) {
        List<Section> sections = new ArrayList<>();
        for (ValidationRow.Evidence kind : ValidationRow.Evidence.values()) {
            List<Row> rows = results.stream().filter(r -> r.row().evidence() == kind).map(ValidationReport::row).toList();
            if (!rows.isEmpty()) {
                sections.add(new Section(Validation.sectionTitle(kind), rows));
            }
        }
        return PAGE.render(new Page(Validation.tally(results).describe(), RatioChart.svg(results), sections));
    }

    private static Row row(Validation.Result r) {
        ValidationRow w = r.row();
        String cls = r.verdict() == Validation.Verdict.PASS ? "pass"
                : r.verdict() == Validation.Verdict.FAIL || r.verdict() == Validation.Verdict.ERROR
                        || r.verdict() == Validation.Verdict.UNEXPECTED_PASS ? "fail" : "other";
        String verdict = r.verdict().words() + (w.calibration() ? " (calibration, not counted)" : "")
                + (w.uncounted().isEmpty() ? "" : " (not counted: " + w.uncounted() + ")");
        return new Row(w.id(), w.source(), w.what(), w.setup(), w.nics() == 0 ? "-" : String.valueOf(w.nics()),
                w.low() == w.high() ? num(w.low()) : num(w.low()) + "-" + num(w.high()),
                Double.isNaN(r.modelled()) ? "-" : String.format(Locale.ROOT, "%.4g", r.modelled()), w.unit(),
                num(100 * w.tolerance()) + "%", verdict, cls, w.knownFailure(), w.scenario(), String.join(", ", w.dependsOn()), r.note());
    }

    private static String num(double v) {
        return org.rdmasim.hardware.Units.number(v);
    }

}
