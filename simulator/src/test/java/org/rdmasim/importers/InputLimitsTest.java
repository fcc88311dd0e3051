package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limits hold at their exact values: the limit itself passes, one more fails. */
class InputLimitsTest {

    @Test
    void aTextOfExactlyTheLimitPassesAndOneCharacterMoreIsRefusedAsAWhole() {
        String atLimit = "\n".repeat((int) InputLimits.MAX_FILE_BYTES);
        assertEquals(Optional.empty(), InputLimits.check(atLimit));
        assertEquals(Optional.of(new InputLimits.Violation(0, "the file is larger than the limit of 16777216 bytes")),
                InputLimits.check(atLimit + "\n"));
    }

    @Test
    void aLineOfExactlyTenThousandCharactersPasses() {
        assertEquals(Optional.empty(), InputLimits.check("a\n" + "x".repeat(10_000) + "\nb"));
        assertEquals(Optional.of(new InputLimits.Violation(3, "line is 10001 characters long, over the limit of 10000")),
                InputLimits.check("a\nb\n" + "x".repeat(10_001)));
    }

    @Test
    void aFileOfExactlySixteenMebibytesIsRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("limit.txt");
        byte[] newlines = new byte[(int) InputLimits.MAX_FILE_BYTES];
        java.util.Arrays.fill(newlines, (byte) '\n');
        Files.write(file, newlines);
        assertEquals(16_777_216, InputLimits.read(file).length());
    }

    @Test
    void aFileThatIsNotUtf8IsRefusedByName(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("latin1.txt");
        Files.write(file, new byte[] {'a', (byte) 0xe9, '\n'});
        InputLimits.LimitException e = assertThrows(InputLimits.LimitException.class, () -> InputLimits.read(file));
        assertEquals("the file is not UTF-8 text", e.getMessage());
        assertEquals(0, e.line());
        InputLimits.LimitException dirError = assertThrows(InputLimits.LimitException.class, () -> InputLimits.read(dir));
        assertEquals("not a regular file", dirError.getMessage());
    }
}
