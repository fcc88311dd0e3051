package org.rdmasim.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.rdmasim.transport.config.MemoryType;

/**
 * The lines the real stack prints when a registration fails, with the figures filled in, so a
 * simulated failure can be held beside a real log. Lines starting with "rdmasim:" are ours.
 */
public final class RegistrationErrorText {

    /** strerror(EAGAIN): what a firmware page cap returns ([crusoe-kb-nixl]). */
    public static final String EAGAIN = "Resource temporarily unavailable";
    /** strerror(ENOMEM). */
    public static final String ENOMEM = "Cannot allocate memory";

    /**
     * {@code UCT_IB_MEM_ACCESS_FLAGS}: local write | remote write | remote read | remote atomic
     * (openucx/ucx {@code src/uct/ib/base/ib_md.c}).
     */
    static final long UCT_IB_MEM_ACCESS_FLAGS = 0xfL;
    /**
     * rdma-core {@code IBV_ACCESS_RELAXED_ORDERING} = {@code IBV_ACCESS_OPTIONAL_FIRST} = 1 << 20;
     * Crusoe's logged {@code access=0x10000f} [crusoe-kb-nixl] is exactly the default flags plus this bit.
     */
    static final long IBV_ACCESS_RELAXED_ORDERING = 1L << 20;

    private RegistrationErrorText() {
    }

    /** glibc's {@code %p}: lower-case hex with 0x, "(nil)" for a null pointer. */
    static String pointer(long address) {
        return address == 0 ? "(nil)" : "0x" + Long.toHexString(address);
    }

    /** Access flags UCX passes for the default MR (relaxed when enabled) or the strict companion. */
    public static long accessFlags(boolean relaxedMr) {
        return UCT_IB_MEM_ACCESS_FLAGS | (relaxedMr ? IBV_ACCESS_RELAXED_ORDERING : 0);
    }

    /**
     * {@code uct_ib_md_print_mem_reg_err_msg} (ib_md.c): "%s(address=%p, length=%zu, access=0x%lx)
     * failed: %s", logged at ERROR level ("UCX  ERROR "). dma-buf GPU memory uses
     * {@code ibv_reg_dmabuf_mr}, everything else {@code ibv_reg_mr}.
     */
    public static String ucxVerbsFailure(MemoryRegion region, boolean relaxedMr, String strerror) {
        String verb = region.type() == MemoryType.CUDA && region.usesDmabuf() ? "ibv_reg_dmabuf_mr" : "ibv_reg_mr";
        return String.format(Locale.ROOT, "UCX  ERROR %s(address=%s, length=%d, access=0x%x) failed: %s", verb,
                pointer(region.address()), region.sizeBytes(), accessFlags(relaxedMr), strerror);
    }

    /**
     * {@code ucp_memh_register_log_fail} (openucx/ucx {@code src/ucp/core/ucp_mm.c}): "failed to register
     * address %p (%s) length %zu[ dmabuf_fd %d] on md[%d]=%s: %s (md supports: ...)". The UCT layer
     * turns any verbs failure into {@code UCS_ERR_IO_ERROR}, "Input/output error".
     */
    public static String ucpRegisterFailure(MemoryRegion region, HcaCandidate hca) {
        StringBuilder line = new StringBuilder("UCX  ERROR failed to register address ")
                .append(pointer(region.address())).append(" (").append(region.type().ucxName()).append(") length ")
                .append(region.sizeBytes());
        if (region.usesDmabuf()) {
            line.append(" dmabuf_fd ").append(region.dmabufFd());
        }
        line.append(" on md[").append(hca.mdIndex()).append("]=").append(hca.name())
                .append(": Input/output error (md supports: ").append(hca.regMemTypes()).append(")");
        return line.toString();
    }

    /** What NIXL's UCX backend and agent print after {@code ucp_mem_map} fails ([crusoe-kb-nixl]). */
    public static List<String> nixlFailure() {
        return List.of(
                "Failed to ucp_mem_map: Input/output error",
                "registerMem: registration failed for the specified or all potential backends",
                "nixlBackendError: NIXL_ERR_BACKEND");
    }

    /** The full UCX + NIXL sequence for one failed MR. */
    public static List<String> registrationFailure(MemoryRegion region, HcaCandidate hca, boolean relaxedMr,
            String strerror) {
        List<String> lines = new ArrayList<>();
        lines.add(ucxVerbsFailure(region, relaxedMr, strerror));
        lines.add(ucpRegisterFailure(region, hca));
        lines.addAll(nixlFailure());
        return List.copyOf(lines);
    }

    /**
     * Open MPI's "reg mem limit low" help text ({@code help-mpi-btl-openib.txt}), printed by the openib
     * BTL ({@code btl_openib.c}) when registerable memory is below 3/4 of physical memory; figures are
     * bytes shifted right by 20 (MiB, rounded down). Key lines only.
     */
    public static List<String> openMpiRegMemLimitLow(String localHost, long registerableBytes, long totalMemoryBytes) {
        return List.of(
                "WARNING: It appears that your OpenFabrics subsystem is configured to only",
                "allow registering part of your physical memory.  This can cause MPI jobs to",
                "run with erratic performance, hang, and/or crash.",
                "  Local host:              " + localHost,
                "  Registerable memory:     " + (registerableBytes >> 20) + " MiB",
                "  Total memory:            " + (totalMemoryBytes >> 20) + " MiB",
                "Your MPI job will continue, but may be behave poorly and/or hang.");
    }
}
