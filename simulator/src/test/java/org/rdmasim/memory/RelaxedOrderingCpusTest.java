package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.transport.config.StackVersion;

/**
 * UCX_IB_PCI_RELAXED_ORDERING=auto's CPU list by release (openucx/ucx src/ucs/arch/cpu.h): Naples, Rome and Milan
 * from v1.13.0, Genoa from v1.16.0, Turin from v1.18.0; an AMD host of no stated generation is taken as listed
 * from v1.13.0.
 */
class RelaxedOrderingCpusTest {
    private static boolean on(CpuFamily cpu, int minor) {
        return RelaxedOrderingCpus.prefersRelaxedOrdering(cpu, MemoryType.CUDA, new StackVersion(1, minor, 0));
    }

    @Test
    void eachAmdGenerationFromTheReleaseThatListedIt() {
        assertFalse(on(CpuFamily.AMD_MILAN, 12));
        assertTrue(on(CpuFamily.AMD_NAPLES, 13));
        assertTrue(on(CpuFamily.AMD_MILAN, 13));
        assertFalse(on(CpuFamily.AMD_GENOA, 15));
        assertTrue(on(CpuFamily.AMD_GENOA, 16));
        assertFalse(on(CpuFamily.AMD_TURIN, 17));
        assertTrue(on(CpuFamily.AMD_TURIN, 18));
        assertTrue(on(CpuFamily.AMD_ZEN, 13), "unstated: assumed listed");
        assertFalse(on(CpuFamily.INTEL_SAPPHIRE_RAPIDS, 20));
    }
}
