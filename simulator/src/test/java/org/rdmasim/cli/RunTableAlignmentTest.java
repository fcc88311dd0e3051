package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The results table keeps its columns when a name with its what-if mark is longer than the name column:
 * seed003's "gb200-mx-pin-auto-uncalibrated (what-if)" pushed its row's status and times right of every other
 * row's, so its 0.3264 s read under the wrong heading.
 */
class RunTableAlignmentTest {
    @TempDir
    Path dir;

    @Test
    void aLongWhatIfNameKeepsTheColumnsAligned() throws IOException {
        String scenario = RunTableCalibratedLegendTest.PINNED.replace("- name: uncalibrated",
                "- name: gb200-mx-pin-auto-uncalibrated");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, scenario);
        var o = CliTestSupport.run("run", f.toString(), "-q", "--skip-without", "--out", dir.resolve("out").toString());
        assertEquals(0, o.code(), o.out() + o.err());
        List<String> lines = o.out().lines().toList();
        String header = lines.stream().filter(l -> l.contains("slowest(s)")).findFirst().orElseThrow();
        String pinned = lines.stream().filter(l -> l.startsWith("  pinned ")).findFirst().orElseThrow();
        String whatIf = lines.stream().filter(l -> l.contains("(what-if)")).findFirst().orElseThrow();
        int status = header.indexOf("status");
        assertEquals(status, pinned.indexOf("ok "), o.out());
        assertEquals(status, whatIf.indexOf("ok "), o.out());
        // the times end where their heading ends
        int end = header.indexOf("slowest(s)") + "slowest(s)".length();
        assertTrue(pinned.substring(end - 6, end).matches("\\d\\.\\d{4}"), o.out());
        assertTrue(whatIf.substring(end - 6, end).matches("\\d\\.\\d{4}"), o.out());
    }
}
