package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Output ownership, the same rules for every command that writes a report folder: rdmasim replaces only
 * files its manifest lists with a matching hash; a user's file beside them is refused (exit 2, named)
 * or, with --force, kept; an output that is a file, a FIFO, the scenario or a folder holding it is
 * refused; a symbolic link is followed, never replaced by a folder.
 */
class OutputOwnershipTest {
    @TempDir
    Path dir;

    /** Eight receivers of a 1 GB model from one source: small enough for every command to run in a second. */
    private static final String SCENARIO = """
            name: own
            hosts:
              receivers: {preset: dgx-h100, count: 8, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
            """;

    private Path scenarios;
    private Path scenario;

    /** A command that writes a report folder: its arguments to write into {@code folder}, and a file it writes. */
    enum Writer {
        RUN("summary.json", true) {
            @Override
            List<String> args(Path scenario, Path folder) {
                return List.of("run", scenario.toString(), "-q", "--out", folder.toString());
            }
        },
        DEMO("summary.json", false) {
            @Override
            List<String> args(Path scenario, Path folder) {
                // demo writes <reports>/<scenario name>: the folder is named as the scenario ("own")
                return List.of("demo", "--scenarios", scenario.getParent().toString(), "--reports",
                        folder.getParent().toString());
            }

            @Override
            Path folder(Path dir) {
                return dir.resolve("reports").resolve("own");
            }
        },
        BENCH("summary.json", true) {
            @Override
            List<String> args(Path scenario, Path folder) {
                return List.of("bench", "--scenario", scenario.toString(), "-q", "--out", folder.toString());
            }
        },
        VALIDATE("validation.json", true) {
            @Override
            List<String> args(Path scenario, Path folder) {
                return List.of("validate", "--scenarios", scenario.getParent().toString(), "--row", "MTT-LOG-NUM",
                        "--out", folder.toString());
            }
        },
        SIZE("sizing.json", true) {
            @Override
            List<String> args(Path scenario, Path folder) {
                return List.of("size", scenario.toString(), "--target-p99", "100", "--vary", "sources", "--threads", "1",
                        "--out", folder.toString());
            }
        };

        final String reportFile;
        final boolean hasForce;

        Writer(String reportFile, boolean hasForce) {
            this.reportFile = reportFile;
            this.hasForce = hasForce;
        }

        abstract List<String> args(Path scenario, Path folder);

        Path folder(Path dir) {
            return dir.resolve("rep");
        }

        CliTestSupport.Outcome write(Path scenario, Path folder, boolean force) {
            List<String> a = new ArrayList<>(args(scenario, folder));
            if (force) {
                a.add("--force");
            }
            return CliTestSupport.run(a.toArray(String[]::new));
        }
    }

    @BeforeEach
    void scenario() throws IOException {
        scenarios = Files.createDirectories(dir.resolve("own"));
        scenario = scenarios.resolve("s.yaml");
        Files.writeString(scenario, SCENARIO);
    }

    private static void assertRefused(CliTestSupport.Outcome o, String... fragments) {
        assertEquals(2, o.code(), o.out() + o.err());
        for (String f : fragments) {
            assertTrue(o.err().contains(f), "'" + f + "' in: " + o.err());
        }
        assertFalse(o.err().contains("\tat "), o.err());
    }

