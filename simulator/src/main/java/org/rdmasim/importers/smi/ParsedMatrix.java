package org.rdmasim.importers.smi;

import java.util.List;
import org.rdmasim.hardware.PathType;

/**
 * A {@code nvidia-smi topo -m} matrix as read, before any tree is inferred.
 *
 * @param source    file name for messages
 * @param headerLine line of the header row
 * @param devices   one per column, in column order (GPUs first)
 * @param relation  relation[i][j]; NV cells are {@link PathType#NV} with their count in {@code nvlinks}
 * @param nvlinks   NV# count, 0 where the cell is not NV
 * @param gpuProduct GPU product named in text around the matrix (nvidia-smi -L or -q), null when none
 * @param gpuProductLine its line, 0 when none
 */
record ParsedMatrix(String source, int headerLine, List<Device> devices, PathType[][] relation, int[][] nvlinks,
        String gpuProduct, int gpuProductLine) {

    /**
     * One column / row.
     *
     * @param label       the column label (GPU0, NIC3, or an old-style mlx5_3)
     * @param name        device name in the host (GPU label, or the NIC Legend's mlx5_N)
     * @param line        line of its row
     * @param cpuAffinity CPU Affinity column, empty when absent or N/A
     * @param numaNode    NUMA Affinity column, -1 when absent or N/A (always for NICs)
     */
    record Device(String label, String name, boolean gpu, int line, String cpuAffinity, int numaNode) {
    }

    int size() {
        return devices.size();
    }
}
