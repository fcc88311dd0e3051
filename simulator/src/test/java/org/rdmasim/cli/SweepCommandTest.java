package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aLocalSweepWritesOneRowPerPointAndReplicationWithKnobsFiguresAndLimiter() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        Path out = tmp.resolve("out");
        var r = CliTestSupport.run("sweep", study.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertEquals("point,replication,hosts.sources.count,workload.fanout.arrival.meanGap,status,p50PullSeconds,"
                + "p99PullSeconds,meanPullSeconds,makespanSeconds,aggregateGbps,limiter,error", csv.get(0));
        assertEquals(1 + 8, csv.size());
        // the grid turns the first knob slowest; each point has replications 0 and 1
        assertTrue(csv.get(1).startsWith("0,0,1,5 ms,ok,"), csv.get(1));
        assertTrue(csv.get(2).startsWith("0,1,1,5 ms,ok,"), csv.get(2));
        assertTrue(csv.get(8).startsWith("3,1,2,15 ms,ok,"), csv.get(8));
        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertTrue(json.get("complete").asBoolean());
        double lastP99 = 0;
        for (JsonNode row : json.get("results")) {
            double p50 = row.get("p50PullSeconds").asDouble();
            double p99 = row.get("p99PullSeconds").asDouble();
            assertTrue(p50 > 0 && p50 <= p99 && p99 <= row.get("makespanSeconds").asDouble() + 1e-12, row.toString());
            assertFalse(row.get("limiter").asText().isEmpty(), row.toString());
            lastP99 = p99;
        }
        // replications draw their own arrivals: the two rows of a point differ
        assertFalse(json.get("results").get(0).get("p99PullSeconds").equals(json.get("results").get(1).get("p99PullSeconds")));
        assertTrue(lastP99 > 0);
        for (String chart : List.of("p99PullSeconds-vs-hosts-sources-count", "makespanSeconds-vs-workload-fanout-arrival-meanGap")) {
            assertTrue(Files.size(out.resolve(chart + ".png")) > 1000, chart);
            assertTrue(Files.readString(out.resolve("index.html")).contains(chart + ".png"), chart);
        }
        assertFalse(Files.exists(out.resolve("rows.jsonl")), "the journal goes once the table is whole");
    }

    /**
     * A small refit base: Qwen3-4B from one GB200 tray to two, pulled over RDMA, registered tensor by tensor.
     * Written with the repository's model config in a models/ folder beside it, where the loader looks.
     */
    static final String REFIT_BASE = """
            name: refit-4b
            seed: 1
            hosts:
              trainers: {preset: gb200-tray, count: 1, prefix: train}
              inference: {preset: gb200-tray, count: 2, prefix: infer}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              refit:
                model: qwen3-4b
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 8}
                method: rdma-pull
                registration: per-tensor
                cycles: 1
            """;

    private void writeRefitBase() throws IOException {
        Files.writeString(tmp.resolve("base.yaml"), REFIT_BASE, StandardCharsets.UTF_8);
        CliTestSupport.shippedModel(tmp, "qwen3-4b");
    }

    /**
     * A refit study records the figures a refit's summary.json has: its makespan is the wall time of every
     * cycle (not the span of its wire transfers), its aggregate the wire bytes over that time, its limiter
     * what bound the steady cycle. The row at 2 cycles carries the numbers {@code run} writes for the base
     * at 2 cycles; the first cycle registers every tensor, so 2 cycles take less than twice 1.
     */
    @Test
    void aRefitStudyRecordsTheRefitsWallAggregateAndSteadyBoundAsItsSummaryDoes() throws IOException {
        writeRefitBase();
        Path study = tmp.resolve("study.yaml");
        Files.writeString(study, "study: refit\nscenario: base.yaml\nknobs:\n  workload.refit.cycles: [1, 2]\n",
                StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        var r = CliTestSupport.run("sweep", study.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("point,replication,workload.refit.cycles,status,makespanSeconds,aggregateGbps,limiter,error",
                Files.readAllLines(out.resolve("results.csv")).get(0), "a refit's default figures: the two it has");
        JsonNode rows = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("results");
        Path two = tmp.resolve("two.yaml");
        Files.writeString(two, REFIT_BASE.replace("cycles: 1", "cycles: 2"), StandardCharsets.UTF_8);
        Path report = tmp.resolve("report");
        assertEquals(0, CliTestSupport.run("run", two.toString(), "--out", report.toString(), "-q").code());
        JsonNode v = new ObjectMapper().readTree(report.resolve("summary.json").toFile()).get("variants").get(0);
        JsonNode row = rows.get(1);
        assertEquals(v.get("makespanSeconds").asDouble(), row.get("makespanSeconds").asDouble(), 1e-12, row.toString());
        assertEquals(v.get("refit").get("firstCycleSeconds").asDouble() + v.get("refit").get("steadyCycleSeconds")
                .asDouble(), row.get("makespanSeconds").asDouble(), 1e-9, "the wall is the cycles back to back");
        assertEquals(v.get("aggregateGbps").asDouble(), row.get("aggregateGbps").asDouble(), 1e-9, row.toString());
        assertEquals(v.get("limitedBy").asText(), row.get("limiter").asText());
        assertFalse(row.get("limiter").asText().isEmpty(), row.toString());
        double one = rows.get(0).get("makespanSeconds").asDouble();
        assertTrue(one < row.get("makespanSeconds").asDouble() && row.get("makespanSeconds").asDouble() < 2 * one,
                "a second cycle registers nothing again: " + one + " then " + row.get("makespanSeconds"));
    }

    /** A refit has no one pull per receiver: a refit study asking for a pull-time figure stops, exit 2, at it. */
    @Test
    void aRefitStudyAskingForAPullFigureIsRefusedAtTheFigure() throws IOException {
        writeRefitBase();
        for (String figure : List.of("p50PullSeconds", "p99PullSeconds", "meanPullSeconds")) {
            Path study = tmp.resolve(figure + ".yaml");
            Files.writeString(study, "study: refit\nscenario: base.yaml\nknobs:\n  workload.refit.cycles: [1, 2]\n"
                    + "figures: [makespanSeconds, " + figure + "]\n", StandardCharsets.UTF_8);
            Path out = tmp.resolve("out-" + figure);
            var r = CliTestSupport.run("sweep", study.toString(), "--out", out.toString());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains(study + ":5:") && r.err().contains("figure '" + figure + "' is a time per "
                    + "receiver pull, and the variant this study runs is a refit"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(Files.exists(out), "nothing written for " + figure);
        }
    }

    @Test
    void moreSourcesNeverSlowTheSlowestPullWhenOneSourceIsTheLimit() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY.replace("replications: 2", "replications: 1"));
        Path out = tmp.resolve("out");
        assertEquals(0, CliTestSupport.run("sweep", study.toString(), "--out", out.toString()).code());
        JsonNode rows = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("results");
        // points 0, 1: one source; 2, 3: two sources, same arrival gaps and seeds
        for (int gap = 0; gap < 2; gap++) {
            double one = rows.get(gap).get("makespanSeconds").asDouble();
            double two = rows.get(2 + gap).get("makespanSeconds").asDouble();
            assertTrue(two <= one, "makespan with 2 sources " + two + " > with 1 " + one);
        }
    }

    @Test
    void resumeRunsOnlyTheRowsNotDoneAndEndsWithTheSameTable() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        Path whole = tmp.resolve("whole");
        assertEquals(0, CliTestSupport.run("sweep", study.toString(), "--out", whole.toString()).code());
        // an interrupted run: its table on disk is the empty one written at the start, its rows in the journal
        Path cut = tmp.resolve("cut");
        Files.createDirectories(cut);
        ObjectMapper m = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode t = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(
                whole.resolve("results.json").toFile());
        com.fasterxml.jackson.databind.node.ArrayNode rows = (com.fasterxml.jackson.databind.node.ArrayNode) t.get("results");
        StringBuilder journal = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            journal.append(m.writeValueAsString(rows.get(i))).append('\n');
        }
        journal.append("{\"point\": 3, \"repl"); // the line a kill cut short
        t.set("results", m.createArrayNode());
        t.put("complete", false);
        t.put("rows", 0);
        m.writeValue(cut.resolve("results.json").toFile(), t);
        Files.writeString(cut.resolve("rows.jsonl"), journal, StandardCharsets.UTF_8);
        Files.writeString(cut.resolve(".rdmasim-report"), "x");
        var r = CliTestSupport.run("sweep", study.toString(), "--resume", cut.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("8 of 8 row(s)") && r.out().contains("3 from before"), r.out());
        StudyFixture.assertSameTables(whole, cut);
        // nothing left to do: a second resume runs nothing and writes the same
        var again = CliTestSupport.run("sweep", study.toString(), "--resume", cut.toString());
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("8 from before"), again.out());
        StudyFixture.assertSameTables(whole, cut);
    }

    @Test
    void resumeRefusesAFolderOfAnotherStudy() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        Path out = tmp.resolve("out");
        assertEquals(0, CliTestSupport.run("sweep", study.toString(), "--out", out.toString()).code());
        Path other = StudyFixture.write(tmp.resolve("other"), StudyFixture.STUDY.replace("[1, 2]", "[1, 3]"));
        var r = CliTestSupport.run("sweep", other.toString(), "--resume", out.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("fingerprint"), r.err());
    }

    @Test
    void anOutputFolderInTheWayIsRefusedSayingWhatIsInIt() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        Path mine = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(mine.resolve("notes.txt"), "the user's");
        var foreign = CliTestSupport.run("sweep", study.toString(), "--out", mine.toString());
        assertEquals(2, foreign.code());
        assertTrue(foreign.err().contains(mine + " holds notes.txt that rdmasim did not write"), foreign.err());
        // a run's report: every file rdmasim's, but a study would replace its index.html
        Path report = Files.createDirectories(tmp.resolve("report"));
        Files.writeString(report.resolve("summary.json"), "{}");
        Files.writeString(report.resolve("index.html"), "<html></html>");
        org.rdmasim.report.ReportFolder.addWritten(report, List.of("summary.json", "index.html"));
        var run = CliTestSupport.run("sweep", study.toString(), "--out", report.toString());
        assertEquals(2, run.code());
        assertTrue(run.err().contains(report + " holds the report of `rdmasim run` (summary.json)"), run.err());
        assertFalse(run.err().contains("did not write"), run.err());
        assertEquals("<html></html>", Files.readString(report.resolve("index.html")));
        var jobs = CliTestSupport.run("sweep", study.toString(), "--slurm", "--out", mine.toString());
        assertEquals(2, jobs.code());
        assertTrue(jobs.err().contains("holds notes.txt"), jobs.err());
    }

    @Test
    void badStudiesExitTwoNamingTheStudyFileLineAndField() throws IOException {
        record Case(String knobs, String where, String says) {
        }
        List<Case> cases = List.of(
                new Case("knobs:\n  hosts.sources.cuont: [1, 2]\n", ":5:", "hosts.sources.cuont: unknown field 'cuont'"),
                new Case("knobs:\n  nosuch.field: [1]\n", ":5:", "nosuch: unknown field 'nosuch'"),
                new Case("knobs:\n  hosts.source.count: [1, 2, 4]\n", ":5:",
                        "base.yaml has no host group 'source' (did you mean 'sources'?); its host groups: receivers, sources"),
                new Case("knobs:\n  hosts.sources.count: [1, -3]\n", ":5:28:", "hosts.sources.count: expected 1 to"),
                new Case("knobs:\n  workload.fanout.arrival.meanGap: [10 ms, -5 ms]\n", ":5:", "must not be negative"),
                new Case("knobs: {}\n", ":4:", "an empty study"),
                new Case("", ":1:", "an empty study"),
                new Case("knobs:\n  hosts.sources.count: []\n", ":5:", "no values"),
                new Case("knobs:\n  replications: [1, 2]\n", ":5:", "cannot be turned"),
                new Case("knobs:\n  hosts.sources.count: {from: 1, to: 4}\n", ":5:", "exactly one of 'step'"),
                new Case("knobs:\n  hosts.sources.count: [1, 2]\nfigures: [p99, makespanSeconds]\n", ":6:",
                        "unknown figure 'p99'"),
                new Case("knobs:\n  hosts.sources.count: [1, 2]\nsample: {points: 5}\n", ":6:", "expected 1 to 2 points"));
        int i = 0;
        for (Case c : cases) {
            Path dir = tmp.resolve("case" + i++);
            String text = "study: bad\nscenario: base.yaml\nreplications: 1\n" + c.knobs();
            Path study = StudyFixture.write(dir, text);
            Path out = dir.resolve("out");
            var r = CliTestSupport.run("sweep", study.toString(), "--out", out.toString());
            assertEquals(2, r.code(), c + ": " + r.err());
            assertTrue(r.err().contains(study + c.where()), c + ": " + r.err());
            assertTrue(r.err().contains(c.says()), c + ": " + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(Files.exists(out), "nothing written for " + c);
        }
    }

    /**
     * A knob on a field the study's variant sets itself would be hidden by it (a variant's fields are laid over the
     * knob's): every point would run the variant's bucket while the rows list the knob's. Refused at the knob's line,
     * naming the variant and its line, nothing run; a variant that leaves the field to the base runs.
     */
    @Test
    void aKnobTheStudysVariantSetsItselfIsRefusedNotIgnored() throws IOException {
        Files.writeString(tmp.resolve("base.yaml"), REFIT_BASE + """
                variants:
                  - name: pull
                  - name: broadcast-1GiB
                    workload: {refit: {method: nccl-broadcast, bucket: 1 GiB}}
                  - name: broadcast
                    workload: {refit: {method: nccl-broadcast}}
                """, StandardCharsets.UTF_8);
        CliTestSupport.shippedModel(tmp, "qwen3-4b");
        Path study = tmp.resolve("study.yaml");
        Files.writeString(study, "study: b\nscenario: base.yaml\nvariant: broadcast-1GiB\nknobs:\n"
                + "  workload.refit.bucket: [256 MiB, 1 GiB]\n", StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        var r = CliTestSupport.run("sweep", study.toString(), "--out", out.toString(), "-q");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(study + ":5:"), r.err());
        assertTrue(r.err().contains("variant 'broadcast-1GiB'"), r.err());
        assertTrue(r.err().contains("base.yaml:" + (REFIT_BASE.split("\n").length + 4)), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out));
        Files.writeString(study, Files.readString(study).replace("variant: broadcast-1GiB", "variant: broadcast"));
        var ok = CliTestSupport.run("sweep", study.toString(), "--out", out.toString(), "-q");
        assertEquals(0, ok.code(), ok.err());
        List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        assertFalse(rows.get(1).split(",")[4].equals(rows.get(2).split(",")[4]), "the bucket moves the wall: " + rows);
    }

    /**
     * A knob on transport.env: the variant's env is laid over the knob's variable by variable, so a variable the
     * variant sets too would run at the variant's value on every point while the rows list the knob's values (a user
     * saw four identical rows for UCX_MAX_RMA_RAILS=1, 2, 4, 8). Refused at the knob value's line, naming the variable,
     * the variant and its line; a variable the variant leaves to the base is turned.
     */
    @Test
    void anEnvKnobOnAVariableTheVariantSetsItselfIsRefused() throws IOException {
        Files.writeString(tmp.resolve("base.yaml"), """
                name: rails
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  env: |
                    export UCX_NET_DEVICES=all
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                variants:
                  - name: four
                    transport:
                      env: |
                        export UCX_MAX_RMA_RAILS=4
                  - name: plain
                """, StandardCharsets.UTF_8);
        Path study = tmp.resolve("study.yaml");
        Files.writeString(study, "study: e\nscenario: base.yaml\nvariant: four\nknobs:\n"
                + "  transport.env: [\"UCX_MAX_RMA_RAILS=1\", \"UCX_MAX_RMA_RAILS=2\"]\n", StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        var r = CliTestSupport.run("sweep", study.toString(), "--out", out.toString(), "-q");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(study + ":5:"), r.err());
        assertTrue(r.err().contains("sets UCX_MAX_RMA_RAILS, which variant 'four'") && r.err().contains("base.yaml:15"),
                r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out));
        Files.writeString(study, Files.readString(study).replace("variant: four", "variant: plain"));
        var ok = CliTestSupport.run("sweep", study.toString(), "--out", out.toString(), "-q");
        assertEquals(0, ok.code(), ok.err());
        List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        assertFalse(rows.get(1).split(",")[4].equals(rows.get(2).split(",")[4]), "the rail limit moves the pull: " + rows);
    }

    /**
     * A knob on transport.env adds to the base env variable by variable, as a variant's env does: the base's
     * UCX_NET_DEVICES=mlx5_0:1 stays beside each point's UCX_MAX_RMA_RAILS, so two rails are mlx5_0's two paths
     * (its wire rate, ~396 Gbps), not mlx5_0 and a NODE NIC (~376 Gbps) as when the knob replaced the whole block.
     */
    @Test
    void anEnvKnobAddsToTheBaseEnvRatherThanReplacingIt() throws IOException {
        Files.writeString(tmp.resolve("base.yaml"), """
                name: rails
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  env: |
                    export UCX_NET_DEVICES=mlx5_0:1
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """, StandardCharsets.UTF_8);
        Path study = tmp.resolve("study.yaml");
        Files.writeString(study, "study: e\nscenario: base.yaml\nknobs:\n"
                + "  transport.env: [\"UCX_MAX_RMA_RAILS=1\", \"UCX_MAX_RMA_RAILS=2\"]\n", StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        var ok = CliTestSupport.run("sweep", study.toString(), "--out", out.toString(), "-q");
        assertEquals(0, ok.code(), ok.err());
        List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        int col = List.of(rows.get(0).split(",")).indexOf("aggregateGbps");
        double one = Double.parseDouble(rows.get(1).split(",")[col]);
        double two = Double.parseDouble(rows.get(2).split(",")[col]);
        assertEquals(320, one, 1, rows.toString());
        assertEquals(395.7, two, 0.5, "two rails on mlx5_0 alone reach its wire rate: " + rows);
        // a bad value the knob sets is cited where it is written, in the study, not in the scenario it lays over
        Files.writeString(study, Files.readString(study).replace("UCX_MAX_RMA_RAILS=2", "UCX_MAX_RMA_RAILS=banana"));
        var bad = CliTestSupport.run("sweep", study.toString(), "--out", tmp.resolve("bad").toString(), "-q");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("UCX_MAX_RMA_RAILS='banana' (set by USER, " + study + ":4)"), bad.err());
        assertFalse(bad.err().contains("base.yaml"), bad.err());
    }

    @Test
    void mergeRefusesMissingIncompleteDoubledAndForeignShardsAndMergesNothing() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        for (int i = 1; i <= 3; i++) {
            assertEquals(0, CliTestSupport.run("sweep", study.toString(), "--shard", i + "/3", "--out",
                    tmp.resolve("s" + i).toString()).code());
        }
        Path other = StudyFixture.write(tmp.resolve("o"), StudyFixture.STUDY.replace("seed: 3", "seed: 4")
                .replace("replications: 2", "replications: 2\nseed: 9"));
        assertEquals(0, CliTestSupport.run("sweep", other.toString(), "--shard", "2/3", "--out",
                tmp.resolve("foreign").toString()).code());
        Path out = tmp.resolve("merged");
        var missing = CliTestSupport.run("merge", tmp.resolve("s1").toString(), tmp.resolve("s3").toString(), "--out", out.toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("shard(s) 2/3 of study 'tiny' missing"), missing.err());
        var foreign = CliTestSupport.run("merge", tmp.resolve("s1").toString(), tmp.resolve("foreign").toString(),
                tmp.resolve("s3").toString(), "--out", out.toString());
        assertEquals(2, foreign.code());
        assertTrue(foreign.err().contains(tmp.resolve("foreign").resolve("results.json") + ":1:1: fingerprint"), foreign.err());
        var twice = CliTestSupport.run("merge", tmp.resolve("s1").toString(), tmp.resolve("s1").toString(), "--out", out.toString());
        assertEquals(2, twice.code());
        assertTrue(twice.err().contains("given twice"), twice.err());
        Path empty = tmp.resolve("never-ran");
        Files.createDirectories(empty);
        var none = CliTestSupport.run("merge", tmp.resolve("s1").toString(), empty.toString(), "--out", out.toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("no result table") && none.err().contains(empty.toString()), none.err());
        // a folder with no table holds nothing --resume could continue; the advice is to run the shard
        assertFalse(none.err().contains("--resume"), none.err());
        assertTrue(none.err().contains("--shard I/N --out " + empty), none.err());
        // a run's report is not a shard: said so, with no advice to resume a sweep it never was
        Path report = tmp.resolve("a-run");
        assertEquals(0, CliTestSupport.run("run", StudyFixture.write(tmp.resolve("r"), StudyFixture.STUDY)
                .resolveSibling("base.yaml").toString(), "-q", "--out", report.toString()).code());
        var run = CliTestSupport.run("merge", tmp.resolve("s1").toString(), report.toString(), "--out", out.toString());
        assertEquals(2, run.code());
        assertTrue(run.err().contains(report + ": a run's report (summary.json), not a sweep shard's folder"), run.err());
        assertFalse(run.err().contains("--resume"), run.err());
        // a shard cut short: its table holds fewer rows than its share
        Path s2 = tmp.resolve("s2").resolve("results.json");
        ObjectMapper m = new ObjectMapper();
        var t = (com.fasterxml.jackson.databind.node.ObjectNode) m.readTree(s2.toFile());
        ((com.fasterxml.jackson.databind.node.ArrayNode) t.get("results")).remove(0);
        m.writeValue(s2.toFile(), t);
        var cut = CliTestSupport.run("merge", tmp.resolve("s1").toString(), tmp.resolve("s2").toString(),
                tmp.resolve("s3").toString(), "--out", out.toString());
        assertEquals(2, cut.code());
        assertTrue(cut.err().contains("shard 2/3") && cut.err().contains("failed or interrupted"), cut.err());
        assertFalse(Files.exists(out), "nothing merged");
    }

    @Test
    void mergeGivenAFileSaysItIsAFileNotAMissingFolder() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        Path base = study.resolveSibling("base.yaml");
        var file = CliTestSupport.run("merge", base.toString());
        assertEquals(2, file.code(), file.err());
        // it read "no such folder", though the path is there: it is a file
        assertTrue(file.err().startsWith("rdmasim: error: " + base + " is a file, not a folder"), file.err());
        assertFalse(file.err().contains("no such folder"), file.err());
        var gone = CliTestSupport.run("merge", tmp.resolve("nowhere").toString());
        assertEquals(2, gone.code(), gone.err());
        assertTrue(gone.err().contains(tmp.resolve("nowhere") + ": no such folder"), gone.err());
    }

    @Test
    void anOutputUnderAFileIsSaidInWordsBySweepAndMergeAsRunSaysIt() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        Path file = study.resolveSibling("base.yaml");
        String said = "rdmasim: I/O error: cannot write a report in " + file + ": " + file + " is a file, not a folder";
        // each read "rdmasim: I/O error: .../sub: Not a directory"
        var sweep = CliTestSupport.run("sweep", study.toString(), "-q", "--out", file.resolve("sub").toString());
        assertEquals(2, sweep.code(), sweep.err());
        assertEquals(said, sweep.err().strip());
        var jobs = CliTestSupport.run("sweep", study.toString(), "--slurm", "--out", file.resolve("sub").toString());
        assertEquals(2, jobs.code(), jobs.err());
        assertEquals(said, jobs.err().strip());
        assertEquals(0, CliTestSupport.run("sweep", study.toString(), "-q", "--out", tmp.resolve("whole").toString())
                .code());
        var merge = CliTestSupport.run("merge", tmp.resolve("whole").toString(), "--out", file.resolve("sub").toString());
        assertEquals(2, merge.code(), merge.err());
        assertEquals(said, merge.err().strip());
    }

    @Test
    void quietHidesTheProgressLineAsRunsDoes() throws IOException {
        Path study = StudyFixture.write(tmp, StudyFixture.STUDY);
        long period = Progress.plainPeriodMillis;
        long startAfter = Progress.quietStartMillis;
        Progress.plainPeriodMillis = 1; // a line every millisecond from the start, so a short sweep prints one
        Progress.quietStartMillis = 0;
        try {
            var loud = CliTestSupport.run("sweep", study.toString(), "--out", tmp.resolve("loud").toString());
            assertEquals(0, loud.code(), loud.err());
            assertTrue(loud.err().contains("row(s)"), "without -q the progress line is printed: " + loud.err());
            var quiet = CliTestSupport.run("sweep", study.toString(), "-q", "--out", tmp.resolve("quiet").toString());
            assertEquals(0, quiet.code(), quiet.err());
            assertFalse(quiet.err().contains("row(s)"), quiet.err());
            assertEquals(Files.readString(tmp.resolve("loud/results.csv")), Files.readString(tmp.resolve("quiet/results.csv")));
        } finally {
            Progress.plainPeriodMillis = period;
            Progress.quietStartMillis = startAfter;
        }
    }
}
