package org.rdmasim.memory;

import java.util.List;

/**
 * Cost parameters of registration, each with its default's source. All are overridable.
 *
 * @param pageSize                 translation page size (4 KiB, 64 KiB, 2 MiB ... [linux-mlx5])
 * @param bytesPerTranslationEntry bytes per translation entry; 8 = {@code struct mlx5_mtt} (one
 *                                 big-endian 64-bit address), Linux mlx5 driver [linux-mlx5]
 * @param mkeyContextBytes         mkey context per MR; 64 B (mlx5 driver [linux-mlx5])
 * @param perMrSeconds             fixed cost of one MR; default 16 us = UCX {@code UCX_IB_MEM_REG_OVERHEAD}
 *                                 (openucx/ucx {@code src/uct/ib/base/ib_md.c}, marked there
 *                                 "TODO take default from device")
 * @param perByteSeconds           pin-and-map cost per byte of host memory (4 KiB pages); default 0.06 ns =
 *                                 UCX {@code UCX_IB_MEM_REG_GROWTH} (same file), i.e. 0.06 s per decimal GB,
 *                                 UCX's estimate; ofiwg/libfabric #4738 measured more than 20 s for 256 GB of
 *                                 host memory through verbs (at least 0.078 ns/B), the same order. GPU
 *                                 memory: see {@link #perByteSeconds(MemoryType)}
 * @param yesKeepsStrictCompanion  whether {@code UCX_IB_PCI_RELAXED_ORDERING=yes} still creates the
 *                                 strict-order companion MR. True in the UCX source we read (ib_md.c
 *                                 makes the second MR whenever relaxed order is enabled); openucx/ucx
 *                                 PR #11649 [ucx-pr-11649] (2026-07, after 1.21, in no release up to
 *                                 1.22.0) makes {@code yes} omit it; set false to follow that.
 */
public record RegistrationParameters(TranslationPageSize pageSize, long bytesPerTranslationEntry, long mkeyContextBytes,
        double perMrSeconds, double perByteSeconds, boolean yesKeepsStrictCompanion) {

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
    }

    /** 4 KiB translation pages and the defaults documented on each component. */
    public static RegistrationParameters defaults() {
        return new RegistrationParameters(TranslationPageSize.KIB_4, MLX5_MTT_ENTRY_BYTES, MLX5_MKEY_CONTEXT_BYTES,
                UCX_MEM_REG_OVERHEAD_SECONDS, UCX_MEM_REG_GROWTH_SECONDS_PER_BYTE, true);
    }

    public RegistrationParameters withPageSizeBytes(long bytes) {
        return new RegistrationParameters(TranslationPageSize.ofBytes(bytes), bytesPerTranslationEntry,
                mkeyContextBytes, perMrSeconds, perByteSeconds, yesKeepsStrictCompanion);
    }

    public RegistrationParameters withCosts(double newPerMrSeconds, double newPerByteSeconds) {
        return new RegistrationParameters(pageSize, bytesPerTranslationEntry, mkeyContextBytes, newPerMrSeconds,
                newPerByteSeconds, yesKeepsStrictCompanion);
    }

    public RegistrationParameters withYesKeepsStrictCompanion(boolean keep) {
        return new RegistrationParameters(pageSize, bytesPerTranslationEntry, mkeyContextBytes, perMrSeconds,
                perByteSeconds, keep);
    }

    /** GPU memory is mapped for GPUDirect RDMA in 64 KiB GPU pages (NVIDIA GPUDirect RDMA guide, "GPU page"). */
    public static final long GPU_PAGE_BYTES = 64L << 10;
    /** Host memory is pinned in 4 KiB pages (no huge pages assumed). */
    public static final long HOST_PAGE_BYTES = 4L << 10;

    /**
     * Pin-and-map cost per byte of {@code type}. No published GPU-memory registration time was found.
     * ASSUMPTION: registration costs the same per page for GPU and host memory, and GPU memory comes in
     * 64 KiB pages against host memory's 4 KiB, so a CUDA byte costs 1/16 of a host byte. Without it
     * (GPU priced as host memory, as rdmasim did before) a GPU buffer takes 16x longer to register.
     */
    public double perByteSeconds(org.rdmasim.transport.config.MemoryType type) {
        return type == org.rdmasim.transport.config.MemoryType.CUDA ? perByteSeconds * HOST_PAGE_BYTES / GPU_PAGE_BYTES
                : perByteSeconds;
    }

    /** Pin-and-map cost per decimal GB (1e9 bytes) of host memory. */
    public double perGigabyteSeconds() {
        return perByteSeconds * ByteUnits.GB;
    }

    /** What the registration model assumes beyond its cited sources. */
    public static List<String> assumptions() {
        return List.of(
                "ASSUMPTION: firmware (ICM) host memory per MR = translation entries x 8 B + 64 B mkey context; "
                        + "ICM page rounding, MPT/QP/CQ contexts and the firmware's own pages are not counted",
                "ASSUMPTION: every MR of a buffer (default and strict-order companion) maps the whole buffer "
                        + "with the configured translation page size; the driver may pick larger pages for "
                        + "contiguous memory, which would shrink translation bytes",
                "ASSUMPTION: registration time = sum over MRs of (16 us + per-byte cost x length): host memory "
                        + "0.06 ns/byte (UCX's own estimate, ib_md.c MEM_REG_GROWTH; libfabric #4738 measured "
                        + ">20 s for 256 GB, the same order); GPU memory 1/16 of that, assuming the same cost "
                        + "per page and 64 KiB GPU pages (no published GPU registration time was found)",
                "ASSUMPTION: a host buffer's own pages are pinned once however many MRs cover it; GPU memory "
                        + "pins no host pages",
                "ASSUMPTION: UCX_MAX_HCA_PER_GPU=auto keeps every HCA at the minimum distance (PR #11422 "
                        + "description, code not read); host buffers bypass the policy");
    }
}
