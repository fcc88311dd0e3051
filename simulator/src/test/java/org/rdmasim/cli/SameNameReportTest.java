package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy of a scenario made to try a change keeps its name: run into the same folder it would replace the
 * first file's report. It is refused (exit 2, naming the file whose report it is) unless --force; a rerun of
 * the same file, edited or not, replaces its own report.
 */
class SameNameReportTest {
    @TempDir
    Path dir;

    private static final String SCENARIO = """
            name: pull
            hosts:
              a: {preset: dgx-h100}
              b: {preset: dgx-h100}
            workload:
              transfers:
                - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
            """;

    @Test
    void anotherFileWithTheSameNameDoesNotReplaceTheReportUnlessForced() throws IOException {
        Path first = Files.writeString(dir.resolve("pull.yaml"), SCENARIO);
        Path copy = Files.writeString(dir.resolve("pull-try.yaml"), SCENARIO.replace("1 GB", "2 GB"));
        Path out = dir.resolve("out");
        assertEquals(0, CliTestSupport.run("run", first.toString(), "-q", "--out", out.toString()).code());
        String firstSummary = Files.readString(out.resolve("summary.json"));
        assertTrue(firstSummary.contains("\"scenarioFile\" : \"pull.yaml\""), firstSummary);

        var refused = CliTestSupport.run("run", copy.toString(), "-q", "--out", out.toString());
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("pull.yaml, another scenario named 'pull'"), refused.err());
        assertTrue(refused.err().contains(first.toAbsolutePath().normalize().toString())
                || refused.err().contains("holds the report of pull.yaml,"), "names the first file: " + refused.err());
        assertEquals(firstSummary, Files.readString(out.resolve("summary.json")), "the first report is left as it was");

