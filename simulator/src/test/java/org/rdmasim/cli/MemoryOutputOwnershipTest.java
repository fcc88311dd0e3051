package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.report.ReportFolder;

/**
 * {@code memory register --out} and {@code memory va --out} follow the report folders' rules: a file is
 * never replaced by a folder, a user's file beside the charts stops the write and is kept, and the
 * command's own earlier charts (listed with their hashes in the manifest) are replaced.
 */
class MemoryOutputOwnershipTest {
    @TempDir
    Path dir;

    private static CliTestSupport.Outcome register(Path out) {
        return CliTestSupport.run("memory", "register", "--host", "dgx-h100", "--buffer", "1GiB", "--out", out.toString());
    }

    private static CliTestSupport.Outcome va(Path out) {
        return CliTestSupport.run("memory", "va", "--gpu", "gb300", "--communicators", "10", "--out", out.toString());
    }

    @Test
    void aFileIsNeverReplacedAndAUsersFileStopsTheWrite() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "mine\n");
        for (var o : new CliTestSupport.Outcome[] {register(file), va(file)}) {
            assertEquals(2, o.code(), o.err());
            assertEquals("mine\n", Files.readString(file), "the file is left as it was");
        }
        Path folder = Files.createDirectories(dir.resolve("charts"));
        Files.writeString(folder.resolve("my-notes.txt"), "keep\n");
        var refused = register(folder);
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("my-notes.txt"), refused.err());
        for (var o : new CliTestSupport.Outcome[] {refused, va(folder)}) {
            assertEquals(2, o.code(), o.err());
            assertTrue(o.err().contains("choose another --out"), o.err());
            assertFalse(o.err().contains("--force"), "memory has no --force to advise: " + o.err());
        }
        assertEquals("keep\n", Files.readString(folder.resolve("my-notes.txt")));
    }

    @Test
    void aSecondWriteReplacesTheCommandsOwnChartsListedInTheManifest() throws Exception {
        Path out = dir.resolve("charts");
        assertEquals(0, register(out).code());
        assertEquals(0, va(out).code(), "va writes beside register's charts: they are rdmasim's");
        String manifest = Files.readString(out.resolve(ReportFolder.MANIFEST));
        for (String f : new String[] {"memory-pinned-host.png", "memory-mrs-per-buffer.svg", "memory-va.png"}) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
            assertTrue(manifest.contains(f), "the manifest lists " + f);
        }
        var again = register(out);
        assertEquals(0, again.code(), again.err());
    }
}
