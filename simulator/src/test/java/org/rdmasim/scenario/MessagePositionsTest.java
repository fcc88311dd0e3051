package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.importers.InputLimits;

/**
 * Every message about one place in a file names its line (and column where known); a fact about the
 * whole file (its size) has line 0 and its message names the file alone, with no position. The cases SnakeYAML reports without a position: nesting past
 * the limit (flow and block), the alias count, a character YAML forbids.
 */
class MessagePositionsTest {
    private static ScenarioException refused(String text) {
        return assertThrows(ScenarioException.class, () -> YamlTree.parse(text, "s.yaml"));
    }

    @Test
    void flowNestingPastTheLimitIsPlacedWhereItGoesTooDeep() {
        String deep = "[".repeat(InputLimits.MAX_DEPTH + 5) + "]".repeat(InputLimits.MAX_DEPTH + 5);
        ScenarioException e = refused("name: x\nhosts: {}\nbad: " + deep + "\n");
        assertEquals(3, e.line(), e.getMessage());
        assertTrue(e.column() > 1, e.getMessage());
        assertTrue(e.getMessage().contains("nesting deeper than the limit"), e.getMessage());
    }

    @Test
    void blockNestingPastTheLimitIsPlacedAtItsLine() {
        StringBuilder b = new StringBuilder("name: x\n");
        for (int i = 0; i < InputLimits.MAX_DEPTH + 5; i++) {
            b.append(" ".repeat(i)).append("k").append(i).append(":\n");
        }
        b.append(" ".repeat(InputLimits.MAX_DEPTH + 5)).append("v\n");
        ScenarioException e = refused(b.toString());
        assertTrue(e.line() > 2, e.getMessage());
        assertTrue(e.column() >= 1, e.getMessage());
    }

    @Test
    void theAliasOverTheLimitIsPlacedAtItself() {
        StringBuilder b = new StringBuilder("a: &a [1, 2]\nlist:\n");
        for (int i = 0; i < YamlTree.MAX_ALIASES + 3; i++) {
            b.append("  - *a\n");
        }
        ScenarioException e = refused(b.toString());
        // the 51st alias sits on line 2 + 51
        assertEquals(2 + YamlTree.MAX_ALIASES + 1, e.line(), e.getMessage());
        assertEquals(5, e.column(), e.getMessage());
        assertTrue(e.getMessage().contains("aliases"), e.getMessage());
    }

    @Test
    void aForbiddenCharacterIsPlacedAtItsLineAndColumn() {
        ScenarioException e = refused("name: x\nhosts: {}\nbad: ab\u0000c\n");
        assertEquals(3, e.line(), e.getMessage());
        assertEquals(8, e.column(), e.getMessage());
        assertTrue(e.getMessage().contains("U+0000"), e.getMessage());
    }

    @Test
    void anOverlongLineIsPlacedAtItsLineAndAnOversizedFileAtTheWholeFile() {
        ScenarioException line = refused("name: x\nd: " + "x".repeat(InputLimits.MAX_LINE_CHARS + 1) + "\n");
        assertEquals(2, line.line());
        assertEquals(1, line.column());
        String big = ("# " + "x".repeat(1000) + "\n").repeat((int) (InputLimits.MAX_FILE_BYTES / 1000) + 10);
        ScenarioException file = refused(big);
        assertEquals(0, file.line());
        assertEquals(0, file.column());
        assertTrue(file.getMessage().startsWith("s.yaml: "), file.getMessage());
    }

    @Test
    void aFileUnderTheLimitButOverSnakeYamlsDefaultIsRead() {
        // SnakeYAML refuses more than 3 MiB of code points unless told otherwise; a 65,536-transfer list
        // is 5 MB. The file is refused only by rdmasim's own limit, with its message.
        int lines = (int) (3.5 * 1024 * 1024 / 1002);
        String text = ("# " + "x".repeat(999) + "\n").repeat(lines) + "name: big\nhosts: {}\n";
        assertTrue(text.length() > 3 * 1024 * 1024 && text.length() < InputLimits.MAX_FILE_BYTES);
        YamlTree tree = YamlTree.parse(text, "s.yaml");
        assertEquals("big", tree.get("name").text());
    }
}
