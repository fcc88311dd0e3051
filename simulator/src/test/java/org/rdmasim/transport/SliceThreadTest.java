package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A thread that handles one slice at a time: its rate follows the slices a request is cut into, as Mooncake's
 * submitTransferTask cuts them (64 KiB slices, a last slice of up to 64 + 16 KiB).
 */
class SliceThreadTest {
    private static final SliceThread MOONCAKE = new SliceThread(3.304e-6, 65536, 16384);

    @Test
    void wholeSlicesRunAtOneSliceAThreadTime() {
        assertEquals(65536 / 3.304e-6, MOONCAKE.bytesPerSecond(4 << 20), 1e-3);
    }

    @Test
    void aRequestUnderASliceIsOneSliceAndASmallTailRidesWithTheLastSlice() {
        // 36 KiB: one slice, so the thread passes 36 KiB a slice time
        assertEquals(36864 / 3.304e-6, MOONCAKE.bytesPerSecond(36864), 1e-3);
        // 68 KiB (vLLM's 17 blocks of 4 KiB a layer at 256 tokens): the 4 KiB tail rides with the slice: one
        assertEquals(1, MOONCAKE.slices(69632));
        assertEquals(69632 / 3.304e-6, MOONCAKE.bytesPerSecond(69632), 1e-3);
        // a slice and 16 KiB is still one; one byte more leaves a second slice, about half the rate
        assertEquals(1, MOONCAKE.slices(65536 + 16384));
        assertEquals(2, MOONCAKE.slices(65536 + 16384 + 1));
        assertTrue(MOONCAKE.bytesPerSecond(65536 + 16385) < MOONCAKE.bytesPerSecond(65536 + 16384) * 0.51);
        // 132 KiB: 64 KiB, then 68 KiB left, which is one: two slices, not three
        assertEquals(2, MOONCAKE.slices(135168));
    }

    @Test
    void slicesFollowTheRequestsNotTheBytesAlone() {
        // 2.25 MiB as 72 requests of 32 KiB or as 36 of 64 KiB: the same bytes, 72 slices against 36
        double small = 72 * MOONCAKE.slices(32768);
        double large = 36 * MOONCAKE.slices(65536);
        assertEquals(72, small);
        assertEquals(36, large);
        // so the thread's time for the bytes doubles with the request count
        assertEquals(2.0, (72 * 32768 / MOONCAKE.bytesPerSecond(32768)) / (36 * 65536 / MOONCAKE.bytesPerSecond(65536)),
                1e-12);
        // without a tail allowance a request just past a slice would cost two
        assertEquals(2, new SliceThread(3.304e-6, 65536, 0).slices(69632));
    }

    @Test
    void noThreadAndEmptyRequestsHoldNothing() {
        assertFalse(SliceThread.NONE.present());
        assertEquals(Double.POSITIVE_INFINITY, SliceThread.NONE.bytesPerSecond(65536));
        assertEquals(Double.POSITIVE_INFINITY, MOONCAKE.bytesPerSecond(0));
        assertEquals(0, MOONCAKE.slices(0));
    }

    @Test
    void refusesANegativeOrEndlessTimeAnEmptySliceAndANegativeTail() {
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(-1e-6, 65536, 0));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(Double.POSITIVE_INFINITY, 65536, 0));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(Double.NaN, 65536, 0));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(1e-6, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new SliceThread(1e-6, 65536, -1));
    }
}
