package org.rdmasim.memory;

/**
 * Where the GPU-memory registration-time terms come from: two published ModelExpress measurements,
 * fitted here by arithmetic that a reader can redo. Every term is CALIBRATED, not derived; the rows it
 * was fitted to are calibration rows in {@code validate}, and other rows validate it.
 *
 * <p>The model of {@code c} registration calls over {@code a} allocations, on {@code h} HCAs with {@code m}
 * MRs each (2 when relaxed ordering adds the strict-order companion), is
 * <pre>
 *   t = c x perCall + bytes x perByteOnce + h x m x (a x perMr + bytes x perBytePerMr)
 * </pre>
 * UCX registers GPU memory over the whole allocation under a buffer and keeps it in its registration cache
 * (openucx/ucx v1.21.0 src/ucp/core/ucp_mm.c:1015-1018, src/uct/cuda/cuda_copy/cuda_copy_md.c:603-622), so a
 * second tensor of an allocation is a cache hit that makes no MR; each allocation is registered once per
 * selected HCA (ucp_mm.c:626-668) after one dma-buf query for all of them (ucp_mm.c:592-623).
 * {@code perMr} is UCX's own estimate {@code UCX_IB_MEM_REG_OVERHEAD} = 16 us (openucx/ucx
 * {@code src/uct/ib/base/ib_md.c}), an assumption; the other three are fitted:
 * <ul>
 * <li>{@code perCall}: ai-dynamo/modelexpress PR #267 [mx-pr-267], target side, Qwen3-0.6B on a B200,
 * {@code register_tensors} 107 ms with 339 registrations and 51 ms with 59 ({@code MX_POOL_REG=1}, one per
 * allocation found): the same 59 allocations and bytes, so (107 - 51) ms / 280 = 0.2 ms is what a call costs
 * when it makes no MR, whatever the HCA count. The source side of the same table (180 / 56 ms) is left to
 * validate.</li>
 * <li>{@code perBytePerMr}: ai-dynamo/modelexpress PR #450 [mx-pr-450], comment of 2026-06-23, 4-NIC
 * GB200, 290 tensors, 8.04 GB: registration 0.151 s with one NIC and 0.331 s with four. Three more
 * HCAs (2 MRs each on that host, NIXL's relaxed ordering {@code try}) cost 0.180 s. Posed: each of the 290
 * tensors its own allocation (the PR does not count allocations; Qwen3-4B's large tensors each get their own
 * segment, its norms share some, so fewer allocations would leave more of the 0.180 s to the bytes).</li>
 * <li>{@code perByteOnce}: the rest of the same 0.151 s once the 290 calls and one HCA's MRs are
 * counted: the part of a registration paid once per buffer, whatever the HCA count.</li>
 * </ul>
 */
public final class GpuRegistrationCalibration {

    /** UCX's per-MR estimate (ib_md.c {@code MEM_REG_OVERHEAD}): ASSUMED, not measured. */
    public static final double PER_MR_SECONDS = RegistrationParameters.UCX_MEM_REG_OVERHEAD_SECONDS;

    /** [mx-pr-267] target {@code register_tensors}: 107 ms, 339 registrations (per tensor). */
    public static final double MX267_TARGET_PER_TENSOR_SECONDS = 0.107;
    public static final int MX267_PER_TENSOR_CALLS = 339;
    /** [mx-pr-267] target with {@code MX_POOL_REG=1}: 51 ms, 59 registrations. */
    public static final double MX267_TARGET_POOLED_SECONDS = 0.051;
    public static final int MX267_POOLED_CALLS = 59;

    /** [mx-pr-450] one NIC pinned: register 0.151 s (receiver, cycle 1). */
    public static final double MX450_ONE_HCA_SECONDS = 0.151;
    /** [mx-pr-450] four NICs listed: register 0.331 s. */
    public static final double MX450_FOUR_HCA_SECONDS = 0.331;
    /** [mx-pr-450] 290 source tensors, 8.04 GB in total. */
    public static final int MX450_CALLS = 290;
    public static final long MX450_BYTES = 8_040_000_000L;
    /** MRs per HCA on the GB200 of [mx-pr-450] in rdmasim: NIXL 1.1's relaxed ordering 'try' gives two. */
    public static final int MX450_MRS_PER_HCA = 2;

    private GpuRegistrationCalibration() {
    }

    /**
     * Seconds per registration call, whatever its size and HCAs: 0.2 ms. The two modes register the same
     * {@value #MX267_POOLED_CALLS} allocations, so the extra calls make no MR and their slope is the call alone.
     */
    public static double perCallSeconds() {
        return (MX267_TARGET_PER_TENSOR_SECONDS - MX267_TARGET_POOLED_SECONDS)
                / (MX267_PER_TENSOR_CALLS - MX267_POOLED_CALLS);
    }

    /** Seconds per byte per MR (each HCA maps the pages again): about 3.15 ps, 3.15 ms per GB. */
    public static double perBytePerMrSeconds() {
        double perExtraMrs = (MX450_FOUR_HCA_SECONDS - MX450_ONE_HCA_SECONDS) / (3.0 * MX450_MRS_PER_HCA);
        return (perExtraMrs - MX450_CALLS * PER_MR_SECONDS) / MX450_BYTES;
    }

    /** Seconds per byte paid once per buffer, whatever the HCA count: about 4.10 ps, 4.10 ms per GB. */
    public static double perByteOnceSeconds() {
        double oneHca = MX450_MRS_PER_HCA * (MX450_CALLS * PER_MR_SECONDS + MX450_BYTES * perBytePerMrSeconds());
        return (MX450_ONE_HCA_SECONDS - MX450_CALLS * perCallSeconds() - oneHca) / MX450_BYTES;
    }
}
