package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** The results table tells short pulls apart: four significant digits under 10 ms, four decimals above. */
class RunTableSecondsTest {
    @Test
    void shortPullsKeepFourSignificantDigits() {
        assertEquals("0.4156", RunCommand.seconds(0.41562));
        assertEquals("0.0100", RunCommand.seconds(0.01));
        assertEquals("2.134e-04", RunCommand.seconds(2.1342e-4));
        assertEquals("0.0000", RunCommand.seconds(0));
        // a 4 B and a 4 KiB message of a sweep (both 0.0002 s at four decimals) now differ
        assertNotEquals(RunCommand.seconds(1.96e-4), RunCommand.seconds(2.31e-4));
    }
}
