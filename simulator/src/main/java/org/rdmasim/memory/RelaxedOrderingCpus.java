package org.rdmasim.memory;

import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.transport.config.StackVersion;

/**
 * Which CPUs make {@code UCX_IB_PCI_RELAXED_ORDERING=auto} turn relaxed ordering on (and so add the
 * strict-order companion MR), over the hardware model's {@link CpuFamily}, by UCX release.
 *
 * <p>UCX decides with {@code ucs_cpu_prefer_relaxed_order} ({@code src/ucs/arch/cpu.h}), read at each
 * tag: v1.12.0 lists only Fujitsu ARM (L155); v1.13.0 adds AMD Naples, Rome and Milan (L159-163), later
 * releases Genoa (from v1.16.0, L171 there) and Turin (from v1.18.0, L168 there; v1.20.0 L164-169), which
 * the hardware model folds into {@link CpuFamily#AMD_ZEN} from v1.13.0; v1.21.0 adds Intel Emerald Rapids
 * for all memory (L174-175, openucx/ucx PR #10955: ~16 GB/s without relaxed ordering against more than
 * 40 GB/s with it); v1.22.0 narrows Emerald Rapids to CUDA and CUDA-managed memory
 * ({@code src/uct/ib/base/ib_md.h} L339-353, {@code uct_ib_md_relaxed_order_auto_mem_types}; PR #11532 /
 * #11660: relaxed host registrations hurt
 * host-memory collectives). Sapphire Rapids, Grace and the rest get one MR. Fujitsu ARM and NVIDIA
 * Vera (PR #11628) have no {@link CpuFamily} and are not modelled.
 */
public final class RelaxedOrderingCpus {
    private static final StackVersion AMD_RULE = new StackVersion(1, 13, 0);
    private static final StackVersion EMERALD_RAPIDS_RULE = new StackVersion(1, 21, 0);
    private static final StackVersion EMERALD_RAPIDS_CUDA_ONLY = new StackVersion(1, 22, 0);

    private RelaxedOrderingCpus() {
    }

    /** Whether {@code auto} in UCX release {@code ucx} enables relaxed ordering on {@code cpu} for memory of {@code type}. */
    public static boolean prefersRelaxedOrdering(CpuFamily cpu, MemoryType type, StackVersion ucx) {
        return switch (cpu) {
            case AMD_ZEN -> ucx.atLeast(AMD_RULE);
            case INTEL_EMERALD_RAPIDS -> ucx.atLeast(EMERALD_RAPIDS_CUDA_ONLY)
                    ? type == MemoryType.CUDA || type == MemoryType.CUDA_MANAGED
                    : ucx.atLeast(EMERALD_RAPIDS_RULE);
            case INTEL_SAPPHIRE_RAPIDS, INTEL_OTHER, NVIDIA_GRACE, OTHER -> false;
        };
    }
}
