package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.transport.citation.Citation;

/**
 * What UCX's {@code ucp_put_nbx}/{@code ucp_get_nbx} (NIXL's UCX backend) do on CUDA memory that no IB
 * memory domain can register: they fall back to UCX's software RMA emulation, one active message at a
 * time on one lane, each fragment copied between GPU and host by cuda_copy on the CPU that handles it.
 * All references are to openucx/ucx at tag v1.20.0.
 *
 * <ul>
 *   <li>Without nvidia-peermem (or nv_peer_mem) and without dma-buf, the IB md leaves CUDA out of
 *       {@code reg_mem_types} ({@code src/uct/ib/base/ib_md.c} L1324-1346), so {@code ucp_mem_map} registers a
 *       CUDA buffer on no IB md ({@code src/ucp/core/ucp_context.c} L1790-1846 builds {@code reg_md_map}) and
 *       its packed rkey names none.</li>
 *   <li>The offload protocols ({@code put/offload/*}, {@code get/zcopy}, {@code get/bcopy}) need remote access:
 *       a lane whose md the rkey lacks is skipped ({@code src/ucp/proto/proto_common.c} L651-667), a zero-copy
 *       lane also needs the local buffer registered there (L505-512), and the bcopy ones cannot copy CUDA
 *       memory ({@code memtype_op} {@code UCT_EP_OP_LAST}, refused in {@code src/ucp/proto/proto_init.c}
 *       L359-360).</li>
 *   <li>What is left is {@code put/am/bcopy} and {@code get/am/bcopy}, described as "software emulation"
 *       ({@code src/ucp/rma/rma.h} L17, {@code put_am.c} L125-127, {@code get_am.c} L117-119): one lane
 *       ({@code max_lanes = 1}, {@code put_am.c} L108), fragments of the AM lane's {@code max_bcopy}, each packed
 *       out of GPU memory by a synchronous cuda_copy ({@code memtype_op UCT_EP_OP_GET_SHORT}, put_am.c L102;
 *       {@code cuMemcpyAsync} then {@code cuStreamSynchronize}, {@code src/uct/cuda/cuda_copy/cuda_copy_ep.c}
 *       L401-406) and unpacked into GPU memory the same way by the peer's AM handler
 *       ({@code src/ucp/rma/rma_sw.c} L164-166 for PUT; for GET the target packs its reply out of GPU memory,
 *       L197-200, and the initiator unpacks it through its datatype iterator, L284-285). The peer's worker must be
 *       progressed for that: NIXL's Python agent starts a progress thread by default
 *       (ai-dynamo/nixl v1.1.0 {@code src/api/python/_api.py} L152), which this model takes as running.</li>
 * </ul>
 *
 * <p>Each side therefore spends, per fragment, UCX's own estimate of a synchronous cuda_copy
 * ({@code cuda_copy_iface.c} L195-198, L217-220, L236-244): 4.0 us send overhead, 1.8 us waiting for the copy,
 * and the fragment at the configured copy bandwidth ({@code UCX_CUDA_COPY_BW} {@code d2h:11660MBs},
 * {@code h2d:8300MBs}, L42) times 0.95. The two sides work in parallel, so a lane moves one fragment per the
 * slower side's time. A host-memory side packs or unpacks with memcpy, taken as free beside that.
 */
public final class RmaEmulation {
    /** UCX_IB_SEG_SIZE default ({@code src/uct/ib/base/ib_iface.c} L98). */
    static final int SEG_SIZE = 8192;
    /** {@code cap.am.max_bcopy = seg_size - am_min_hdr} ({@code src/uct/ib/rc/base/rc_iface.c} L242); rc_mlx5's header is its one-byte AM id. */
    static final int AM_MAX_BCOPY = SEG_SIZE - 1;
    /** {@code ucp_put_hdr_t}: address, ep id, memory type, packed ({@code src/ucp/rma/rma.h} L61-65). */
    static final int PUT_HEADER = 8 + 8 + 4;
    /** {@code ucp_request_data_hdr_t}: request id, offset ({@code src/ucp/proto/proto_am.h} L35-38), the GET reply's header. */
    static final int GET_REPLY_HEADER = 8 + 8;
    /** cuda_copy send overhead and, for a synchronous (short) copy, its latency ({@code cuda_copy_iface.c} L195-196, L244). */
    static final double COPY_FIXED_SECONDS = 4.0e-6 + 1.8e-6;
    private static final double MBYTE = 1 << 20;
    /** {@code UCX_CUDA_COPY_BW} d2h and h2d defaults, times the 0.95 stream synchronisation factor of a short copy. */
    static final double D2H_BYTES_PER_SECOND = 11660 * MBYTE * 0.95;
    static final double H2D_BYTES_PER_SECOND = 8300 * MBYTE * 0.95;

