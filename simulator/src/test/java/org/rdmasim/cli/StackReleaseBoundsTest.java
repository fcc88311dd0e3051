package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.transport.config.StackLibrary;

/**
 * A NIXL, UCX or NCCL release later than the newest one rdmasim's rules were read from is refused at its
 * line, naming the newest it knows; the newest itself and a release between two tags read still run.
 */
class StackReleaseBoundsTest {
    @TempDir
    Path dir;

    private CliTestSupport.Outcome run(String field, String release) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, """
                name: releases
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport: {%s: "%s"}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """.formatted(field, release));
        return CliTestSupport.run("run", f.toString(), "-q", "--force", "--out", dir.resolve("out").toString());
    }

    private void refused(String field, String release, String library, StackLibrary known) throws IOException {
        CliTestSupport.Outcome o = run(field, release);
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("s.yaml:5:"), o.err());
        assertTrue(o.err().contains("transport." + field), o.err());
        assertTrue(o.err().contains(library + " " + release), o.err());
        assertTrue(o.err().contains("not a release rdmasim knows"), o.err());
        assertTrue(o.err().contains("up to " + known.newestRead()), o.err());
        assertFalse(o.err().contains("Exception"), o.err());
        assertFalse(Files.exists(dir.resolve("out/summary.json")), "nothing written for a refused scenario");
    }

    @Test
    void releasesNoLibraryHasShippedAreRefusedAtTheirLine() throws IOException {
        refused("nixl", "9.9.9", "NIXL", StackLibrary.NIXL);
        refused("ucx", "7.0", "UCX", StackLibrary.UCX);
        refused("nccl", "2.99.0", "NCCL", StackLibrary.NCCL);
    }

    @Test
    void theNewestReleaseReadAndOnesBetweenTagsRun() throws IOException {
        for (StackLibrary lib : StackLibrary.values()) {
            String field = lib.name().toLowerCase(java.util.Locale.ROOT);
            CliTestSupport.Outcome o = run(field, lib.newestRead().toString());
            assertEquals(0, o.code(), field + ": " + o.err());
        }
        // patch releases between the tags the rules were read from (UCX 1.19.1, NIXL 1.3.0, NCCL 2.28.3)
        assertEquals(0, run("ucx", "1.19.1").code());
        assertEquals(0, run("nixl", "1.3.0").code());
        assertEquals(0, run("nccl", "2.28.3").code());
    }

    @Test
    void memoryRegisterRefusesTheSameReleases() {
        CliTestSupport.Outcome o = CliTestSupport.run("memory", "register", "--host", "dgx-h100", "--buffer", "1 GB", "--ucx", "7.0");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("--ucx 7.0") && o.err().contains("up to 1.22.0"), o.err());
        o = CliTestSupport.run("memory", "register", "--host", "dgx-h100", "--buffer", "1 GB", "--nixl", "9.9.9");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("--nixl 9.9.9") && o.err().contains("up to 1.4.0"), o.err());
    }

    @Test
    void releasesNeverPublishedAreRefusedWithTheNearestOnes() throws IOException {
        CliTestSupport.Outcome o = run("nixl", "1.1.9");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("s.yaml:5:") && o.err().contains("NIXL 1.1.9 was never released"), o.err());
        assertTrue(o.err().contains("1.1.0 and 1.2.0"), o.err());
        o = run("nixl", "0.0.1");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("from 0.1.0") && o.err().contains("nearest releases are 0.1.0"), o.err());
        // a series named without its patch is its first release: NCCL 2.28 is 2.28.3 (no 2.28.0 was tagged)
        assertEquals(0, run("nccl", "2.28").code());
        assertEquals(0, run("ucx", "1.21").code());
        o = run("nccl", "2.99");
        assertEquals(2, o.code(), o.out() + o.err());
        o = CliTestSupport.run("memory", "register", "--host", "dgx-h100", "--buffer", "1 GB", "--ucx", "1.20.5");
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("--ucx 1.20.5") && o.err().contains("1.20.1 and 1.21.0"), o.err());
    }
}
