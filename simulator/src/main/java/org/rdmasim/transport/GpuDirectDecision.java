package org.rdmasim.transport;

import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * Whether a NIXL/UCX transfer moves a buffer by GPUDirect RDMA or bounces it through host memory:
 * the one place this is decided.
 *
 * <p>UCX registers CUDA memory with an IB memory domain when the driver allows it (nvidia-peermem or
 * dma-buf; {@code UCX_IB_GPU_DIRECT_RDMA=try} by default, openucx/ucx src/uct/ib/base/ib_md.c), and
 * then the zero-copy RMA protocols read and write GPU memory directly, over whatever PCIe path joins GPU
 * and NIC: the path only lowers UCX's estimate (distance), it does not switch GPUDirect off. When
 * registration of CUDA memory is not possible, UCX's rendezvous pipeline stages through host memory
 * ([ucx-src] src/ucp/core/ucp_context.c, {@code UCX_RNDV_FRAG_SIZE}). {@code NCCL_NET_GDR_LEVEL} is NCCL's rule
 * ([nccl-src] src/graph/paths.cc) and does not apply to NIXL/UCX transfers.
 */
public final class GpuDirectDecision {
    private GpuDirectDecision() {
    }

    /**
     * @param gpudirectAvailable whether the host can register GPU memory with its NICs (the
     *                           scenario's {@code transport.gpudirect})
     */
    public static DataPath of(Host host, String device, boolean gpudirectAvailable) {
        TopologyNode d = host.find(device).orElseThrow(() -> new IllegalArgumentException(
                "host " + host.name() + " has no device named " + device));
        if (d.kind() == TopologyNode.Kind.SOCKET) {
            return DataPath.HOST_MEMORY;
        }
        return gpudirectAvailable ? DataPath.GPUDIRECT : DataPath.STAGED;
    }
}
