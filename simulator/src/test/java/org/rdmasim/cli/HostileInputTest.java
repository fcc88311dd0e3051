package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs a careless or hostile user writes: each ends in exit 2 with the file, line and the limit or
 * rule it broke, never a stack trace, a silent default or the content of a file it should not show.
 */
class HostileInputTest {
    @TempDir
    Path dir;

    /** Two DGX H100 hosts, one 1 GB transfer (s.yaml:7 holds the transfer). */
    private static final String GOOD = ScenarioErrorsTest.GOOD;

    private CliTestSupport.Outcome run(String text, String... extra) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        String[] args = new String[3 + extra.length + 2];
        args[0] = "run";
        args[1] = f.toString();
        System.arraycopy(extra, 0, args, 2, extra.length);
        args[2 + extra.length] = "--out";
        args[3 + extra.length] = dir.resolve("out").toString();
        args[4 + extra.length] = "-q";
        return CliTestSupport.run(args);
    }

    private static void assertRefused(CliTestSupport.Outcome o, String expected) {
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains(expected), "'" + expected + "' in: " + o.err());
        assertFalse(o.err().contains("Exception"), o.err());
        assertFalse(o.err().contains("\tat "), o.err());
    }

    @Test
    void zeroAndFractionalByteSizesAndFarFutureTimesAreRefused() throws IOException {
        assertRefused(run(GOOD.replace("size: 1 GB", "size: 0 GB")),
                "s.yaml:7:44: workload.transfers[0].size: a transfer moves at least one byte, got '0 GB'");
        assertRefused(run(GOOD.replace("size: 1 GB", "size: 0.5 B")),
                "s.yaml:7:44: workload.transfers[0].size: size is less than one byte, got '0.5 B'");
        assertRefused(run(GOOD.replace("size: 1 GB", "size: 1 GB, at: 1e30 s")),
                "workload.transfers[0].at: duration is over the limit of 1000000 s");
        assertRefused(run(GOOD.replace("size: 1 GB", "size: 1 GB, at: NaN")),
                "workload.transfers[0].at: expected a duration");
    }

    @Test
    void duplicateKeysAreRefusedNamingBothLines() throws IOException {
        assertRefused(run(GOOD.replace("  b: {preset: dgx-h100}", "  a: {preset: dgx-h100}")),
                "s.yaml:4:3: duplicate key 'a' (first written on line 3)");
        assertRefused(run("name: other\n" + GOOD), "s.yaml:2:1: duplicate key 'name' (first written on line 1)");
    }

    @Test
    void aKeyThatIsAMappingIsRefused() throws IOException {
        // Found by HostileInputFuzzTest: "? Question: ..." made a mapping key, which ended in a ClassCastException.
        assertRefused(run("? Question: which one?\n" + GOOD), "s.yaml:1:3: keys must be plain names, not a list or a mapping");
    }

    @Test
    void namesAreBoundedAndCannotBeDotFolders() throws IOException {
        assertRefused(run(GOOD.replace("name: ok", "name: " + "n".repeat(101))),
                "s.yaml:1:7: name: a scenario name is 101 characters long, over the limit of 100");
        assertRefused(run(GOOD.replace("name: ok", "name: ..")), "'..' cannot be a scenario name");
        assertRefused(run(GOOD + "variants:\n  - name: \".\"\n"), "'.' cannot be a variant name");
    }

    @Test
    void aLongCommentLineIsRefusedBeforeTheYamlParserSeesIt() throws IOException {
        assertRefused(run("#" + "x".repeat(3_000_000) + "\n" + GOOD),
                "s.yaml:1:1: line is 3000001 characters long, over the limit of 10000");
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() throws IOException {
        assertRefused(run(GOOD + "description: " + "[".repeat(100) + "]".repeat(100) + "\n"),
                "s.yaml:8:77: YAML nesting deeper than the limit of 64");
    }

    @Test
    void anEnvFileOutsideTheScenarioFolderIsRefusedUnlessAllowed() throws IOException {
        Path outside = Files.createDirectories(dir.resolve("elsewhere")).resolve("x.env");
        Files.writeString(outside, "export UCX_MAX_RMA_RAILS=2\n");
        Path scenarios = Files.createDirectories(dir.resolve("scenarios"));
        Path f = scenarios.resolve("s.yaml");
        Files.writeString(f, GOOD + "transport:\n  envFile: ../elsewhere/x.env\n");
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "-q", "--out", dir.resolve("o1").toString());
        assertRefused(o, "s.yaml:9:12: transport.envFile: '../elsewhere/x.env' is outside the scenario's folder");
        o = CliTestSupport.run("run", f.toString(), "-q", "--allow-outside", "--out", dir.resolve("o2").toString());
        assertEquals(0, o.code(), o.err());
    }

    @Test
    void anEnvFileThatIsNotAnEnvironmentIsNamedButNotQuoted() throws IOException {
        Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        CliTestSupport.Outcome o = run(GOOD + "transport:\n  envFile: passwd\n");
        assertRefused(o, "passwd:1: not an environment line");
        assertFalse(o.err().contains("root:x"), o.err());
        Path memOut = dir.resolve("mem");
        o = CliTestSupport.run("memory", "register", "--host", "hgx-h200", "--buffer", "40GiB", "--env",
                dir.resolve("passwd").toString(), "--out", memOut.toString());
        assertRefused(o, "passwd:1: not an environment line");
        assertFalse(o.err().contains("root:x"), o.err());
    }

    @Test
    void aKubernetesEnvListIsAccepted() throws IOException {
        CliTestSupport.Outcome o = run(GOOD + "transport:\n  env: [{name: UCX_MAX_RMA_RAILS, value: \"1\"}]\n");
        assertEquals(0, o.code(), o.err());
    }

    @Test
    void communicatorsThatOverflowAByteCountExitTwo() {
        CliTestSupport.Outcome o = CliTestSupport.run("memory", "va", "--gpu", "gb300", "--communicators", "2000000000");
        assertRefused(o, "--communicators 2000000000: the address space they reserve is beyond a 64-bit count");
    }
}
