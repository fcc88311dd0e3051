package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The memory package's arithmetic at its edges: Open MPI's 3/4 rule, MTT bounds, sums of totals. */
class MemoryArithmeticTest {
    @Test
    void openMpiWarnsBelowThreeQuartersOfPhysicalMemoryExactly() {
        // btl_openib: registerable < 3/4 of total warns; 64 GiB total -> 48 GiB is enough, a byte less is not.
        assertFalse(MttSizing.openMpiWarns(48 * ByteUnits.GIB, 64 * ByteUnits.GIB));
        assertTrue(MttSizing.openMpiWarns(48 * ByteUnits.GIB - 1, 64 * ByteUnits.GIB));
        // 7 bytes: floor(21 / 4) = 5.
        assertFalse(MttSizing.openMpiWarns(5, 7));
        assertTrue(MttSizing.openMpiWarns(4, 7));
        // No overflow near the top of the range: 3/4 of Long.MAX_VALUE, floored.
        long top = Long.MAX_VALUE / 4 * 3 + 2;
        assertFalse(MttSizing.openMpiWarns(top, Long.MAX_VALUE));
        assertTrue(MttSizing.openMpiWarns(top - 1, Long.MAX_VALUE));
    }

    @Test
    void mttExponentsRunFromZeroToFortyAndTheProductMustStayBelowTwoToTheSixtyThird() {
        assertEquals(4096, MttSizing.maxRegisterableBytes(0, 0, 4096));
        assertEquals(1L << 62, MttSizing.maxRegisterableBytes(40, 10, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(40, 11, 4096), "2^63 bytes");
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(41, 0, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(20, -1, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(20, 3, 3000));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytesFromNumMtt(-1, 3, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytesFromNumMtt(1, 41, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.smallestLogNumMtt(-1, 2, 3, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.smallestLogNumMtt(1, 2, 41, 4096));
    }

    @Test
    void totalsAddFieldByFieldAndKeepTheSlowerWall() {
        RegistrationTotals a = new RegistrationTotals(2, 100, 300, 700, 0.5, 0.5);
        RegistrationTotals b = new RegistrationTotals(3, 10, 30, 70, 0.25, 0.25);
        // registered side by side: the work adds up, the wait is the slower one's
        assertEquals(new RegistrationTotals(5, 110, 330, 770, 0.75, 0.5), a.plus(b));
        assertEquals(a, RegistrationTotals.ZERO.plus(a));
    }

    @Test
    void gibibytesRoundToTheNearestByte() {
        assertEquals(1_610_612_736L, ByteUnits.gib(1.5));
        // "139.80 GiB": 139.8 x 2^30 = 149,250,113,536 + 858,993,459.2 = 150,109,106,995.2 bytes, rounded down.
        assertEquals(150_109_106_995L, ByteUnits.gib(139.80));
        assertThrows(MemoryInputException.class, () -> ByteUnits.gib(-1));
    }
}
