package org.rdmasim.memory;

import java.util.List;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.transport.citation.Citation;

/**
 * Cost parameters of registration, each with its default's source. All are overridable.
 *
 * @param pageSize                 translation page size (4 KiB, 64 KiB, 2 MiB ... [linux-mlx5])
 * @param bytesPerTranslationEntry bytes per translation entry; 8 = {@code struct mlx5_mtt} (one
 *                                 big-endian 64-bit address), Linux mlx5 driver [linux-mlx5]
 * @param mkeyContextBytes         mkey context per MR; 64 B (mlx5 driver [linux-mlx5])
 * @param perMrSeconds             fixed cost of one MR; default 16 us = UCX {@code UCX_IB_MEM_REG_OVERHEAD}
 *                                 (openucx/ucx v1.20.0 {@code src/uct/ib/base/ib_md.c} L55-56, marked there
 *                                 "TODO take default from device")
 * @param perByteSeconds           pin-and-map cost per byte of host memory (4 KiB pages); default 0.06 ns =
 *                                 UCX {@code UCX_IB_MEM_REG_GROWTH} (same file), i.e. 0.06 s per decimal GB,
 *                                 UCX's estimate; ofiwg/libfabric #4738 measured more than 20 s for 256 GB of
 *                                 host memory through verbs (at least 0.078 ns/B), the same order. GPU
 *                                 memory: see {@link #perByteSeconds(MemoryType)}
 * @param gpuPerCallSeconds        GPU memory: cost of one registration call whatever its size and HCAs;
 *                                 CALIBRATED, {@link GpuRegistrationCalibration#perCallSeconds()}
 * @param gpuPerByteOnceSeconds    GPU memory: cost per byte paid once per buffer whatever the HCA count;
 *                                 CALIBRATED, {@link GpuRegistrationCalibration#perByteOnceSeconds()}
 * @param gpuPerBytePerMrSeconds   GPU memory: cost per byte of every MR (each HCA maps the pages again);
 *                                 CALIBRATED, {@link GpuRegistrationCalibration#perBytePerMrSeconds()}
 * @param yesKeepsStrictCompanion  whether {@code UCX_IB_PCI_RELAXED_ORDERING=yes} still creates the
 *                                 strict-order companion MR. True in the UCX source we read (ib_md.c
 *                                 makes the second MR whenever relaxed order is enabled); openucx/ucx
 *                                 PR #11649 [ucx-pr-11649] (2026-07, after 1.21, in no release up to
 *                                 1.22.0) makes {@code yes} omit it; set false to follow that.
 */
