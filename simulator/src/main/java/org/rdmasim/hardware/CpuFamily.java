package org.rdmasim.hardware;

import java.util.Locale;

/**
 * CPU families, as far as the model needs them: UCX's relaxed-ordering rule
 * ([ucx-src] src/uct/ib/base/ib_md.c) creates a second MR under
 * {@code UCX_IB_PCI_RELAXED_ORDERING=auto} only on AMD Naples..Turin (all memory) and Intel Emerald
 * Rapids (CUDA memory).
 */
public enum CpuFamily {
    INTEL_SAPPHIRE_RAPIDS,
    INTEL_EMERALD_RAPIDS,
    INTEL_OTHER,
    AMD_ZEN,
    NVIDIA_GRACE,
    OTHER;

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
