package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InputLocationTest {

    @Test
    void printsOnlyThePartsThatAreKnown() {
        assertEquals("a.yaml", new InputLocation("a.yaml", 0, 7).toString());
        assertEquals("a.yaml", new InputLocation("a.yaml", -1, 0).toString());
        assertEquals("a.yaml:1", new InputLocation("a.yaml", 1, 0).toString());
        assertEquals("a.yaml:12", new InputLocation("a.yaml", 12, -3).toString());
        assertEquals("a.yaml:1:1", new InputLocation("a.yaml", 1, 1).toString());
        assertEquals("a.yaml:12:5", new InputLocation("a.yaml", 12, 5).toString());
    }

    @Test
    void downMovesTheLineAndKeepsTheColumn() {
        assertEquals(new InputLocation("s.yaml", 13, 4), new InputLocation("s.yaml", 10, 4).down(3));
    }
}
