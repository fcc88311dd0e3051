package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A thread that handles one slice at a time: its rate follows the slices a request is cut into. */
class SliceThreadTest {
    private static final SliceThread MOONCAKE = new SliceThread(3.304e-6, 65536);

    @Test
    void wholeSlicesRunAtOneSliceAThreadTime() {
        assertEquals(65536 / 3.304e-6, MOONCAKE.bytesPerSecond(4 << 20), 1e-3);
    }

    @Test
    void aRequestUnderASliceIsOneSliceAndARemainderCostsAWholeOne() {
        // 36 KiB: one slice, so the thread passes 36 KiB a slice time
        assertEquals(36864 / 3.304e-6, MOONCAKE.bytesPerSecond(36864), 1e-3);
        // one byte over a slice: two slices for 65537 bytes, about half the rate of whole slices
        assertEquals(65537.0 / 2 / 3.304e-6, MOONCAKE.bytesPerSecond(65537), 1e-3);
        assertTrue(MOONCAKE.bytesPerSecond(65537) < MOONCAKE.bytesPerSecond(65536) * 0.51);
    }

    @Test
    void noThreadAndEmptyRequestsHoldNothing() {
        assertFalse(SliceThread.NONE.present());
        assertEquals(Double.POSITIVE_INFINITY, SliceThread.NONE.bytesPerSecond(65536));
        assertEquals(Double.POSITIVE_INFINITY, MOONCAKE.bytesPerSecond(0));
    }

    @Test
    void refusesANegativeOrEndlessTimeAndAnEmptySlice() {
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(-1e-6, 65536));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(Double.POSITIVE_INFINITY, 65536));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(Double.NaN, 65536));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(1e-6, 0));
    }
}