public record RegistrationParameters(TranslationPageSize pageSize, long bytesPerTranslationEntry, long mkeyContextBytes,
        double perMrSeconds, double perByteSeconds, double gpuPerCallSeconds, double gpuPerByteOnceSeconds,
        double gpuPerBytePerMrSeconds, boolean yesKeepsStrictCompanion) {

    /** The page size an MR maps with unless a scenario or --page-size says otherwise. */
    public static final TranslationPageSize DEFAULT_PAGE_SIZE = TranslationPageSize.KIB_4;
    public static final long MLX5_MTT_ENTRY_BYTES = 8;
    public static final long MLX5_MKEY_CONTEXT_BYTES = 64;
    public static final double UCX_MEM_REG_OVERHEAD_SECONDS = 16e-6;
    public static final double UCX_MEM_REG_GROWTH_SECONDS_PER_BYTE = 0.06e-9;

    public RegistrationParameters {
        if (pageSize == null) {
            throw new MemoryInputException("translation page size is required");
        }
        if (bytesPerTranslationEntry <= 0) {
            throw new MemoryInputException("bytes per translation entry must be > 0, got " + bytesPerTranslationEntry);
        }
        MemoryInputException.requireNonNegative(mkeyContextBytes, "mkey context size");
        MemoryInputException.requireNonNegative(perMrSeconds, "per-MR registration cost");
        MemoryInputException.requireNonNegative(perByteSeconds, "per-byte registration cost");
        MemoryInputException.requireNonNegative(gpuPerCallSeconds, "per-call GPU registration cost");
        MemoryInputException.requireNonNegative(gpuPerByteOnceSeconds, "per-byte GPU registration cost (once)");
        MemoryInputException.requireNonNegative(gpuPerBytePerMrSeconds, "per-byte GPU registration cost (per MR)");
    }

    /** 4 KiB translation pages and the defaults documented on each component. */
    public static RegistrationParameters defaults() {
        return new RegistrationParameters(DEFAULT_PAGE_SIZE, MLX5_MTT_ENTRY_BYTES, MLX5_MKEY_CONTEXT_BYTES,
                UCX_MEM_REG_OVERHEAD_SECONDS, UCX_MEM_REG_GROWTH_SECONDS_PER_BYTE,
                GpuRegistrationCalibration.perCallSeconds(), GpuRegistrationCalibration.perByteOnceSeconds(),
                GpuRegistrationCalibration.perBytePerMrSeconds(), true);
    }

    public RegistrationParameters withPageSizeBytes(long bytes) {
        return new RegistrationParameters(TranslationPageSize.ofBytes(bytes), bytesPerTranslationEntry,
                mkeyContextBytes, perMrSeconds, perByteSeconds, gpuPerCallSeconds, gpuPerByteOnceSeconds,
                gpuPerBytePerMrSeconds, yesKeepsStrictCompanion);
    }

    public RegistrationParameters withCosts(double newPerMrSeconds, double newPerByteSeconds) {
        return new RegistrationParameters(pageSize, bytesPerTranslationEntry, mkeyContextBytes, newPerMrSeconds,
                newPerByteSeconds, gpuPerCallSeconds, gpuPerByteOnceSeconds, gpuPerBytePerMrSeconds,
                yesKeepsStrictCompanion);
    }

    public RegistrationParameters withYesKeepsStrictCompanion(boolean keep) {
        return new RegistrationParameters(pageSize, bytesPerTranslationEntry, mkeyContextBytes, perMrSeconds,
                perByteSeconds, gpuPerCallSeconds, gpuPerByteOnceSeconds, gpuPerBytePerMrSeconds, keep);
    }

    /** GPU memory is mapped for GPUDirect RDMA in 64 KiB GPU pages (NVIDIA GPUDirect RDMA guide, "GPU page"). */
    public static final long GPU_PAGE_BYTES = 64L << 10;
    /** Host memory is pinned in 4 KiB pages (no huge pages assumed). */
    public static final long HOST_PAGE_BYTES = 4L << 10;

    /**
     * Cost per byte of one MR of {@code type}: host memory UCX's own estimate (per 4 KiB page, as UCX
     * states it); GPU memory the CALIBRATED per-MR term of {@link GpuRegistrationCalibration}.
     */
    public double perByteSeconds(org.rdmasim.transport.config.MemoryType type) {
        return type == org.rdmasim.transport.config.MemoryType.CUDA ? gpuPerBytePerMrSeconds : perByteSeconds;
    }

    /**
     * What one registration call of {@code bytes} of {@code type} costs once, whatever the HCA count:
     * for GPU memory the CALIBRATED per-call and per-byte-once terms; host memory has no published
     * measurement to split UCX's per-MR estimate with, so nothing is paid once.
     */
    public double onceSeconds(org.rdmasim.transport.config.MemoryType type, long bytes) {
        return type == org.rdmasim.transport.config.MemoryType.CUDA ? gpuPerCallSeconds + gpuPerByteOnceSeconds * bytes
                : 0.0;
    }

    /**
     * Time to register {@code bytes} of {@code type} in {@code calls} equal registrations (one per tensor,
     * per pool allocation, or one arena), each on {@code hcas} HCAs with {@code mrsPerHca} MRs: the same
     * terms the model prices a scenario's buffers with.
     */
    public double seconds(org.rdmasim.transport.config.MemoryType type, long bytes, int calls, int hcas,
            int mrsPerHca) {
        return seconds(type, bytes, calls, calls, hcas, mrsPerHca);
    }

    /**
     * Time to register {@code bytes} of {@code type} in {@code calls} registration calls that make MRs for
     * {@code allocations} distinct allocations only. UCX registers GPU memory over the whole allocation under
     * the buffer (openucx/ucx v1.21.0 src/ucp/core/ucp_mm.c:1015-1018, MEMTYPE_REG_WHOLE_ALLOC_TYPES=cuda by
     * default, ucp_context.c:169; cuda_copy_md.c:603-622 widens to cuMemGetAddressRange when the allocation is
     * at most a tenth of the GPU) and keeps it in its registration cache, so a second tensor of the same
     * allocation is a cache hit that registers on no HCA: the per-call terms are paid per call, the per-MR
     * terms per allocation on every selected HCA (ucp_mm.c:626-668, one uct_md_mem_reg_v2 per HCA).
     */
    public double seconds(org.rdmasim.transport.config.MemoryType type, long bytes, int calls, int allocations,
            int hcas, int mrsPerHca) {
        if (calls < 1 || allocations < 1 || allocations > calls || hcas < 0 || mrsPerHca < 1) {
            throw new MemoryInputException("registration needs at least one call, between one allocation and one "
                    + "per call, and one MR per HCA, got " + calls + " calls, " + allocations + " allocations, "
                    + hcas + " HCAs, " + mrsPerHca + " MRs per HCA");
        }
        if (hcas == 0) {
            return 0.0;
        }
        double once = (type == org.rdmasim.transport.config.MemoryType.CUDA ? gpuPerCallSeconds * calls
                + gpuPerByteOnceSeconds * bytes : 0.0);
        return once + (double) hcas * mrsPerHca * (allocations * perMrSeconds + perByteSeconds(type) * bytes);
    }

    /** Pin-and-map cost per decimal GB (1e9 bytes) of host memory. */
    public double perGigabyteSeconds() {
        return perByteSeconds * ByteUnits.GB;
    }

    /** Where UCX sets its registration-cost defaults (a line further down at v1.21.0 and v1.22.0). */
    private static final Citation UCX_MEM_REG_OVERHEAD = Citation.parse(
            "openucx/ucx v1.20.0 src/uct/ib/base/ib_md.c:55-56 uct_ib_md_config_table");
    private static final Citation UCX_MEM_REG_GROWTH = UCX_MEM_REG_OVERHEAD.at(58, 59, "uct_ib_md_config_table");

    /**
     * One registration-time term as a report states it: what it is, its value with its unit, whether it is
     * calibrated or assumed, and its source.
     *
     * @param parameter what the term prices, e.g. {@code registration: GPU memory, per registration call}
     * @param value     its value with its unit, e.g. {@code 0.2 ms}
     */
    public record Term(String parameter, String value, CalibrationProfile.Kind kind, String source) {
        /** The term and its value, as one phrase: {@code registration: per MR = 16.0 us}. */
        public String what() {
            return parameter + " = " + value;
        }
    }

    /**
     * The registration-time terms a run's answer rests on: the GPU-memory terms when it registers GPU memory,
     * the host-memory one when it registers host memory, and the per-MR estimate whenever it registers.
     */
    public List<Term> terms(boolean gpuMemory, boolean hostMemory) {
        List<Term> out = new java.util.ArrayList<>();
        if (gpuMemory) {
            out.add(new Term("registration: GPU memory, per registration call", milliseconds(gpuPerCallSeconds * 1e3),
                    CalibrationProfile.Kind.CALIBRATED,
                    "ai-dynamo/modelexpress PR #267 [mx-pr-267], target register_tensors 107 ms with 339 registrations "
                            + "vs 51 ms with 59 over the same 59 allocations (the extra calls hit UCX's cache)"));
            out.add(new Term("registration: GPU memory, per GB once per buffer", milliseconds(gpuPerByteOnceSeconds
                    * 1e12), CalibrationProfile.Kind.CALIBRATED, "ai-dynamo/modelexpress PR #450 [mx-pr-450], 4-NIC GB200, "
                            + "290 tensors, 8.04 GB: 0.151 s on one HCA, less the per-call and per-MR terms"));
            out.add(new Term("registration: GPU memory, per GB per MR", milliseconds(gpuPerBytePerMrSeconds * 1e12),
                    CalibrationProfile.Kind.CALIBRATED,
                    "ai-dynamo/modelexpress PR #450 [mx-pr-450]: 0.331 s on four HCAs against 0.151 s on one"));
        }
        if (hostMemory) {
            out.add(new Term("registration: host memory, per GB per MR", milliseconds(perByteSeconds * 1e12),
                    CalibrationProfile.Kind.ASSUMED,
                    "UCX's own estimate UCX_IB_MEM_REG_GROWTH (" + UCX_MEM_REG_GROWTH + "); ofiwg/libfabric "
                            + "#4738 measured more than 20 s for 256 GB, the same order"));
        }
        if (gpuMemory || hostMemory) {
            out.add(new Term("registration: per MR", String.format(java.util.Locale.ROOT, "%.3g us",
                    perMrSeconds * 1e6),
                    CalibrationProfile.Kind.ASSUMED, "UCX's own estimate UCX_IB_MEM_REG_OVERHEAD, which UCX marks "
                            + "'TODO take default from device' (" + UCX_MEM_REG_OVERHEAD + ")"));
        }
        return out;
    }

    /** {@code ms} milliseconds (a per-GB term: per 1e9 bytes), three significant figures, as the terms write them. */
    private static String milliseconds(double ms) {
        return String.format(java.util.Locale.ROOT, "%.3g ms", ms);
    }

    /** What the registration model assumes beyond its cited sources. */
    public static List<String> assumptions() {
        return List.of(
                "ASSUMPTION: firmware (ICM) host memory per MR = translation entries x 8 B + 64 B mkey context; "
                        + "ICM page rounding, MPT/QP/CQ contexts and the firmware's own pages are not counted",
                "ASSUMPTION: every MR of a buffer (default and strict-order companion) maps the whole buffer "
                        + "with the configured translation page size; the driver may pick larger pages for "
                        + "contiguous memory, which would shrink translation bytes",
                "ASSUMPTION: every MR costs UCX's own estimate of 16 us (ib_md.c MEM_REG_OVERHEAD); host memory "
                        + "costs 0.06 ns/byte per MR (UCX's MEM_REG_GROWTH; libfabric #4738 measured >20 s for 256 "
                        + "GB, the same order) and nothing once per buffer",
                "CALIBRATED: GPU memory costs 0.2 ms per registration call (ModelExpress PR #267, target "
                        + "side: 107 ms / 339 calls vs 51 ms / 59 over the same 59 allocations), 4.10 ms per GB "
                        + "once per buffer and 3.15 ms "
                        + "per GB per MR (ModelExpress PR #450: 0.151 s on one HCA, 0.331 s on four, 290 "
                        + "tensors, 8.04 GB); those rows are calibration rows in validate",
                "ASSUMPTION: a host buffer's own pages are pinned once however many MRs cover it; GPU memory "
                        + "pins no host pages");
    }
}
