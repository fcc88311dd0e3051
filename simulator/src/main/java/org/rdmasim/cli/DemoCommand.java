package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.rdmasim.scenario.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim demo}: every scenario of the catalog into reports/. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run every scenario in scenarios/ and write its report to reports/<scenario-name>/.", "",
                "Exit codes: 0 every scenario ran (a variant that fails by design says so with 'expect: failed'), "
                        + "1 a variant failed, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + ", 130 interrupted."})
public final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--scenarios", paramLabel = "DIR", description = "the folder whose .yaml files are run; its "
            + "subfolders (scale/, validation/, ...) are not (default: ${DEFAULT-VALUE})",
            defaultValue = "${sys:rdmasim.home:-.}/scenarios")
    Path scenarios;

    @Option(names = "--reports", paramLabel = "DIR", description = "where each scenario's report goes, as "
            + "DIR/<scenario-name>/, and the gallery, DIR/README.md (default: ${DEFAULT-VALUE})",
            defaultValue = "${sys:rdmasim.home:-.}/reports")
    Path reports;

    @Mixin
    ScenarioFiles scenarioFiles = new ScenarioFiles();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        org.rdmasim.report.ReportWriter.warmUp();
        if (!Files.isDirectory(scenarios)) {
            throw new BadInputException("no scenario folder at " + scenarios);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(scenarios)) {
            files = s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new BadInputException("no .yaml scenario in " + scenarios);
        }
        if (Files.exists(reports) && !Files.isDirectory(reports)) {
            throw new BadInputException("will not write reports under " + reports + ": it is not a folder");
        }
        // The gallery is checked before anything runs: a README.md there that rdmasim did not write, or that changed
        // since it wrote it (its hash is kept beside it), is never replaced, and saying so after minutes of runs
        // with exit 0 read as success.
        Path readme = reports.resolve("README.md");
        Path galleryHash = reports.resolve(GALLERY_HASH);
        if (Files.exists(readme)) {
            String now = org.rdmasim.report.Provenance.sha256(Files.readAllBytes(readme));
            boolean ours = Files.isRegularFile(galleryHash)
                    ? Files.readString(galleryHash, java.nio.charset.StandardCharsets.UTF_8).strip().equals(now)
                    // a gallery from before the hash was kept: rdmasim's by its heading
                    : Files.readString(readme, java.nio.charset.StandardCharsets.UTF_8).startsWith(GALLERY_HEADING);
            if (!ours) {
                throw new BadInputException(readme + (Files.isRegularFile(galleryHash) ? " changed since rdmasim wrote it"
                        : " was not written by rdmasim") + "; rdmasim never replaces a file you wrote or edited: move it "
                        + "out of " + reports + ", or choose another --reports");
            }
        }
        int worst = Main.OK;
        StringBuilder gallery = new StringBuilder(GALLERY_HEADING + "\n\nWritten by `./rdmasim demo` from `scenarios/`: one "
                + "scenario per section, its key chart and the question it asks. Open a scenario's `index.html` for the "
                + "computed answer, the lanes and what limited them; `validation/index.html` holds the model against "
                + "published figures.\n");
        for (Path f : files) {
            Scenario scenario = scenarioFiles.load(f);
            // Checked here first so that a refusal names demo's own option (it has no --out nor --force).
            org.rdmasim.report.ReportFolder.claim(reports.resolve(scenario.name()), RunCommand.inputs(scenario), false,
                    java.util.Set.of(), new org.rdmasim.report.ReportFolder.Remedies("--reports", false));
            int code = RunCommand.runInto(scenario, reports.resolve(scenario.name()), false, false, out, err);
            if (code == Main.INTERRUPTED) {
                return code;
            }
            worst = Math.max(worst, code);
            gallery.append(galleryEntry(scenario, reports.resolve(scenario.name())));
        }
        Files.writeString(readme, gallery.toString(), java.nio.charset.StandardCharsets.UTF_8);
        Files.writeString(galleryHash, org.rdmasim.report.Provenance.sha256(gallery.toString()
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "\n", java.nio.charset.StandardCharsets.UTF_8);
        out.println("reports written under " + reports + " (open " + reports.resolve("<scenario>/index.html") + ")");
        // A variant that fails by design says so with 'expect: failed' and does not count here.
        if (worst != Main.OK) {
            err.println("rdmasim: demo: a scenario failed (exit " + worst + "); see the FAILED lines above");
        }
        return worst;
    }

    /** The gallery's first line, by which a gallery written before its hash was kept is known as rdmasim's. */
    static final String GALLERY_HEADING = "# rdmasim reports";
    /** The file beside the gallery holding the SHA-256 of the gallery as rdmasim last wrote it. */
    static final String GALLERY_HASH = ".rdmasim-gallery";

    /** The charts a scenario's story is best told by, in order of preference. */
    private static final List<String> KEY_CHARTS = List.of("refit-cycle.png", "aggregate-bandwidth.png",
            "pull-time-cdf.png", "message-size-sweep.png", "pull-time.png");

    /** One gallery section: the scenario, the first sentence of its question, its key chart. */
    static String galleryEntry(Scenario scenario, Path dir) throws IOException {
        String chart = null;
        for (String c : KEY_CHARTS) {
            if (Files.exists(dir.resolve(c))) {
                chart = c;
                break;
            }
        }
        if (chart == null) {
            try (Stream<Path> s = Files.list(dir)) {
                chart = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".png")).sorted().findFirst()
                        .orElse(null);
            }
        }
        String text = scenario.description().replace('\n', ' ').replaceAll("\\s+", " ").trim();
        int end = text.indexOf(". ");
        String first = end > 0 ? text.substring(0, end + 1) : text;
        StringBuilder b = new StringBuilder("\n## [" + scenario.name() + "](" + scenario.name() + "/index.html)\n\n");
        b.append(first.isEmpty() ? "(no description)" : first).append("\n");
        if (chart != null) {
            b.append("\n![").append(scenario.name()).append("](").append(scenario.name()).append('/').append(chart)
                    .append(")\n");
        }
        return b.toString();
    }
}
