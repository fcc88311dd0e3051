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
 * Inputs that ended in an internal error (a trace written to a file, exit 3) and are bad input: exit 2
 * with the option or the file:line of the value. (compare's unnamed variants: CompareCommandTest.)
 */
class RemainingTracesTest {
    @TempDir
    Path dir;

    private static void assertBadInput(CliTestSupport.Outcome o, String... fragments) {
        assertEquals(2, o.code(), o.out() + o.err());
        for (String f : fragments) {
            assertTrue(o.err().contains(f), "'" + f + "' in: " + o.err());
        }
        assertFalse(o.err().contains("internal error") || o.err().contains("Exception"), o.err());
    }

    @Test
    void benchEventsAtTheLargestIntIsRangeChecked() {
        assertBadInput(CliTestSupport.run("bench", "--events", "2147483647"),
                "--events and --pending go up to 50,000,000", "got --events 2,147,483,647");
        assertBadInput(CliTestSupport.run("bench", "--events", "60000000", "--pending", "60000000"),
                "--pending up to 60,000,000");
    }

    private static final String SWEEP = """
            name: sweep
            hosts:
              a: {preset: dgx-h100}
              b: {preset: dgx-h100}
            transport:
              lanes:
                - {source: mlx5_0, sink: mlx5_0}
            workload:
              transfers:
                - {from: "a:GPU0", to: "b:GPU0", size: 1 MiB}
            """;

    @Test
    void aSweepWhoseSizesOverflowIsBadInputAtTheSize() throws IOException {
        // 2^62 bytes x 1000 messages is over 2^63 - 1 bytes
        Path list = Files.writeString(dir.resolve("list.yaml"), SWEEP + """
                sweep:
                  messageSize: [1 MiB, 4611686018427387904]
                  messages: 1000
                """);
        assertBadInput(CliTestSupport.run("run", list.toString(), "--out", dir.resolve("o").toString()),
                "list.yaml:12:24: sweep.messageSize[1]: ", "a message size of 4611686018427387904 bytes times 1000 messages is over");
        Path range = Files.writeString(dir.resolve("range.yaml"), SWEEP + """
                sweep:
                  messageSize: {from: 1 GiB, to: 4611686018427387904, factor: 1024}
                """);
        assertBadInput(CliTestSupport.run("run", range.toString(), "--out", dir.resolve("o").toString()),
                "range.yaml:12:", "times 1000 messages is over 9223372036854775807 bytes");
    }
}
