package org.rdmasim.hardware;

import java.util.Locale;

/**
 * CPU families, as far as the model needs them: UCX's relaxed-ordering rule (openucx/ucx src/ucs/arch/cpu.h)
 * creates a second MR under {@code UCX_IB_PCI_RELAXED_ORDERING=auto} only on AMD Naples..Turin (all memory) and
 * Intel Emerald Rapids (CUDA memory), and before v1.18.0 its cross-socket distance was built in for some AMD
 * generations. UCX tells the AMD generations apart by CPUID family and model ({@code ucs_arch_get_cpu_model},
 * openucx/ucx v1.20.0 src/ucs/arch/x86_64/cpu.c L464-494): family 0x17 model 0x29 Naples, 0x31 Rome; 0x19
 * models 0x00-0x01 Milan, 0x11 and 0x90 Genoa; 0x1a Turin. {@link #AMD_ZEN} is an AMD EPYC whose generation is
 * not given: where a UCX release decides by generation, the model assumes one it knew, and says so.
 */
public enum CpuFamily {
    INTEL_SAPPHIRE_RAPIDS,
    INTEL_EMERALD_RAPIDS,
    INTEL_OTHER,
    AMD_ZEN,
    AMD_NAPLES,
    AMD_ROME,
    AMD_MILAN,
    AMD_GENOA,
    AMD_TURIN,
    NVIDIA_GRACE,
    OTHER;

    /** An AMD CPU, of any or no stated generation. */
    public boolean isAmd() {
        return this == AMD_ZEN || this == AMD_NAPLES || this == AMD_ROME || this == AMD_MILAN || this == AMD_GENOA
                || this == AMD_TURIN;
    }

    public static CpuFamily parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (CpuFamily f : values()) {
            if (f.name().equals(t)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown CPU family '" + text + "' (expected one of "
                + java.util.Arrays.toString(values()).toLowerCase(Locale.ROOT) + ")");
    }
}