        // the same file edited: its own report, replaced
        Files.writeString(first, SCENARIO.replace("1 GB", "4 GB"));
        assertEquals(0, CliTestSupport.run("run", first.toString(), "-q", "--out", out.toString()).code());
        // the copy with --force: replaced, and the report now names the copy
        assertEquals(0, CliTestSupport.run("run", copy.toString(), "-q", "--force", "--out", out.toString()).code());
        assertTrue(Files.readString(out.resolve("summary.json")).contains("\"scenarioFile\" : \"pull-try.yaml\""));
    }

    @Test
    void aCopyWithTheSameFileNameInAnotherFolderDoesNotReplaceTheReport() throws IOException {
        Path first = Files.writeString(Files.createDirectories(dir.resolve("mine")).resolve("pull.yaml"), SCENARIO);
        Path copy = Files.writeString(Files.createDirectories(dir.resolve("trial")).resolve("pull.yaml"),
                SCENARIO.replace("1 GB", "2 GB"));
        Path out = dir.resolve("reports").resolve("pull");
        assertEquals(0, CliTestSupport.run("run", first.toString(), "-q", "--out", out.toString()).code());
        assertTrue(Files.readString(out.resolve(".rdmasim-report")).contains("\nmade from ../../mine/pull.yaml\n"),
                "the manifest names the file relative to the folder");
        String firstSummary = Files.readString(out.resolve("summary.json"));

        var refused = CliTestSupport.run("run", copy.toString(), "-q", "--out", out.toString());
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains(first.toAbsolutePath().normalize().toString()), refused.err());
        assertEquals(firstSummary, Files.readString(out.resolve("summary.json")), "the first report is left as it was");

        // the file itself, rerun: its own report
        assertEquals(0, CliTestSupport.run("run", first.toString(), "-q", "--out", out.toString()).code());
        // scenarios and reports moved together (a clone elsewhere): the relative path still names the file
        Files.createDirectories(dir.resolve("moved"));
        Path moved = Files.move(dir.resolve("mine"), dir.resolve("moved").resolve("mine"));
        Path movedOut = Files.move(dir.resolve("reports"), dir.resolve("moved").resolve("reports")).resolve("pull");
        assertEquals(0, CliTestSupport.run("run", moved.resolve("pull.yaml").toString(), "-q", "--out",
                movedOut.toString()).code());
        assertEquals(2, CliTestSupport.run("run", copy.toString(), "-q", "--out", movedOut.toString()).code());
    }

    @Test
    void aFileMovedAwayFromItsReportIsComparedByName() throws IOException {
        Path first = Files.writeString(Files.createDirectories(dir.resolve("old")).resolve("pull.yaml"), SCENARIO);
        Path out = dir.resolve("out");
        assertEquals(0, CliTestSupport.run("run", first.toString(), "-q", "--out", out.toString()).code());
        Path now = Files.move(dir.resolve("old"), dir.resolve("new")).resolve("pull.yaml");
        // the manifest's path names nothing now: summary.json's file name decides, and it is the same file name
        assertEquals(0, CliTestSupport.run("run", now.toString(), "-q", "--out", out.toString()).code());
        assertTrue(Files.readString(out.resolve(".rdmasim-report")).contains("\nmade from ../new/pull.yaml\n"));
    }

    private static final String FANOUT = """
            name: pulls
            hosts:
              receivers: {preset: dgx-h100, count: 4, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            transport:
              env: |
                export MX_RDMA_NIC_PIN=auto
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
            """;

    @Test
    void aSizingOfACopyInAnotherFolderDoesNotReplaceTheFirstSizing() throws IOException {
        Path first = Files.writeString(Files.createDirectories(dir.resolve("mine")).resolve("pulls.yaml"), FANOUT);
        Path copy = Files.writeString(Files.createDirectories(dir.resolve("trial")).resolve("pulls.yaml"),
                FANOUT.replace("1 GB", "2 GB"));
        Path out = dir.resolve("sizing");
        String[] size = {"size", null, "--target-p99", "10s", "--vary", "sources", "-q", "--out", out.toString()};
        size[1] = first.toString();
        assertEquals(0, CliTestSupport.run(size).code());
        assertTrue(Files.readString(out.resolve(".rdmasim-report")).contains("\nmade from ../mine/pulls.yaml\n"));
        String firstSizing = Files.readString(out.resolve("sizing.json"));

        size[1] = copy.toString();
        var refused = CliTestSupport.run(size);
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("holds the sizing of " + first.toAbsolutePath().normalize()
                + ", another scenario named 'pulls'"), refused.err());
        assertEquals(firstSizing, Files.readString(out.resolve("sizing.json")), "the first sizing is left as it was");

        size[1] = first.toString();
        assertEquals(0, CliTestSupport.run(size).code(), "the same file sizes into its own folder again");
        String[] forced = java.util.Arrays.copyOf(size, size.length + 1);
        forced[1] = copy.toString();
        forced[size.length] = "--force";
        assertEquals(0, CliTestSupport.run(forced).code());
        assertTrue(Files.readString(out.resolve(".rdmasim-report")).contains("\nmade from ../trial/pulls.yaml\n"));
    }

    @Test
    void aStudyCopiedToAnotherFolderDoesNotReplaceTheFirstStudysResults() throws IOException {
        Path first = StudyFixture.write(Files.createDirectories(dir.resolve("mine")), StudyFixture.STUDY);
        Path copy = StudyFixture.write(Files.createDirectories(dir.resolve("trial")), StudyFixture.STUDY);
        Path out = dir.resolve("study-out");
        assertEquals(0, CliTestSupport.run("sweep", first.toString(), "-q", "--out", out.toString()).code());
        assertTrue(Files.readString(out.resolve(".rdmasim-report")).contains("\nmade from ../mine/" + first.getFileName() + "\n"),
                "the manifest names the study file, kept as the folder's later files are added");
        String results = Files.readString(out.resolve("results.csv"));

        var refused = CliTestSupport.run("sweep", copy.toString(), "-q", "--out", out.toString());
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("holds the study of " + first.toAbsolutePath().normalize()), refused.err());
        assertEquals(results, Files.readString(out.resolve("results.csv")), "the first study's results are left as they were");
        assertEquals(0, CliTestSupport.run("sweep", first.toString(), "-q", "--out", out.toString()).code(),
                "the same study file runs into its own folder again");
    }
}
