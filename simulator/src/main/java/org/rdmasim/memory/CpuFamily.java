package org.rdmasim.memory;

/**
 * The host CPU as UCX's {@code ucs_arch_get_cpu_vendor/model} would classify it, for the
 * {@code UCX_IB_PCI_RELAXED_ORDERING=auto} decision.
 *
 * <p>Which CPUs prefer relaxed ordering ({@code ucs_cpu_prefer_relaxed_order}, openucx/ucx
 * {@code src/ucs/arch/cpu.h}): the stored source we read lists Fujitsu ARM and AMD Naples, Rome and
 * Milan. FACTS.md section 2 extends AMD to Genoa and Turin; that later change was not found in the
 * stored source and is taken from FACTS.md. Intel Emerald Rapids was added by openucx/ucx PR #10955
 * ("Use relaxed ordering for Intel Emerald Rapids CPUs", PCIe bandwidth ~16 GB/s without it instead of
 * &gt;40 GB/s) and narrowed to CUDA and CUDA-managed memory by PR #11532 / #11660 (v1.22.x) because
 * relaxed host registrations hurt host-memory collectives. NVIDIA Vera (PR #11628) is not modelled.
 */
public enum CpuFamily {
    AMD_NAPLES, AMD_ROME, AMD_MILAN, AMD_GENOA, AMD_TURIN,
    INTEL_EMERALD_RAPIDS,
    /** Any other Intel model (Sapphire Rapids, Granite Rapids, ...): no relaxed ordering on auto. */
    INTEL_OTHER,
    ARM_GRACE,
    FUJITSU_ARM,
    OTHER;

    /** Whether {@code auto} enables relaxed ordering (and so the second MR) for this memory type. */
    public boolean prefersRelaxedOrdering(MemoryType memoryType) {
        return switch (this) {
            case AMD_NAPLES, AMD_ROME, AMD_MILAN, AMD_GENOA, AMD_TURIN, FUJITSU_ARM -> true;
            case INTEL_EMERALD_RAPIDS -> memoryType == MemoryType.CUDA;
            case INTEL_OTHER, ARM_GRACE, OTHER -> false;
        };
    }
}
