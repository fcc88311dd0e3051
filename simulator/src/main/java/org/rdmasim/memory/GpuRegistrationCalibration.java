package org.rdmasim.memory;

/**
 * Where the GPU-memory registration-time terms come from: two published ModelExpress measurements,
 * fitted here by arithmetic that a reader can redo. Every term is CALIBRATED, not derived; the rows it
 * was fitted to are calibration rows in {@code validate}, and other rows validate it.
 *
 * <p>The model of one registration call (one tensor, one pool allocation or one arena) over {@code h}
 * HCAs with {@code m} MRs each (2 when relaxed ordering adds the strict-order companion) is
 * <pre>
 *   t = perCall + bytes x perByteOnce + h x m x (perMr + bytes x perBytePerMr)
 * </pre>
 * {@code perMr} is UCX's own estimate {@code UCX_IB_MEM_REG_OVERHEAD} = 16 us (openucx/ucx
 * {@code src/uct/ib/base/ib_md.c}), an assumption; the other three are fitted:
 * <ul>
 * <li>{@code perCall}: ai-dynamo/modelexpress PR #267 [mx-pr-267], target side, Qwen3-0.6B on a B200,
 * {@code register_tensors} 107 ms with 339 registrations and 51 ms with 59 ({@code MX_POOL_REG=1}): the
 * same bytes, so (107 - 51) ms / 280 = 0.2 ms per registration, of which one HCA's two MRs at 16 us
 * are taken off (posed: one HCA per GPU, as {@code UCX_MAX_HCA_PER_GPU=auto} keeps on a one-NIC-per-GPU
 * host; the PR does not state the NIC count). The source side of the same table (180 / 56 ms) gives
 * 0.44 ms and is left to validate.</li>
 * <li>{@code perBytePerMr}: ai-dynamo/modelexpress PR #450 [mx-pr-450], comment of 2026-06-23, 4-NIC
 * GB200, 290 tensors, 8.04 GB: registration 0.151 s with one NIC and 0.331 s with four. Three more
 * HCAs (2 MRs each on that host, NIXL's relaxed ordering {@code try}) cost 0.180 s.</li>
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
    /** Posed for [mx-pr-267] (not stated there): one HCA per registration, two MRs on it. */
    public static final int MX267_POSED_MRS = 2;

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

    /** Seconds per registration call, whatever its size and HCAs: 0.168 ms. */
    public static double perCallSeconds() {
        double slope = (MX267_TARGET_PER_TENSOR_SECONDS - MX267_TARGET_POOLED_SECONDS)
                / (MX267_PER_TENSOR_CALLS - MX267_POOLED_CALLS);
        return slope - MX267_POSED_MRS * PER_MR_SECONDS;
    }

    /** Seconds per byte per MR (each HCA maps the pages again): about 3.15 ps, 3.15 ms per GB. */
    public static double perBytePerMrSeconds() {
        double perExtraMrs = (MX450_FOUR_HCA_SECONDS - MX450_ONE_HCA_SECONDS) / (3.0 * MX450_MRS_PER_HCA);
        return (perExtraMrs - MX450_CALLS * PER_MR_SECONDS) / MX450_BYTES;
    }

    /** Seconds per byte paid once per buffer, whatever the HCA count: about 5.26 ps, 5.26 ms per GB. */
    public static double perByteOnceSeconds() {
        double oneHca = MX450_MRS_PER_HCA * (MX450_CALLS * PER_MR_SECONDS + MX450_BYTES * perBytePerMrSeconds());
        return (MX450_ONE_HCA_SECONDS - MX450_CALLS * perCallSeconds() - oneHca) / MX450_BYTES;
    }
}
