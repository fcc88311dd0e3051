package org.rdmasim.importers.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.transport.config.EnvEntry;

class ShellEnvReaderTest {

    private static String error(String text) {
        return assertThrows(EnvBlockException.class, () -> ShellEnvReader.read(text, "env.sh")).getMessage();
    }

    @Test
    void aBareExportIsALineWithoutAssignment() {
        assertEquals("env.sh:2: no '=' in 'export', expected NAME=VALUE or export NAME=VALUE", error("A=1\nexport\n"));
    }

    @Test
    void anAssignmentWithoutNameIsABadName() {
        assertEquals("env.sh:1: bad variable name '', expected letters, digits and '_', not starting with a digit",
                error("=mlx5_0\n"));
    }

    @Test
    void aBackslashAtTheEndOfAnOpenQuoteIsKeptAndTheQuoteStaysOpen() {
        assertEquals("env.sh:1: unterminated double quote, expected a closing \" on the same line", error("A=\"ab\\"));
        assertEquals(List.of(new EnvEntry("A", "a\\b", "env.sh", 1)), ShellEnvReader.read("A=\"a\\b\"", "env.sh").entries());
    }

    @Test
    void aCommentMustBeSeparatedFromAQuotedValue() {
        assertEquals("env.sh:1: unexpected text '#c' after the value, expected one assignment per line "
                + "(quote values that contain spaces)", error("A=\"x\"#c\n"));
        assertEquals(List.of(new EnvEntry("A", "x", "env.sh", 1)), ShellEnvReader.read("A=\"x\" #c\n", "env.sh").entries());
    }
}
