package org.rdmasim.transport;

import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * Whether a NIXL/UCX transfer moves a buffer by GPUDirect RDMA or through host memory, and how: the one
 * place this is decided.
 *
 * <p>UCX registers CUDA memory with an IB memory domain when the driver allows it (nvidia-peermem or
 * dma-buf; {@code UCX_IB_GPU_DIRECT_RDMA=try} by default, openucx/ucx v1.20.0 src/uct/ib/base/ib_md.c
 * L118-120, L1326-1346), and then the zero-copy RMA protocols read and write GPU memory directly, over
 * whatever PCIe path joins GPU and NIC: the path only lowers UCX's estimate (distance), it does not switch
 * GPUDirect off. When it cannot, no IB md registers the buffer and what happens depends on the call:
 * <ul>
 *   <li>RMA ({@code ucp_put_nbx}/{@code ucp_get_nbx}, NIXL's UCX backend): only the software emulation
 *       protocols are left ({@link RmaEmulation});</li>
 *   <li>a rendezvous send: the rendezvous pipeline stages fragments through host bounce buffers
 *       ({@code rndv/put/mtype}, {@code rndv/get/mtype}, src/ucp/rndv/rndv_put.c L661, rndv_get.c L376;
 *       {@code UCX_RNDV_FRAG_SIZE=host:512K,cuda:4M}, src/ucp/core/ucp_context.c L659).</li>
 * </ul>
 * {@code NCCL_NET_GDR_LEVEL} is NCCL's rule ([nccl-src] src/graph/paths.cc) and does not apply to
 * NIXL/UCX transfers.
 */
public final class GpuDirectDecision {
    private GpuDirectDecision() {
    }

    /**
     * @param gpudirectAvailable whether the host can register GPU memory with its NICs (the
     *                           scenario's {@code transport.gpudirect})
     * @param rma                whether the transfer is an RMA call (NIXL's UCX backend) rather than a
     *                           rendezvous send
     */
    public static DataPath of(Host host, String device, boolean gpudirectAvailable, boolean rma) {
        // Looked up without an Optional and a lambda capturing the names: decided twice for every transfer
        // posted, and the launcher's C1 compiler makes a capturing lambda through a native
        // Unsafe.allocateInstance call (~1% of a 65,536-receiver fan-out's event loop, perf).
        TopologyNode d = host.device(device);
        if (d == null) {
            throw new IllegalArgumentException("host " + host.name() + " has no device named " + device);
        }
        if (d.kind() == TopologyNode.Kind.SOCKET) {
            return DataPath.HOST_MEMORY;
        }
        if (gpudirectAvailable) {
            return DataPath.GPUDIRECT;
        }
        return rma ? DataPath.RMA_EMULATION : DataPath.STAGED;
    }
}
