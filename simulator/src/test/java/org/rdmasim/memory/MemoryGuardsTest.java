package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.memory.RegistrationVerdict.LimitKind;
import org.rdmasim.hardware.CpuFamily;

/** Guards and edges of the memory model that issue 10's mutation run found unchecked. */
class MemoryGuardsTest {
    private static final long FORTY_GIB = 40 * ByteUnits.GIB;
    private final RegistrationModel model = new RegistrationModel();

    @Test
    void firmwarePagesOfGpuBuffersCountAsPinnedHostMemory() {
        // 8 GPUs x 40 GiB on 8 HCAs with two MRs each: 128 MRs of 80 MiB + 64 B of firmware pages,
        // 10 GiB + 8 KiB of pinned host memory in all; the GPU buffers themselves pin none.
        var plans = HgxHost.planEveryGpu(model, FORTY_GIB, 8, HgxHost.nixl(CpuFamily.INTEL_OTHER, false));
        RegistrationVerdict tight = RegistrationCheck.check(plans,
                RegistrationLimits.unlimited().withHostMemory(10 * ByteUnits.GIB));
        assertFalse(tight.passed());
        assertEquals(LimitKind.HOST_MEMORY, tight.limit());
        RegistrationVerdict enough = RegistrationCheck.check(plans,
                RegistrationLimits.unlimited().withHostMemory(10 * ByteUnits.GIB + 128 * 64));
        assertTrue(enough.passed(), enough.message());
    }

    @Test
    void communicatorsThatStillFitCountFromWhatIsAlreadyMapped() {
        CudaPoolAddressSpace two = CudaPoolAddressSpace.forDevice(279 * ByteUnits.GIB).withPoolsPerCommunicator(2);
        // 2 x 558 GiB per communicator; with 10 TiB already in use 246 TiB are free: 251,904 GiB / 1,116 = 225
        assertEquals(225, two.communicatorsUntilExhaustion(VirtualAddressSpace.SEED_48_BIT, 10 * ByteUnits.TIB));
        assertEquals(0, two.communicatorsUntilExhaustion(VirtualAddressSpace.SEED_48_BIT, 256 * ByteUnits.TIB));
        assertThrows(MemoryInputException.class,
                () -> two.communicatorsUntilExhaustion(VirtualAddressSpace.SEED_48_BIT, -1));
    }

    @Test
    void registerableMemoryThatOverflowsIsAnErrorNotAWrappedNumber() {
        // 2^40 x 2^20 x 4 KiB = 2^72 bytes
        MemoryInputException e = assertThrows(MemoryInputException.class,
                () -> MttSizing.maxRegisterableBytes(40, 20, 4096));
        assertTrue(e.getMessage().contains("overflows"), e.getMessage());
        assertThrows(ArithmeticException.class, () -> MttSizing.maxRegisterableBytesFromNumMtt(1L << 40, 20, 4096));
        // just under: 2^30 x 2^20 x 4 KiB = 2^62
        assertEquals(1L << 62, MttSizing.maxRegisterableBytes(30, 20, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(41, 0, 4096));
        assertThrows(MemoryInputException.class, () -> MttSizing.maxRegisterableBytes(20, 3, 3000));
    }
}
