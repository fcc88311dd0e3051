package org.rdmasim.memory;

import org.rdmasim.transport.ucx.HcaDistance;

/**
 * An HCA (UCX memory domain) a buffer could be registered on.
 *
 * @param name                    device name, e.g. "mlx5_5"
 * @param mdIndex                 UCX memory-domain index, printed as {@code md[N]}; it counts every
 *                                MD of the context (self, cuda_copy, ...), so mlx5_0 is often not md[0]
 * @param distance                UCX distance from the buffer's device to this HCA
 * @param supportsRelaxedOrdering whether the HCA and verbs support {@code IBV_ACCESS_RELAXED_ORDERING}
 * @param regMemTypes             memory types the MD reports in {@code reg_mem_types}, as UCX prints
 *                                them after "md supports:"; "host" for dma-buf-only GPUDirect
 */
public record HcaCandidate(String name, int mdIndex, HcaDistance distance, boolean supportsRelaxedOrdering,
        String regMemTypes) {

    public HcaCandidate {
        MemoryInputException.requireName(name, "HCA name");
        if (mdIndex < 0) {
            throw new MemoryInputException("HCA " + name + ": md index must be >= 0, got " + mdIndex);
        }
        if (distance == null) {
            throw new MemoryInputException("HCA " + name + ": distance is required");
        }
        MemoryInputException.requireName(regMemTypes, "HCA " + name + " reg_mem_types");
    }

    /**
     * An HCA whose MD lists only host memory in {@code reg_mem_types}: GPU memory reaches it through
     * dma-buf, as in the log Crusoe publishes [crusoe-kb-nixl]: "(md supports: host)".
     */
    public HcaCandidate(String name, int mdIndex, HcaDistance distance, boolean supportsRelaxedOrdering) {
        this(name, mdIndex, distance, supportsRelaxedOrdering, "host");
    }
}
