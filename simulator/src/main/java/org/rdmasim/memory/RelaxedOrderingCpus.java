package org.rdmasim.memory;

import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.transport.config.MemoryType;

/**
 * Which CPUs make {@code UCX_IB_PCI_RELAXED_ORDERING=auto} turn relaxed ordering on (and so add the
 * strict-order companion MR), over the hardware model's {@link CpuFamily}.
 *
 * <p>UCX decides with {@code ucs_cpu_prefer_relaxed_order} (openucx/ucx {@code src/ucs/arch/cpu.h}):
 * the stored source lists Fujitsu ARM and AMD Naples, Rome and Milan; FACTS.md section 2 extends AMD
 * to Genoa and Turin, which the hardware model folds into {@link CpuFamily#AMD_ZEN}. Intel Emerald
 * Rapids was added by openucx/ucx PR #10955 (PCIe bandwidth ~16 GB/s without relaxed ordering against
 * more than 40 GB/s with it) and narrowed to CUDA and CUDA-managed memory by PR #11532 / #11660
 * (v1.22.x), because relaxed host registrations hurt host-memory collectives. Sapphire Rapids, Grace
 * and the rest get one MR. Fujitsu ARM and NVIDIA Vera (PR #11628) have no {@link CpuFamily} and are
 * not modelled.
 */
public final class RelaxedOrderingCpus {

    private RelaxedOrderingCpus() {
    }

    /** Whether {@code auto} enables relaxed ordering on {@code cpu} for memory of {@code type}. */
    public static boolean prefersRelaxedOrdering(CpuFamily cpu, MemoryType type) {
        return switch (cpu) {
            case AMD_ZEN -> true;
            case INTEL_EMERALD_RAPIDS -> type == MemoryType.CUDA || type == MemoryType.CUDA_MANAGED;
            case INTEL_SAPPHIRE_RAPIDS, INTEL_OTHER, NVIDIA_GRACE, OTHER -> false;
        };
    }
}