    /** Where UCX defines the two emulated protocols, each described as "software emulation". */
    private static final Citation GET_AM = Citation.parse(
            "openucx/ucx v1.20.0 src/ucp/rma/get_am.c:117-119 ucp_get_am_bcopy_proto");
    private static final Citation PUT_AM = Citation.parse(
            "openucx/ucx v1.20.0 src/ucp/rma/put_am.c:125-127 ucp_put_am_bcopy_proto");
    /**
     * UCX's estimate of a cuda_copy: latency, overhead, the stream synchronisation factor, the bandwidth by
     * direction and the post overhead of a synchronous copy; then the bandwidths' defaults.
     */
    private static final List<Citation> COPY_ESTIMATE = List.of(
            Citation.parse("openucx/ucx v1.20.0 src/uct/cuda/cuda_copy/cuda_copy_iface.c:195-244 "
                    + "uct_cuda_copy_estimate_perf"),
            Citation.parse("openucx/ucx v1.20.0 src/uct/cuda/cuda_copy/cuda_copy_iface.c:42 "
                    + "uct_cuda_copy_iface_config_table"));

    private RmaEmulation() {
    }

    /** Where UCX defines the protocol {@link #protocol} names. */
    public static Citation protocolSource(Operation op) {
        return op == Operation.READ ? GET_AM : PUT_AM;
    }

    /** Where UCX estimates the per-fragment cuda_copy this model charges each side. */
    public static List<Citation> copyEstimateSources() {
        return COPY_ESTIMATE;
    }

    /** Whether {@code spec} moves by software emulation: either of its buffers is GPU memory no NIC registered. */
    public static boolean applies(TransferSpec spec) {
        return spec.sourcePath() == DataPath.RMA_EMULATION || spec.sinkPath() == DataPath.RMA_EMULATION;
    }

    /** UCX's protocol name for the transfer's operation, as UCX_PROTO_INFO and ucx_info name it. */
    public static String protocol(Operation op) {
        return op == Operation.READ ? "get/am/bcopy" : "put/am/bcopy";
    }

    /**
     * The lanes an emulated transfer uses: one, the AM lane ({@code max_lanes = 1}); taken as the first lane
     * of the plan (UCX's best-ranked device). Other transfers keep all their lanes.
     */
    public static <T> List<T> lanes(TransferSpec spec, List<T> planned) {
        return applies(spec) && planned.size() > 1 ? List.of(planned.get(0)) : planned;
    }

    /** Payload bytes of one fragment: the AM lane's max_bcopy less the PUT header or GET reply header. */
    public static int fragmentBytes(Operation op) {
        return AM_MAX_BCOPY - (op == Operation.READ ? GET_REPLY_HEADER : PUT_HEADER);
    }

    /** Seconds the source side spends on one fragment: a device-to-host cuda_copy when its buffer is GPU memory. */
    public static double sourceSeconds(TransferSpec spec) {
        return spec.sourcePath() == DataPath.RMA_EMULATION
                ? COPY_FIXED_SECONDS + fragmentBytes(spec.operation()) / D2H_BYTES_PER_SECOND : 0;
    }

    /** Seconds the sink side spends on one fragment: a host-to-device cuda_copy when its buffer is GPU memory. */
    public static double sinkSeconds(TransferSpec spec) {
        return spec.sinkPath() == DataPath.RMA_EMULATION
                ? COPY_FIXED_SECONDS + fragmentBytes(spec.operation()) / H2D_BYTES_PER_SECOND : 0;
    }

    /** The rate one emulated lane moves at, bytes per second: one fragment per the slower side's time. */
    public static double laneRate(TransferSpec spec) {
        double slower = Math.max(sourceSeconds(spec), sinkSeconds(spec));
        return slower > 0 ? fragmentBytes(spec.operation()) / slower : Double.POSITIVE_INFINITY;
    }
}
