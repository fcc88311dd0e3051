package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's generators of cluster-scale lists (tools/scale/) answer --help with their usage, refuse a
 * bad count with a usage error (exit 2, no traceback) and write where --out says, a list rdmasim loads.
 */
class ScaleListToolsTest {
    @TempDir
    Path dir;

    record Ran(int code, String out, String err) {
    }

    private static Ran python(String script, String... args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("python3", CliTestSupport.repo().resolve("tools/scale").resolve(script).toString()));
        line.addAll(List.of(args));
        Process p = new ProcessBuilder(line).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(p.waitFor(), out, err);
    }

    @Test
    void helpIsUsageAndWritesNothing() throws Exception {
        for (String script : new String[] {"transfer_list.py", "refit_list.py"}) {
            Path before = CliTestSupport.repo().resolve("scenarios/scale");
            long stamp = Files.getLastModifiedTime(before.resolve("transfers-1024.yaml")).toMillis();
            Ran r = python(script, "--help");
            assertEquals(0, r.code(), script + ": " + r.err());
            assertTrue(r.out().startsWith("usage: " + script), r.out());
            assertTrue(r.out().contains("--out"), r.out());
            assertFalse(r.err().contains("Traceback"), r.err());
            assertEquals(stamp, Files.getLastModifiedTime(before.resolve("transfers-1024.yaml")).toMillis(), script);
        }
    }

    @Test
    void aBadCountIsAUsageError() throws Exception {
        for (String bad : new String[] {"abc", "0", "-3"}) {
            Ran r = python("transfer_list.py", "--out", dir.toString(), "--", bad);
            assertEquals(2, r.code(), bad + ": " + r.out() + r.err());
            assertTrue(r.err().contains("expected a number of receivers from 1 up"), r.err());
            assertFalse(r.err().contains("Traceback"), r.err());
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "nothing written");
        }
    }

    @Test
    void outWritesAListRdmasimLoads() throws Exception {
        Ran r = python("transfer_list.py", "8", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        Path list = dir.resolve("transfers-8.yaml");
        assertEquals(list.toString(), r.out().strip());
        CliTestSupport.Outcome o = CliTestSupport.run("run", list.toString(), "-q", "--out", dir.resolve("o").toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(Files.exists(dir.resolve("o/transfers.csv")));
    }
}
