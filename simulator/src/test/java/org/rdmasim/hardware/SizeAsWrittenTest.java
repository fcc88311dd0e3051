package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A size reads back in the unit a user would have written it in, so explain and plans quote the scenario. */
class SizeAsWrittenTest {
    @Test
    void decimalSizesStayDecimal() {
        assertEquals("1 GB", Units.sizeAsWritten(1_000_000_000L, " "));
        assertEquals("1.5 GB", Units.sizeAsWritten(1_500_000_000L, " "));
        assertEquals("4GB", Units.sizeAsWritten(4_000_000_000L, ""));
    }

    @Test
    void binarySizesStayBinary() {
        assertEquals("1 GiB", Units.sizeAsWritten(1L << 30, " "));
        assertEquals("256 MiB", Units.sizeAsWritten(256L << 20, " "));
        assertEquals("8GiB", Units.sizeAsWritten(8L << 30, ""));
    }

    @Test
    void sizesInNeitherUnitAreExactBytes() {
        assertEquals("1000001 B", Units.sizeAsWritten(1_000_001L, " "));
        assertEquals("512 B", Units.sizeAsWritten(512, " "));
    }
}
