package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code size} on a transfer list (workload: transfers) is refused (exit 2) saying why: its search is over a fan-out's
 * p99 or a refit's cycle. For nics and rails the message holds the study that measures the list at each setting and
 * the sweep command that runs it, and that study, written as printed, runs.
 */
class SizeTransferListTest {
    @TempDir
    Path dir;

    private static final String PULL = """
            name: one-pull
            hosts:
              trainer: {preset: gb200-tray, count: 1}
              receiver: {preset: gb200-tray, count: 1}
            transport:
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              transfers:
                - {from: trainer0:GPU0, to: receiver0:GPU0, size: 16GB}
            """;

    @Test
    void nicsOnAPullGivesTheStudyAndItRuns() throws IOException {
        Path f = dir.resolve("pull.yaml");
        Files.writeString(f, PULL);
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "0.1s", "--vary", "nics");
        assertEquals(2, o.code(), o.err());
        Path study = dir.resolve("pull-nics.yaml");
        assertTrue(o.err().startsWith("rdmasim: error: " + f + ": variant 'baseline' is a transfer list (workload: "
                + "transfers): size searches a fan-out's p99"), o.err());
        assertTrue(o.err().contains("write this to " + study + "\n") && o.err().contains("then run: ./rdmasim sweep "
                + study), o.err());
        assertTrue(o.err().contains("\"export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1\\nexport UCX_MAX_RMA_RAILS=2\""), o.err());
        List<String> lines = o.err().lines().toList();
        String text = String.join("\n", lines.subList(1, lines.size() - 1)) + "\n";
        Files.writeString(study, text);
        CliTestSupport.Outcome sweep = CliTestSupport.run("sweep", study.toString(), "--out",
                dir.resolve("sw").toString(), "--threads", "1", "-q");
        assertEquals(0, sweep.code(), sweep.err());
        String csv = Files.readString(dir.resolve("sw").resolve("results.csv"));
        assertEquals(4, csv.lines().filter(l -> l.contains(",ok,")).count(), csv);
    }

    @Test
    void sourcesAndRefitKnobsSayWhyWithoutAStudy() throws IOException {
        Path f = dir.resolve("pull.yaml");
        Files.writeString(f, PULL);
        CliTestSupport.Outcome s = CliTestSupport.run("size", f.toString(), "--target-p99", "1s", "--vary", "sources");
        assertEquals(2, s.code(), s.err());
        assertTrue(s.err().contains("its transfers' from: hosts and it has no tree, so --vary sources has nothing to "
                + "turn"), s.err());
        assertFalse(s.err().contains("sweep"), s.err());
        CliTestSupport.Outcome b = CliTestSupport.run("size", f.toString(), "--target-refit", "1s", "--vary", "bucket");
        assertEquals(2, b.code(), b.err());
        assertTrue(b.err().contains("is a transfer list (workload: transfers): --vary bucket sizes a refit"), b.err());
    }

    @Test
    void aVariantSettingTheVariableItselfIsNamed() throws IOException {
        Path f = dir.resolve("pull.yaml");
        Files.writeString(f, PULL + """
                variants:
                  - name: two
                    transport:
                      env: |
                        export UCX_MAX_RMA_RAILS=2
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "1s", "--vary", "rails");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("variant 'two' sets UCX_MAX_RMA_RAILS itself (" + f + ":15)"), o.err());
    }
}
