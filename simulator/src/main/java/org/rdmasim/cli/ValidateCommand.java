package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rdmasim.validation.Validation;
import org.rdmasim.validation.ValidationCatalog;
import org.rdmasim.validation.ValidationReport;
import org.rdmasim.validation.ValidationRow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim validate}: the model against every published figure it is held to. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Compare the model with published figures, each with its source.",
                "",
                "The figures come from ModelExpress #449, Crusoe, NCCL PR #2064 and others (see "
                        + "simulator/SOURCES.md). Prints one row per figure and writes validation.json and "
                        + "index.html. Rows used to calibrate a parameter are shown but not counted. Every "
                        + "other row counts; a known failure (a figure the model does not reproduce today) says "
                        + "why and still counts.",
                "Exit codes: 0 every counted row passes, 1 a counted row fails (or a known failure starts to "
                        + "pass), 2 bad input, " + Main.INTERNAL_ERROR_WORDS + ". With --no-regression, known failures do not fail the run (CI's "
                        + "check: a row that passed must keep passing)."})
public final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--scenarios", paramLabel = "DIR", description = "the scenario folder the rows' files are read "
            + "from: its validation/ and a few catalogue scenarios (default: ${DEFAULT-VALUE})",
            defaultValue = "${sys:rdmasim.home:-.}/scenarios")
    Path scenarios;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "where to write (default: ${DEFAULT-VALUE})",
            defaultValue = "${sys:rdmasim.home:-.}/reports/validation")
    Path out;

    @Option(names = "--force", description = "write the report into DIR beside files rdmasim did not write (they are "
            + "kept; only the earlier report's own files are replaced)")
    boolean force;

    @Option(names = "--row", paramLabel = "ID", split = ",", description = "run only these rows (repeatable, or "
            + "ids separated by commas: no id holds one); each is then printed under the table with "
            + "its source, setup and assumptions, scenario, the parameters it rests on and its note; no report "
            + "folder is written unless --out is given, so the full table's report stays as it was")
    List<String> only;

    @Option(names = "--json", description = "print validation.json to standard output instead of the table "
            + "(the report folder is written as always)")
    boolean json;

    @Option(names = "--no-regression", description = "exit 0 when the only failing rows are the known failures "
            + "(each labelled with why); 1 when any other counted row fails or a known failure passes")
    boolean noRegression;

    @Option(names = {"-q", "--quiet"}, description = "no progress line (the table is still printed)")
    boolean quiet;

    @Option(names = ThreadsOption.NAME, paramLabel = ThreadsOption.LABEL, description = "rows judged at once, each "
            + "on its own thread (a variant several rows read still runs once); the table and validation.json do not "
            + "depend on it" + ThreadsOption.RANGE)
    Integer threads;

    /** How many near ids a refused --row suggests. */
    private static final int SUGGESTED = 3;

    /**
     * The refusal of {@code --row id} that names no row: the few ids nearest to it by edit distance (case
     * folded, so "mx-449-pin" finds MX-449-PIN), then how many rows there are and where their ids are listed,
     * not all of them (the catalogue holds hundreds).
     */
    static String noSuchRow(String id, List<String> ids) {
        String folded = id.toUpperCase(java.util.Locale.ROOT);
        java.util.function.ToIntFunction<String> distance = r -> org.rdmasim.transport.config.KnownVariables
                .editDistance(folded, r.toUpperCase(java.util.Locale.ROOT));
        // a slip is a few characters; an id that far from every row gets no guess
        int near = Math.max(2, id.length() / 3);
        List<String> nearest = ids.stream().filter(r -> distance.applyAsInt(r) <= near)
                .sorted(java.util.Comparator.comparingInt(distance).thenComparing(r -> r)).limit(SUGGESTED).toList();
        return "no validation row " + id + (nearest.isEmpty() ? "" : "; did you mean " + String.join(", ", nearest) + "?")
                + " (" + ids.size() + " rows: `rdmasim validate` lists every id, as does its report's index.html)";
    }

    /**
     * Why {@code scenarios} cannot serve {@code rows}, or null when it holds every file they read: a --scenarios
     * folder that is not a copy of rdmasim's own (a scenario's folder, a typo) would otherwise run and print every
     * row as ERROR, a verdict that reads as the model's, and exit 1 as a failed validation does.
     */
    static String lacking(Path scenarios, List<ValidationRow> rows) {
        java.util.Map<String, String> missing = new java.util.LinkedHashMap<>();
        for (ValidationRow r : rows) {
            String file = r.scenario().split("#", 2)[0];
            if (!file.isEmpty() && !file.equals("-") && !Files.isRegularFile(scenarios.resolve(file))) {
                missing.putIfAbsent(file, r.id());
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        List<String> named = missing.entrySet().stream().limit(3)
                .map(e -> e.getKey() + " (row " + e.getValue() + ")").toList();
        return "--scenarios " + scenarios + " holds no " + String.join(", ", named)
                + (missing.size() > 3 ? " and " + (missing.size() - 3) + " more file(s) the rows read" : "")
                + ": give a folder laid out as rdmasim's scenarios/ (its validation/ and the catalogue scenarios the"
                + " rows read), or leave --scenarios out";
    }

    /**
     * The files a validation reads, which its report may not be written over or beside: the scenarios folder and
     * each row's scenario file, so that {@code --out scenarios/validation --force} is refused as {@code run}
     * refuses a folder holding its scenario, where it wrote the report among the rows' own files.
     */
    static List<Path> inputs(Path scenarios, List<ValidationRow> rows) {
        List<Path> files = new java.util.ArrayList<>();
        files.add(scenarios);
        for (ValidationRow r : rows) {
            String file = r.scenario().split("#", 2)[0];
            if (!file.isEmpty() && !file.equals("-")) {
                files.add(scenarios.resolve(file));
            }
        }
        return files.stream().distinct().toList();
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        if (!Files.isDirectory(scenarios)) {
            // a scenario file given where its folder is meant read as if nothing were there
            throw new BadInputException(Files.exists(scenarios)
                    ? "--scenarios " + scenarios + " is a file, not a folder: give the folder holding validation/ "
                            + "(rdmasim's scenarios/), or leave --scenarios out"
                    : "no scenario folder at " + scenarios);
        }
        int workers = ThreadsOption.count(threads);
        List<ValidationRow> rows = ValidationCatalog.rows();
        if (spec.commandLine().getParseResult().hasMatchedOption("--row")
                && (only == null || only.stream().allMatch(String::isBlank))) {
            // '--row ,' splits into no id: it asked for some rows, not for the whole table and its report
            throw new BadInputException("--row: no row id given (write --row ID, e.g. --row MX-449-PIN; `rdmasim "
                    + "validate` lists every id)");
        }
        if (only != null) {
            // '--row A,,B' (or a trailing comma) has an empty id between the commas: a separator doubled, not a row
            // named '' ("no validation row  (217 rows ...)")
            only = only.stream().filter(id -> !id.isBlank()).toList();
        }
        if (only != null && !only.isEmpty()) {
            for (String id : only) {
                if (rows.stream().noneMatch(r -> r.id().equals(id))) {
                    throw new BadInputException(noSuchRow(id, rows.stream().map(ValidationRow::id).toList()));
                }
            }
            rows = rows.stream().filter(r -> only.contains(r.id())).toList();
        }
        String lacking = lacking(scenarios, rows);
        if (lacking != null) {
            throw new BadInputException(lacking);
        }
        // A few rows asked for by --row are a look, not the table: they replace the whole catalogue's report only
        // when --out names where to write (the default folder holds the full table a user or CI made).
        boolean partialLook = only != null && !only.isEmpty()
                && !spec.commandLine().getParseResult().hasMatchedOption("--out");
        Path target = partialLook ? Files.createTempDirectory("rdmasim-validate-row")
                : org.rdmasim.report.ReportFolder.claim(out, inputs(scenarios, rows), force,
                        org.rdmasim.validation.ValidationReport.FILES);
        // Every row simulates its scenarios: a whole catalogue takes minutes, so say which row runs (stderr only:
        // the table and --json on stdout stay the same with or without the line). Rows start on several threads.
        List<Validation.Result> results;
        int total = rows.size();
        try (Progress progress = quiet ? Progress.silent() : new Progress(spec.commandLine().getErr())) {
            java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
            results = Validation.run(rows, scenarios, workers,
                    id -> progress.update("validating row " + started.incrementAndGet() + " of " + total + ": " + id));
        }
        java.io.PrintWriter table = json ? new java.io.PrintWriter(java.io.Writer.nullWriter()) : o;
        for (ValidationRow.Evidence kind : ValidationRow.Evidence.values()) {
            List<Validation.Result> section = results.stream().filter(r -> r.row().evidence() == kind).toList();
            if (section.isEmpty()) {
                continue;
            }
            table.printf(Locale.ROOT, "%n%s%n", Validation.sectionTitle(kind));
            // the id column is as wide as the section's longest id (29 characters at most today): at a fixed 22 the
            // longer ids pushed every column of their line out of line with the header
            String idColumn = "%-" + Math.max(22, section.stream().mapToInt(r -> r.row().id().length()).max()
                    .orElse(0)) + "s";
            table.printf(Locale.ROOT, idColumn + " %-12s %-14s %-6s %-9s %-4s  %s%n", "row", "published", "modelled",
                    "unit", "tolerance", "NICs", "verdict");
            for (Validation.Result r : section) {
                ValidationRow w = r.row();
                String pub = w.low() == w.high() ? fmt(w.low()) : fmt(w.low()) + "-" + fmt(w.high());
                String model = Double.isNaN(r.modelled()) ? "-" : fmt(r.modelled());
                table.printf(Locale.ROOT, idColumn + " %-12s %-14s %-6s %-9s %-4s  %s%s%n", w.id(), pub, model, w.unit(),
                        fmt(100 * w.tolerance()) + "%", w.nics() == 0 ? "-" : String.valueOf(w.nics()),
                        r.verdict().words(), (w.calibration() ? " (calibration, not counted)"
                                : w.knownFailure().isEmpty() ? "" : ": " + w.knownFailure())
                                + (w.uncounted().isEmpty() ? "" : " (not counted: " + w.uncounted() + ")"));
            }
        }
        if (only != null && !only.isEmpty()) {
            details(table, results);
        }
        Validation.Tally t = Validation.tally(results);
        List<String> known = results.stream()
                .filter(r -> r.counted() && r.verdict() == Validation.Verdict.KNOWN_FAILURE).map(r -> r.row().id())
                .toList();
        ValidationReport.write(target, results);
        if (json) {
            o.print(Files.readString(target.resolve("validation.json"), java.nio.charset.StandardCharsets.UTF_8));
            o.flush();
        }
        if (partialLook) {
            deleteLook(target);
            table.printf(Locale.ROOT, "%n%s (no report written: --row writes one only with --out DIR)%n", t.describe());
        } else {
            table.printf(Locale.ROOT, "%n%s -> %s%n", t.describe(), out.resolve("index.html"));
        }
        if (!known.isEmpty()) {
            table.printf(Locale.ROOT, "known failures (the model does not reproduce these figures; each row says why): %s%n",
                    String.join(", ", known));
        }
        boolean good = noRegression ? Validation.noRegression(results) : Validation.allGood(results);
        if (!good && noRegression) {
            (json ? spec.commandLine().getErr() : o).println("a row that passed now fails, or a known failure now passes: see the verdicts above");
        }
        return good ? Main.OK : Main.VARIANT_FAILED;
    }

    /** Removes the temporary folder a --row look wrote its report into. */
    private static void deleteLook(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The rows asked for by {@code --row}, each as a reader checking a published figure needs it beside the
     * verdict: what was measured and where, the setup as published with what rdmasim had to assume, the
     * scenario and variant that pose it, the profile parameters it rests on, and the run's note (what held
     * it and, when the source states no UCX install, the answer under the other one). The whole catalogue's
     * table stays one line a row; these are in its validation.json and index.html.
     */
    static void details(PrintWriter table, List<Validation.Result> results) {
        for (Validation.Result r : results) {
            ValidationRow w = r.row();
            table.printf(Locale.ROOT, "%n%s: %s%n", w.id(), w.what());
            table.printf(Locale.ROOT, "  source:    %s%n", w.source());
            table.printf(Locale.ROOT, "  setup:     %s%n", w.setup());
            table.printf(Locale.ROOT, "  scenario:  %s%n", w.scenario() == null || w.scenario().isEmpty() ? "-"
                    : w.scenario());
            if (!w.dependsOn().isEmpty()) {
                table.printf(Locale.ROOT, "  rests on:  %s%n", String.join(", ", w.dependsOn()));
            }
            if (r.note() != null && !r.note().isEmpty()) {
                table.printf(Locale.ROOT, "  note:      %s%n", r.note());
            }
        }
    }

    private static String fmt(double v) {
        return org.rdmasim.hardware.Units.number(v);
    }
}
