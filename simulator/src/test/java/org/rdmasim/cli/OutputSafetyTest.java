package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A report is written whole or not at all, in a place checked before simulating, one file per variant. */
class OutputSafetyTest {
    @TempDir
    Path dir;

    /** Two DGX H100 hosts, one 1 GB transfer. */
    private static final String TWO_HOSTS = ScenarioErrorsTest.GOOD.replace("name: ok", "name: safety");

    /** Enough fan-out work (five variants of 64 receivers, 8 replications) to last well over a second. */
    private static final String SLOW = """
            name: safety
            replications: 16
            hosts:
              receivers: {preset: gb200-tray, count: 512, prefix: r}
              sources: {preset: gb200-tray, count: 2, prefix: s}
            workload:
              fanout:
                receivers: {hosts: receivers, gpus: [GPU0]}
                sources: {hosts: sources, gpus: [GPU0]}
                model: 16 GB
                arrival: all-at-once
                jitter: {nicRate: 2%}
            variants:
              - {name: v1}
              - {name: v2}
              - {name: v3}
              - {name: v4}
              - {name: v5}
            """;

    @Test
    void anInterruptedRunLeavesThePreviousReportIntact() throws Exception {
        Path scenario = dir.resolve("s.yaml");
        Path out = dir.resolve("out");
        Files.writeString(scenario, TWO_HOSTS);
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "-q", "--out", out.toString()).code());
        byte[] summary = Files.readAllBytes(out.resolve("summary.json"));
        List<String> files = listing(out);

        Files.writeString(scenario, SLOW);
        StringWriter err = new StringWriter();
        int[] code = new int[1];
        Thread run = new Thread(() -> code[0] = Main.execute(new String[] {"run", scenario.toString(), "-q",
                "--threads", "1", "--out", out.toString()}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true)));
        run.start();
        Thread.sleep(300);
        run.interrupt();
        run.join(60_000);

        assertEquals(130, code[0], err.toString());
        assertTrue(err.toString().contains("safety: interrupted; nothing written, the previous report in " + out
                + " is as it was"), err.toString());
        assertArrayEquals(summary, Files.readAllBytes(out.resolve("summary.json")));
        assertEquals(files, listing(out));
        assertEquals(List.of("out", "s.yaml"), listing(dir), "no staging folder is left beside the report");
    }

    /**
     * Ctrl-C in the middle of one long variant (one replication thread, so nothing waits on a future to be
     * interrupted): the event loop sees the interrupt and the run stops at once, well inside the 10 s the
     * Ctrl-C hook waits before the JVM exits anyway, with 130 and the previous report as it was.
     */
    @Test
    void anInterruptStopsTheVariantUnderWay() throws Exception {
        Path scenario = dir.resolve("s.yaml");
        Path out = dir.resolve("out");
        Files.writeString(scenario, TWO_HOSTS);
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "-q", "--out", out.toString()).code());
        byte[] summary = Files.readAllBytes(out.resolve("summary.json"));
        // one variant of 2,000 replications: about 10 s on a 2-core machine if it ran to its end
        Files.writeString(scenario, SLOW.replace("replications: 16", "replications: 2000")
                .replaceAll("(?s)variants:.*", "variants:\n  - {name: only}\n"));
        StringWriter err = new StringWriter();
        int[] code = new int[1];
        Thread run = new Thread(() -> code[0] = Main.execute(new String[] {"run", scenario.toString(), "-q",
                "--threads", "1", "--out", out.toString()}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true)));
        run.start();
        Thread.sleep(1500);
        assertTrue(run.isAlive(), "still simulating when interrupted");
        long interruptedAt = System.nanoTime();
        run.interrupt();
        run.join(60_000);
        double stopSeconds = (System.nanoTime() - interruptedAt) / 1e9;

        assertTrue(stopSeconds < 3, "stopped " + stopSeconds + " s after the interrupt");
        assertEquals(130, code[0], err.toString());
        assertTrue(err.toString().contains("safety: interrupted; nothing written, the previous report in " + out
                + " is as it was"), err.toString());
        assertFalse(err.toString().contains("Exception"), err.toString());
        assertArrayEquals(summary, Files.readAllBytes(out.resolve("summary.json")));
        assertEquals(List.of("out", "s.yaml"), listing(dir), "no staging folder is left beside the report");
    }

    @Test
    void anUnwritableOutputIsFoundBeforeSimulating() throws IOException {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, SLOW);
        Files.writeString(dir.resolve("file"), "");
        long start = System.nanoTime();
        CliTestSupport.Outcome o = CliTestSupport.run("run", scenario.toString(), "-q", "--out",
                dir.resolve("file/report").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("rdmasim: I/O error: cannot write a report in " + dir.resolve("file")), o.err());
        assertFalse(o.err().contains("variant 1/5"), "no variant ran: " + o.err());
        // what is wrong, in words: not the Java exception's name (it read "...: FileAlreadyExistsException")
        assertTrue(o.err().contains(dir.resolve("file") + " is a file, not a folder"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());        // the file further up the path (FILE/a/report) is named too: it read "...file/a: Not a directory"
        CliTestSupport.Outcome deeper = CliTestSupport.run("run", scenario.toString(), "-q", "--out",
                dir.resolve("file/a/report").toString());
        assertEquals(2, deeper.code(), deeper.err());
        assertEquals("rdmasim: I/O error: cannot write a report in " + dir.resolve("file/a") + ": " + dir.resolve("file")
                + " is a file, not a folder", deeper.err().strip());
    }

    @Test
    void variantNamesThatMakeTheSameFileNameGetDistinctFiles() throws IOException {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, TWO_HOSTS + "variants:\n  - {name: \"A b\"}\n  - {name: a-b}\n");
        Path out = dir.resolve("out");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "-q", "--out", out.toString()).code());
        assertTrue(Files.exists(out.resolve("nic-throughput-a-b.svg")));
        assertTrue(Files.exists(out.resolve("nic-throughput-a-b-2.svg")));
        assertTrue(Files.readString(out.resolve("nic-throughput-a-b-2.svg")).contains("Sending NICs, stacked: a-b"));
    }

    @Test
    void demoExitsNonZeroWhenAVariantFailsUnexpectedlyAndZeroWhenTheScenarioExpectsIt() throws IOException {
        Path scenarios = Files.createDirectories(dir.resolve("scenarios"));
        String caps = Files.readString(CliTestSupport.repo().resolve("scenarios/registration-caps.yaml"));
        assertTrue(caps.contains("    expect: failed\n"));
        Files.writeString(scenarios.resolve("caps.yaml"), caps);
        CliTestSupport.Outcome o = CliTestSupport.run("demo", "--scenarios", scenarios.toString(), "--reports",
                dir.resolve("r1").toString());
        assertEquals(0, o.code(), o.err());
        Files.writeString(scenarios.resolve("caps.yaml"), caps.replace("    expect: failed\n", ""));
        o = CliTestSupport.run("demo", "--scenarios", scenarios.toString(), "--reports", dir.resolve("r2").toString());
        assertEquals(1, o.code(), o.err());
    }

    @Test
    void summaryAndIndexNameTheReleaseTheScenarioHashAndTheSeed() throws IOException {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, TWO_HOSTS);
        Path out = dir.resolve("out");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "-q", "--out", out.toString()).code());
        // sha256sum of the scenario text above.
        String hash = "e3c1da622e4f64cb567e532053e8f28e3b1591a80b83f81963a08e454a3ae9e0";
        String json = Files.readString(out.resolve("summary.json"));
        assertTrue(json.contains("\"provenance\" : {\n    \"rdmasimVersion\" : \"" + Main.version() + "\",\n"
                + "    \"scenarioSha256\" : \"" + hash + "\",\n    \"seed\" : 1,\n    \"scenarioFile\" : \"s.yaml\"\n  }"), json);
        assertTrue(Files.readString(out.resolve("index.html")).contains("scenario SHA-256 <code>" + hash + "</code> &middot; seed 1"));
    }

    private static List<String> listing(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
