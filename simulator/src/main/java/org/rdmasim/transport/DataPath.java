package org.rdmasim.transport;

/**
 * How one side's buffer reaches its NIC: GPUDirect RDMA (the NIC reads or writes GPU memory over
 * PCIe peer-to-peer), host staging (a pipelined bounce through pinned host memory, UCX's
 * {@code get_ppln}/{@code put_ppln}), or host memory to begin with.
 */
public enum DataPath {
    GPUDIRECT, STAGED, HOST_MEMORY
}
