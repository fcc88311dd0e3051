package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;

/**
 * An NCCL topology's AMD CPU read as UCX reads it, by CPUID family and model in decimal (ucs_arch_get_cpu_model,
 * openucx/ucx v1.20.0 src/ucs/arch/x86_64/cpu.c L464-494), and written back the same way.
 */
class AmdGenerationTest {
    private static CpuFamily read(String family, String model) {
        return NcclVocabulary.cpuFamily("x86_64", "AuthenticAMD", family, model);
    }

    @Test
    void familyAndModelNameTheGeneration() {
        assertEquals(CpuFamily.AMD_NAPLES, read("23", "41"));
        assertEquals(CpuFamily.AMD_ROME, read("23", "49"));
        assertEquals(CpuFamily.AMD_MILAN, read("25", "1"));
        assertEquals(CpuFamily.AMD_MILAN, read("25", "0"));
        assertEquals(CpuFamily.AMD_GENOA, read("25", "17"));
        assertEquals(CpuFamily.AMD_GENOA, read("25", "144"));
        assertEquals(CpuFamily.AMD_TURIN, read("26", "2"));
        assertEquals(CpuFamily.AMD_ZEN, read("26", "48"), "a Zen 5 model UCX does not list");
        assertEquals(CpuFamily.AMD_ZEN, read("25", "97"), "a Zen 4 model UCX does not list (Genoa-X and Bergamo)");
        assertEquals(CpuFamily.AMD_ZEN, read(null, null), "no family given");
    }

    @Test
    void eachGenerationIsWrittenAsItIsRead() {
        for (CpuFamily f : CpuFamily.values()) {
            if (f.isAmd()) {
                String[] a = NcclVocabulary.cpuAttributes(f);
                assertEquals(f, read(a[2], a[3]), f.toString());
            }
        }
    }
}
