package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;

class CudaPoolAddressSpaceTest {

    private static final long H200 = ByteUnits.gib(139.80);
    private static final long GB300 = 279 * ByteUnits.GIB;

    private static String tib2(long bytes) {
        return String.format(Locale.ROOT, "%.2f", bytes / (double) ByteUnits.TIB);
    }

    @Test
    void seed002H200PoolReservesTwoHundredEightyGibibytes() {
        CudaPoolAddressSpace pools = CudaPoolAddressSpace.forDevice(H200);
        // 2 x 139.80 = 279.60 GiB, rounded up to the (assumed) 1 GiB reservation granularity.
        assertEquals(280 * ByteUnits.GIB, pools.vaPerPoolBytes());
        long start = ByteUnits.tib(0.04);
        long after = pools.vaAfterPools(start, 20);
        assertEquals("5.51", tib2(after));
        assertEquals("5.47", tib2(after - start));
        assertEquals("2.00", String.format(Locale.ROOT, "%.2f", pools.vaPerPoolBytes() / (double) H200));

        // Without rounding PR #2064's own totals would not come out: 20 x 279.6 GiB = 5.46 TiB.
        CudaPoolAddressSpace exact = pools.withReservationGranularity(1);
        assertEquals("5.46", tib2(exact.vaForPools(20)));
        assertEquals("5.50", tib2(exact.vaAfterPools(start, 20)));
        // Granularities PR #2064 allows and one it rules out.
        for (long g : new long[] {512 * ByteUnits.MIB, 2 * ByteUnits.GIB, 4 * ByteUnits.GIB, 8 * ByteUnits.GIB}) {
            assertEquals(280 * ByteUnits.GIB, pools.withReservationGranularity(g).vaPerPoolBytes());
        }
        assertEquals(288 * ByteUnits.GIB, pools.withReservationGranularity(16 * ByteUnits.GIB).vaPerPoolBytes());
    }

    @Test
    void seed002Gb300CommunicatorsAgainstFortyEightBits() {
        CudaPoolAddressSpace one = CudaPoolAddressSpace.forDevice(GB300);
        assertEquals(558 * ByteUnits.GIB, one.vaPerPoolBytes());
        // "200 communicators x 1 pool x 558 GiB ~ 109 TiB"
        assertEquals("108.98", tib2(one.vaAfterCommunicators(0, 200)));

        CudaPoolAddressSpace two = one.withPoolsPerCommunicator(2);
        long va = two.vaAfterCommunicators(0, 200);
        // "200 communicators x 2 pools x 558 GiB ~ 217 TiB": exactly 217.97 TiB.
        assertEquals("217.97", tib2(va));
        assertTrue(two.fits(VirtualAddressSpace.SEED_48_BIT, 0, 200));
        assertEquals(234, two.communicatorsUntilExhaustion(VirtualAddressSpace.SEED_48_BIT, 0));
        assertFalse(two.fits(VirtualAddressSpace.SEED_48_BIT, 0, 235));
        // x86-64 4-level paging gives user space only 128 TiB: exhausted at 117 communicators.
        assertEquals(117, two.communicatorsUntilExhaustion(VirtualAddressSpace.X86_64_FOUR_LEVEL_USER, 0));
        assertFalse(two.fits(VirtualAddressSpace.X86_64_FOUR_LEVEL_USER, 0, 200));
    }

    @Test
    void seed002FiftySevenBitSpaceIsUnaffected() {
        CudaPoolAddressSpace two = CudaPoolAddressSpace.forDevice(GB300).withPoolsPerCommunicator(2);
        assertEquals(128 * ByteUnits.PIB, VirtualAddressSpace.SEED_57_BIT.bytes());
        assertTrue(two.fits(VirtualAddressSpace.SEED_57_BIT, 0, 200));
        assertTrue(two.communicatorsUntilExhaustion(VirtualAddressSpace.SEED_57_BIT, 0) > 100_000);
        // Caveat: on x86-64 5-level paging mmap stays below 47 bits unless given a high hint.
        assertEquals(VirtualAddressSpace.X86_64_FOUR_LEVEL_USER.bytes(),
                VirtualAddressSpace.X86_64_FIVE_LEVEL_DEFAULT_WINDOW.bytes());
    }

    @Test
    void seed002ShadowPoolCapBoundsEachPool() {
        CudaPoolAddressSpace capped = CudaPoolAddressSpace.forDevice(GB300)
                .withNcclShadowMempoolMaxSize(CudaPoolAddressSpace.NCCL_SHADOW_MEMPOOL_MAX_SIZE_DEFAULT)
                .withPoolsPerCommunicator(2);
        assertEquals(ByteUnits.GIB, capped.vaPerPoolBytes());
        assertEquals(400 * ByteUnits.GIB, capped.vaForPools(400));
        assertEquals(400 * ByteUnits.GIB, capped.vaAfterCommunicators(0, 200));
        // 0 disables the cap: back to the driver's 2x.
        assertEquals(558 * ByteUnits.GIB, capped.withNcclShadowMempoolMaxSize(0).vaPerPoolBytes());
    }
}
