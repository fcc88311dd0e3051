package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad scenarios exit 2 with file:line:column and what was expected, never a stack trace. */
class ScenarioErrorsTest {
    @TempDir
    Path dir;

    static final String GOOD = """
            name: ok
            hosts:
              a: {preset: dgx-h100}
              b: {preset: dgx-h100}
            workload:
              transfers:
                - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
            """;

    private CliTestSupport.Outcome runScenario(String text) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        return CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out").toString());
    }

    private void assertBadInput(CliTestSupport.Outcome o, String location, String... fragments) {
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:" + location), "location " + location + " in: " + o.err());
        for (String f : fragments) {
            assertTrue(o.err().contains(f), "'" + f + "' in: " + o.err());
        }
        assertFalse(o.err().contains("Exception"), o.err());
        assertFalse(o.err().contains("\tat "), o.err());
    }

    @Test
    void goodScenarioRuns() throws IOException {
        CliTestSupport.Outcome o = runScenario(GOOD);
        assertEquals(0, o.code(), o.err());
        assertTrue(Files.exists(dir.resolve("out/summary.json")));
    }

    @Test
    void yamlSyntaxError() throws IOException {
        assertBadInput(runScenario("name: x\nhosts:\n  a: {preset: dgx-h100\n  b: 1\n"), "", "YAML syntax error");
    }

    @Test
    void aKeyIndentedUnlikeItsNeighboursIsPointedAtItsIndentation() throws IOException {
        // 'b' at three spaces under a mapping whose keys sit at two: SnakeYAML's own words name no indentation
        assertBadInput(runScenario("name: x\nhosts:\n  a:\n    preset: dgx-h100\n   b: 1\n"), "5:4",
                "line 5 starts at column 4: is it indented like the keys beside it");
    }

    @Test
    void unclosedBraceNamesTheLineItOpensOn() throws IOException {
        // the parser only notices the missing '}' on the next line; the message must also point at line 3
        assertBadInput(runScenario("name: x\nhosts:\n  a: {preset: dgx-h100\n  b: 1\n"), "4:",
                "inside the flow mapping that starts at line 3, column 6", "is a '}' missing there?");
    }

    @Test
    void unclosedQuoteNamesTheLineItOpensOn() throws IOException {
        assertBadInput(runScenario("name: x\nhosts: {}\ndescription: \"open\n"), "4:", "inside the quoted scalar that starts at line 3",
                "is its closing quote missing?");
    }

    @Test
    void unclosedBracketNamesTheLineItOpensOn() throws IOException {
        assertBadInput(runScenario("name: x\ntags: [a, b\nhosts: {}\n"), "3:",
                "inside the flow sequence that starts at line 2, column 7", "is a ']' missing there?");
    }

    @Test
    void unknownFieldSuggestsTheRightOne() throws IOException {
        assertBadInput(runScenario(GOOD.replace("workload:", "workloda: {}\nworkload:")), "5:1:",
                "unknown field 'workloda'", "did you mean 'workload'");
    }

    @Test
    void negativeBandwidth() throws IOException {
        String text = GOOD.replace("a: {preset: dgx-h100}", "a: {preset: dgx-h100, lineRate: -400 Gbps}");
        assertBadInput(runScenario(text), "3:", "hosts.a.lineRate", "must be positive");
    }

    @Test
    void unknownPreset() throws IOException {
        assertBadInput(runScenario(GOOD.replace("b: {preset: dgx-h100}", "b: {preset: dgx-h1000}")), "4:15:",
                "unknown preset 'dgx-h1000'", "(did you mean 'dgx-h100'?)", "dgx-h100");
    }

    @Test
    void nicThatDoesNotExist() throws IOException {
        String text = GOOD + """
                transport:
                  lanes:
                    - {source: mlx5_0, sink: mlx5_12}
                """;
        assertBadInput(runScenario(text), "10:", "no NIC named 'mlx5_12'", "mlx5_11");
    }

    @Test
    void gpuThatDoesNotExist() throws IOException {
        assertBadInput(runScenario(GOOD.replace("b:GPU0", "b:GPU9")), "7:", "no GPU or CPU named 'GPU9'");
    }

    @Test
    void aNoBreakSpaceInASizeIsNamed() throws IOException {
        // "1\u00a0GB" prints as "1 GB": the message must say what is wrong with a value that looks right
        assertBadInput(runScenario(GOOD.replace("size: 1 GB", "size: 1\u00a0GB")), "7:", "expected a size",
                "no-break space, U+00A0, at character 2");
        var cli = CliTestSupport.run("memory", "va", "--gpu", "gb300", "--communicators", "10", "--shadow-max", "1\u202fGiB");
        assertEquals(2, cli.code(), cli.err());
        assertTrue(cli.err().contains("narrow no-break space, U+202F"), cli.err());
        var duration = CliTestSupport.run("size", "x.yaml", "--target-p99", "0.5\u2009s", "--vary", "sources");
        assertEquals(2, duration.code(), duration.err());
        assertTrue(duration.err().contains("thin space, U+2009"), duration.err());
        // a declared parameter (read through the parameter table, not the workload's reader) says so too
        assertBadInput(runScenario(GOOD + "protocol: {nicLatency: \"1\u00a0us\"}\n"), "8:", "protocol.nicLatency",
                "no-break space, U+00A0");
        var page = CliTestSupport.run("memory", "register", "--host", "dgx-h100", "--buffer", "1GB", "--page-size", "4\u00a0KiB");
        assertEquals(2, page.code(), page.err());
        assertTrue(page.err().contains("no-break space, U+00A0"), page.err());
    }

    @Test
    void aSizeThatIsNotAWholeNumberOfBytesIsRefused() throws IOException {
        // read as 2 bytes before: a typo ran
        assertBadInput(runScenario(GOOD.replace("size: 1 GB", "size: 1.5 B")), "7:", "workload.transfers[0].size",
                "whole number of bytes, got '1.5 B' (1.5 bytes)");
        assertBadInput(runScenario(GOOD.replace("size: 1 GB", "size: 1.5")), "7:", "(1.5 bytes)");
        assertEquals(0, runScenario(GOOD.replace("size: 1 GB", "size: 1.5 KB")).code(), "1500 bytes are whole");
        // in a larger unit the fraction is the writer's rounding (a published 3.02 GiB bucket): nearest byte
        assertEquals(0, runScenario(GOOD.replace("size: 1 GB", "size: 3.02 GiB")).code());
        assertEquals(0, runScenario(GOOD.replace("size: 1 GB", "size: 0.3 KiB")).code());
        var cli = CliTestSupport.run("memory", "register", "--host", "dgx-h100", "--buffer", "1.5B");
        assertEquals(2, cli.code(), cli.err());
        assertTrue(cli.err().contains("whole number of bytes"), cli.err());
    }

    @Test
    void theAllowedListOfTransportNamesOnlyRealFields() throws IOException {
        var o = runScenario(GOOD + "transport: {enf: \"UCX_TLS=rc\"}\n");
        assertBadInput(o, "8:", "unknown field 'enf'", "allowed: ", "env, envFile");
        assertFalse(o.err().contains("(variant)"), o.err());
    }

    @Test
    void negativeSize() throws IOException {
        assertBadInput(runScenario(GOOD.replace("size: 1 GB", "size: -1 GB")), "7:", "must not be negative");
    }

    @Test
    void variantErrorsPointAtTheVariantsLine() throws IOException {
        String text = GOOD + """
                variants:
                  - name: v1
                  - name: v2
                    fabric: {kind: torus}
                """;
        assertBadInput(runScenario(text), "11:", "expected non-blocking, leaf-spine or rail-optimized");
    }

    @Test
    void envLineWithoutEqualsPointsAtItsOwnLine() throws IOException {
        String text = GOOD + """
                transport:
                  env: |
                    export UCX_MAX_RMA_RAILS=2
                    UCX_NET_DEVICES
                """;
        assertBadInput(runScenario(text), "11:", "no '=' in 'UCX_NET_DEVICES'", "expected NAME=VALUE");
    }

    @Test
    void malformedUcxValueNamesTheVariable() throws IOException {
        String text = GOOD + """
                transport:
                  env: "UCX_MAX_RMA_RAILS=two"
                """;
        assertBadInput(runScenario(text), "9:", "UCX_MAX_RMA_RAILS='two'", "s.yaml:9)");
    }

    /**
     * A value UCX parses but that leaves a transfer no lane (no rail allowed, a ratio that drops every lane) is the
     * scenario's, refused at its env line (exit 2), not an internal error (exit 3) when the lane choice finds nothing.
     */
    /** A list item of an env that is no assignment is placed at the item; it read "transport.env: s.yaml:1: ...". */
    @Test
    void anEnvListItemThatIsNoAssignmentIsPlacedAtTheItem() throws IOException {
        CliTestSupport.Outcome o = runScenario(GOOD + """
                transport:
                  env: [UCX_MAX_RMA_RAILS=2, 7]
                """);
        assertBadInput(o, "9:30: transport.env[1]: no '=' in '7', expected NAME=VALUE or export NAME=VALUE");
        assertFalse(o.err().contains("s.yaml:1:"), o.err());
    }

    /** A file field naming a folder says so; it read "no such file" of a folder that is there. */
    @Test
    void aFileFieldNamingAFolderSaysItIsAFolder() throws IOException {
        Files.createDirectories(dir.resolve("hosts"));
        CliTestSupport.Outcome o = runScenario(GOOD.replace("b: {preset: dgx-h100}", "b: {nvidia-smi: hosts}"));
        assertBadInput(o, "4:19: hosts.b.nvidia-smi: a folder, not a file: " + dir.resolve("hosts"));
    }

    @Test
    void aRailLimitOfZeroIsRefusedAtItsLine() throws IOException {
        String text = GOOD + """
                transport:
                  env: |
                    export UCX_NET_DEVICES=all
                    export UCX_MAX_RMA_RAILS=0
                """;
        assertBadInput(runScenario(text), "11:", "UCX_MAX_RMA_RAILS='0'", "expected at least 1",
                "proto_multi.c:253-255", "software RMA emulation");
    }

    @Test
    void aRendezvousRailLimitOfZeroIsRefusedAtItsLine() throws IOException {
        String text = GOOD + """
                transport:
                  api: rendezvous
                  env: |
                    export UCX_MAX_RNDV_RAILS=0
                """;
        assertBadInput(runScenario(text), "11:", "UCX_MAX_RNDV_RAILS='0'", "expected at least 1", "rndv_am.c:34",
                "eager sends");
    }

    @Test
    void aLaneRatioOfZeroOrBelowIsRefusedAtItsLine() throws IOException {
        for (String ratio : new String[] {"0", "-1"}) {
            String text = GOOD + """
                    transport:
                      env: |
                        export UCX_MAX_RMA_RAILS=2
                        export UCX_MULTI_LANE_MAX_RATIO=%s
                    """.formatted(ratio);
            assertBadInput(runScenario(text), "11:", "UCX_MULTI_LANE_MAX_RATIO='" + ratio + "'", "a ratio above 0");
        }
    }

    @Test
    void aFanoutWithNoRailIsRefusedAtItsLine() throws IOException {
        String text = """
                name: fan
                hosts:
                  r: {preset: dgx-h100, count: 4, prefix: r}
                  s: {preset: dgx-h100}
                transport:
                  env: |
                    export UCX_MAX_RMA_RAILS=0
                workload:
                  fanout:
                    receivers: {hosts: r, gpus: [GPU0]}
                    sources: {hosts: s, gpus: [GPU0]}
                    model: 1 GB
                """;
        assertBadInput(runScenario(text), "7:", "UCX_MAX_RMA_RAILS='0'", "expected at least 1");
    }

    /** A counted group's own fields (count, prefix) are taken out before the host is read; what is left keeps its line. */
    private static final String COUNTED = """
            name: counted
            hosts:
              sources: GROUP
              b: {preset: gb200-tray}
            workload:
              transfers:
                - {from: "s0:GPU0", to: "b:GPU0", size: 1 GB}
            """;

    @Test
    void aCountedGroupsMissingPresetIsPlacedAtItsLine() throws IOException {
        CliTestSupport.Outcome o = runScenario(COUNTED.replace("GROUP", "{presett: gb200-tray, count: 1, prefix: s}"));
        assertBadInput(o, "3:", "hosts.sources", "a host needs 'preset: NAME'");
        assertFalse(o.err().contains(":0:0"), o.err());
    }

    @Test
    void aCountedGroupsMisspeltCountIsNamedWithItsLine() throws IOException {
        CliTestSupport.Outcome o = runScenario(COUNTED.replace("GROUP", "{preset: gb200-tray, cnt: 2}"));
        assertBadInput(o, "3:", "unknown field 'cnt'", "did you mean 'count'");
    }

    @Test
    void missingFileIsBadInput() {
        Path nope = dir.resolve("nope.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("run", nope.toString());
        assertEquals(2, o.code());
        // a fact about the whole file: the file is named with no made-up line and column
        assertTrue(o.err().contains(nope + ": no such scenario file"), o.err());
        assertFalse(o.err().contains(":0"), o.err());
    }

    @Test
    void aMisspeltScenarioNameSuggestsTheNearestFile() throws IOException {
        Files.writeString(dir.resolve("seed003-nic-pin-vs-stripe.yaml"), "name: x\n");
        CliTestSupport.Outcome o = CliTestSupport.run("run", dir.resolve("seed003-nic-pin-vs-strip").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("no such scenario file (did you mean '"), o.err());
        assertTrue(o.err().contains("seed003-nic-pin-vs-stripe.yaml'?)"), o.err());
        // nothing near: no suggestion
        CliTestSupport.Outcome far = CliTestSupport.run("run", dir.resolve("qqqqqqqqqqqqqqq.yaml").toString());
        assertEquals(2, far.code(), far.err());
        assertFalse(far.err().contains("did you mean"), far.err());
    }

    @Test
    void aFolderGivenAsTheScenarioIsCalledAFolder() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("scenarios"));
        for (String command : new String[] {"run", "explain"}) {
            CliTestSupport.Outcome o = CliTestSupport.run(command, folder.toString());
            assertEquals(2, o.code(), command + ": " + o.err());
            assertTrue(o.err().contains(folder + ": is a folder, not a scenario file"), command + ": " + o.err());
            assertFalse(o.err().contains("no such"), o.err());
        }
        CliTestSupport.Outcome study = CliTestSupport.run("sweep", folder.toString());
        assertEquals(2, study.code(), study.err());
        assertTrue(study.err().contains(folder + ": is a folder, not a study file"), study.err());
    }

    @Test
    void refusesToWriteIntoAFolderItDidNotCreate() throws IOException {
        Path mine = dir.resolve("mine");
        Files.createDirectories(mine);
        Files.writeString(mine.resolve("notes.txt"), "my notes");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, GOOD);
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", mine.toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("--force"), o.err());
        assertEquals("my notes", Files.readString(mine.resolve("notes.txt")));
        assertFalse(Files.exists(mine.resolve("summary.json")));
    }

    @Test
    void helpAndVersion() {
        assertEquals(0, CliTestSupport.run("--help").code());
        assertTrue(CliTestSupport.run("--version").out().startsWith("rdmasim "));
        for (String c : new String[] {"run", "topo", "demo", "bench"}) {
            CliTestSupport.Outcome o = CliTestSupport.run(c, "--help");
            assertEquals(0, o.code(), c);
            assertTrue(o.out().contains("Usage: rdmasim " + c), c);
        }
        assertEquals(2, CliTestSupport.run("topo", "no-such-preset").code());
        assertEquals(2, CliTestSupport.run("run").code());
    }

    @Test
    void anUnknownCalibrationProfileIsNamedWithItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path f = tmp.resolve("p.yaml");
        java.nio.file.Files.writeString(f, """
                name: p
                hosts:
                  a: {preset: gb200-tray, profile: gb200-rocee}
                  b: {preset: gb200-tray}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "-q", "--out", tmp.resolve("o").toString());
        org.junit.jupiter.api.Assertions.assertEquals(2, o.code(), o.err());
        org.junit.jupiter.api.Assertions.assertTrue(o.err().contains("p.yaml:3")
                && o.err().contains("unknown calibration profile 'gb200-rocee'"), o.err());
    }
}