    private void writeEarlierReportWithUserFiles(Writer w, Path folder) throws IOException {
        CliTestSupport.Outcome first = w.write(scenario, folder, false);
        assertTrue(first.code() <= 1, first.err());
        assertTrue(Files.exists(folder.resolve(w.reportFile)), first.err());
        assertTrue(Files.readString(folder.resolve(".rdmasim-report")).contains("  " + w.reportFile + "\n"),
                "the manifest lists " + w.reportFile);
        Files.writeString(folder.resolve("my-notes.txt"), "my notes");
        Files.createDirectories(folder.resolve("analysis"));
        Files.writeString(folder.resolve("analysis/plot.py"), "print(1)");
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aUserFileBesideAnEarlierReportIsRefusedByNameAndKept(Writer w) throws IOException {
        Path folder = w.folder(dir);
        writeEarlierReportWithUserFiles(w, folder);
        CliTestSupport.Outcome again = w.write(scenario, folder, false);
        assertRefused(again, "analysis", "my-notes.txt", "did not write");
        // the advice names only options the command has (demo: --reports, and no --force)
        assertEquals(w.hasForce, again.err().contains("--force"), again.err());
        assertTrue(again.err().contains(w == Writer.DEMO ? "choose another --reports" : "choose another --out"), again.err());
        assertEquals("my notes", Files.readString(folder.resolve("my-notes.txt")));
        assertEquals("print(1)", Files.readString(folder.resolve("analysis/plot.py")));
        assertTrue(Files.exists(folder.resolve(w.reportFile)));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void forceReplacesTheEarlierReportAndKeepsWhatTheUserWrote(Writer w) throws IOException {
        assumeTrue(w.hasForce, "demo has no --force");
        Path folder = w.folder(dir);
        writeEarlierReportWithUserFiles(w, folder);
        Files.writeString(folder.resolve("stale.svg"), "mine too"); // a report-like name rdmasim did not write
        CliTestSupport.Outcome again = w.write(scenario, folder, true);
        assertTrue(again.code() <= 1, again.err());
        assertEquals("my notes", Files.readString(folder.resolve("my-notes.txt")));
        assertEquals("print(1)", Files.readString(folder.resolve("analysis/plot.py")));
        assertEquals("mine too", Files.readString(folder.resolve("stale.svg")));
        String manifest = Files.readString(folder.resolve(".rdmasim-report"));
        assertTrue(manifest.contains("  " + w.reportFile + "\n"), manifest);
        assertFalse(manifest.contains("my-notes.txt") || manifest.contains("stale.svg"), manifest);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aReportFileTheUserEditedIsNotReplaced(Writer w) throws IOException {
        assumeTrue(w.hasForce, "demo has no --force");
        Path folder = w.folder(dir);
        assertTrue(w.write(scenario, folder, false).code() <= 1);
        Files.writeString(folder.resolve(w.reportFile), "edited by hand");
        // the advice is what works: --force keeps the user's files beside the report, so it cannot write this
        // name; the refusal says so at once instead of offering --force and refusing again after the run
        CliTestSupport.Outcome plain = w.write(scenario, folder, false);
        assertRefused(plain, w.reportFile, "changed since", "move it out of the folder", "choose another --out");
        assertFalse(plain.err().contains("pass --force"), plain.err());
        CliTestSupport.Outcome forced = w.write(scenario, folder, true);
        assertRefused(forced, w.reportFile, "never replaces a report file you edited (--force included)",
                "move it out of the folder");
        assertEquals("edited by hand", Files.readString(folder.resolve(w.reportFile)));
        // moving it out is enough: the next write succeeds and the moved file is the user's as they left it
        Files.move(folder.resolve(w.reportFile), dir.resolve("kept-" + w.reportFile));
        assertTrue(w.write(scenario, folder, false).code() <= 1);
        assertEquals("edited by hand", Files.readString(dir.resolve("kept-" + w.reportFile)));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aPlainFileIsRefusedEvenWithForce(Writer w) throws IOException {
        Path folder = w.folder(dir);
        Files.createDirectories(folder.getParent());
        Files.writeString(folder, "precious");
        assertRefused(w.write(scenario, folder, false), "folder");
        if (w.hasForce) {
            assertRefused(w.write(scenario, folder, true), "is a file");
        }
        assertEquals("precious", Files.readString(folder));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aFifoIsRefused(Writer w) throws Exception {
        Path folder = w.folder(dir);
        Files.createDirectories(folder.getParent());
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", folder.toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo here");
            return;
        }
        assumeTrue(p.waitFor() == 0 && Files.exists(folder), "mkfifo failed");
        assertRefused(w.write(scenario, folder, w.hasForce), "folder");
        assertTrue(Files.exists(folder) && !Files.isDirectory(folder) && !Files.isRegularFile(folder), "the FIFO is still there");
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void theScenarioFileItselfIsRefused(Writer w) throws IOException {
        assumeTrue(w != Writer.DEMO, "demo names its report folders after the scenario");
        assertRefused(w.write(scenario, scenario, w.hasForce));
        assertEquals(SCENARIO, Files.readString(scenario));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aFolderHoldingTheScenarioIsRefused(Writer w) throws IOException {
        // the scenario's own folder (demo: the reports folder whose <scenario name> folder is the scenario's)
        List<String> args = w == Writer.DEMO
                ? List.of("demo", "--scenarios", scenarios.toString(), "--reports", dir.toString())
                : w.args(scenario, scenarios);
        assertRefused(CliTestSupport.run(args.toArray(String[]::new)), "the input");
        assertEquals(List.of("s.yaml"), listing(scenarios));
        if (w != Writer.DEMO) {
            // and a folder above it
            assertRefused(w.write(scenario, dir, w.hasForce), "the input");
        }
        assertEquals(SCENARIO, Files.readString(scenario));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aSymlinkToAnEarlierReportIsFollowedNotReplaced(Writer w) throws IOException {
        Path folder = w.folder(dir);
        Path real = dir.resolve("elsewhere").resolve(folder.getFileName());
        assertTrue(w.write(scenario, real, false).code() <= 1);
        Files.createDirectories(folder.getParent());
        Files.createSymbolicLink(folder, real);
        Files.writeString(real.resolve(w.reportFile), "");
        Files.delete(real.resolve(w.reportFile)); // an earlier report minus one file: still rdmasim's own
        CliTestSupport.Outcome o = w.write(scenario, folder, false);
        assertTrue(o.code() <= 1, o.err());
        assertTrue(Files.isSymbolicLink(folder), "the link is still a link");
        assertTrue(Files.exists(real.resolve(w.reportFile)), "the report went where the link points");
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void aDanglingSymlinkIsRefused(Writer w) throws IOException {
        Path folder = w.folder(dir);
        Files.createDirectories(folder.getParent());
        Files.createSymbolicLink(folder, dir.resolve("nowhere"));
        assertRefused(w.write(scenario, folder, w.hasForce), "does not exist");
        assertTrue(Files.isSymbolicLink(folder));
        assertFalse(Files.exists(dir.resolve("nowhere")));
    }

    /**
     * demo's gallery (REPORTS/README.md): one the user wrote, or the one demo wrote and the user then edited, is refused
     * before any scenario runs (exit 2, naming it) and kept as it was. A README.md not rdmasim's was passed over after
     * every scenario had run, exit 0; one rdmasim wrote and the user added notes under was replaced, notes and all.
     */
    @Test
    void demosGalleryTheUserWroteOrEditedIsKept() throws IOException {
        Path reports = Files.createDirectories(dir.resolve("gallery"));
        Path readme = reports.resolve("README.md");
        Files.writeString(readme, "my own notes\n");
        assertRefused(CliTestSupport.run("demo", "--scenarios", scenarios.toString(), "--reports", reports.toString()),
                readme + " was not written by rdmasim; rdmasim never replaces a file you wrote or edited");
        assertEquals("my own notes\n", Files.readString(readme));
        assertFalse(Files.exists(reports.resolve("own")), "nothing ran");

        Files.delete(readme);
        assertEquals(0, CliTestSupport.run("demo", "--scenarios", scenarios.toString(), "--reports",
                reports.toString()).code());
        assertTrue(Files.readString(readme).startsWith("# rdmasim reports"));
        // rdmasim's own gallery is replaced on the next demo
        assertEquals(0, CliTestSupport.run("demo", "--scenarios", scenarios.toString(), "--reports",
                reports.toString()).code());
        String edited = Files.readString(readme) + "\nmy note under the gallery\n";
        Files.writeString(readme, edited);
        assertRefused(CliTestSupport.run("demo", "--scenarios", scenarios.toString(), "--reports", reports.toString()),
                readme + " changed since rdmasim wrote it");
        assertEquals(edited, Files.readString(readme));
    }

    private static List<String> listing(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
