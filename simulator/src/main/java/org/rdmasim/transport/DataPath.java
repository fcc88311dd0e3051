package org.rdmasim.transport;

/**
 * How one side's buffer reaches its NIC: GPUDirect RDMA (the NIC reads or writes GPU memory over
 * PCIe peer-to-peer), host staging (a pipelined bounce through pinned host memory, UCX's rendezvous
 * pipeline {@code rndv/put/mtype}/{@code rndv/get/mtype}), UCX's software RMA emulation for an RMA call
 * on GPU memory no NIC could register ({@link RmaEmulation}: one active message at a time, each copied
 * by cuda_copy through host memory), or host memory to begin with.
 */
public enum DataPath {
    GPUDIRECT, STAGED, RMA_EMULATION, HOST_MEMORY;

    /** Whether the bytes bounce through host memory on this side on their way between GPU and NIC. */
    public boolean bouncesThroughHost() {
        return this == STAGED || this == RMA_EMULATION;
    }
}
