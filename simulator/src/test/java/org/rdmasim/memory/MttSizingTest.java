package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MttSizingTest {

    @Test
    void seed001LogNumMttForTwiceSixtyFourGibibytes() {
        assertEquals(22, MttSizing.smallestLogNumMtt(64 * ByteUnits.GIB, 2.0, 3, 4096));
        assertEquals(128 * ByteUnits.GIB, MttSizing.maxRegisterableBytes(22, 3, 4096));
        // One less is not enough.
        assertTrue(MttSizing.maxRegisterableBytes(21, 3, 4096) < 2 * 64 * ByteUnits.GIB);
    }

    @Test
    void seed001WarningFiguresComeFromTheMlx4Defaults() {
        long registerable = MttSizing.maxRegisterableBytes(MttSizing.MLX4_DEFAULT_LOG_NUM_MTT,
                MttSizing.MLX4_DEFAULT_LOG_MTTS_PER_SEG, 4096);
        assertEquals(32 * ByteUnits.GIB, registerable);
        assertEquals(32768, registerable >> 20);
        // Open MPI warns because 32768 MiB < 3/4 x 65476 MiB.
        assertTrue(MttSizing.openMpiWarns(registerable, 65476 * ByteUnits.MIB));
        assertFalse(MttSizing.openMpiWarns(128 * ByteUnits.GIB, 65476 * ByteUnits.MIB));
    }

    @Test
    void oldNumMttFormMatchesTheLogForm() {
        assertEquals(MttSizing.maxRegisterableBytes(20, 3, 4096),
                MttSizing.maxRegisterableBytesFromNumMtt(1L << 20, 3, 4096));
        // Open MPI FAQ style example: 24 / 1 with 4 KiB pages -> 2^24 * 2 * 4 KiB = 128 GiB.
        assertEquals(128 * ByteUnits.GIB, MttSizing.maxRegisterableBytes(24, 1, 4096));
    }
}
