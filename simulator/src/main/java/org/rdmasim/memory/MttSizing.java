package org.rdmasim.memory;

/**
 * How much memory an mlx4-driven HCA can register, from its memory translation table (MTT) size.
 *
 * <p>The Linux Cluster's MTT note [linuxcluster-mtt] (and Open MPI's FAQ):
 * {@code max_reg_mem = 2^log_num_mtt * 2^log_mtts_per_seg * PAGE_SIZE}, or with the older parameter
 * {@code num_mtt * 2^log_mtts_per_seg * PAGE_SIZE}. Open MPI's openib BTL ({@code btl_openib.c})
 * computes the same product from {@code /sys/module/mlx4_core/parameters}.
 *
 * <p>Defaults, Linux {@code drivers/net/ethernet/mellanox/mlx4/main.c}: {@code default_profile.num_mtt =
 * 1 << 20} (so log_num_mtt 20) and {@code log_mtts_per_seg = ilog2(MLX4_MTT_ENTRY_PER_SEG)} with
 * {@code MLX4_MTT_ENTRY_PER_SEG = 8} ({@code mlx4.h}), so 3. With 4 KiB pages:
 * 2^20 * 2^3 * 2^12 = 2^35 = 32 GiB = 32768 MiB, the "Registerable memory: 32768 MiB" in [linuxcluster-mtt]'s
 * warning on a 65476 MiB host. (Later kernels scale the MTT with RAM when log_num_mtt is left at 0:
 * "mlx4: Scale size of MTT table with system RAM".)
 */
public final class MttSizing {

    public static final int MLX4_DEFAULT_LOG_NUM_MTT = 20;
    public static final int MLX4_DEFAULT_LOG_MTTS_PER_SEG = 3;

    private MttSizing() {
    }

    /** {@code 2^logNumMtt * 2^logMttsPerSeg * pageSize}. */
    public static long maxRegisterableBytes(int logNumMtt, int logMttsPerSeg, long pageSizeBytes) {
        checkLog(logNumMtt, "log_num_mtt");
        checkLog(logMttsPerSeg, "log_mtts_per_seg");
        return fitOrThrow(Math.scalb(1.0, logNumMtt + logMttsPerSeg), pageSizeBytes(pageSizeBytes));
    }

    /** Older form: {@code numMtt * 2^logMttsPerSeg * pageSize}. */
    public static long maxRegisterableBytesFromNumMtt(long numMtt, int logMttsPerSeg, long pageSizeBytes) {
        MemoryInputException.requireNonNegative(numMtt, "num_mtt");
        checkLog(logMttsPerSeg, "log_mtts_per_seg");
        return Math.multiplyExact(Math.multiplyExact(numMtt, 1L << logMttsPerSeg), pageSizeBytes(pageSizeBytes));
    }

    /**
     * Smallest log_num_mtt that lets the HCA register {@code factor} times {@code physicalMemoryBytes}.
     * [linuxcluster-mtt]'s example: 64 GiB, factor 2, log_mtts_per_seg 3, 4 KiB pages: 2^37 / 2^3 / 2^12 = 2^22, so 22.
     */
    public static int smallestLogNumMtt(long physicalMemoryBytes, double factor, int logMttsPerSeg, long pageSizeBytes) {
        MemoryInputException.requireNonNegative(physicalMemoryBytes, "physical memory");
        MemoryInputException.requireNonNegative(factor, "registration factor");
        checkLog(logMttsPerSeg, "log_mtts_per_seg");
        long page = pageSizeBytes(pageSizeBytes);
        double target = factor * (double) physicalMemoryBytes;
        double segmentBytes = (double) (1L << logMttsPerSeg) * page;
        int log = 0;
        while (Math.scalb(segmentBytes, log) < target) {
            log++;
        }
        return log;
    }

    /** Open MPI warns when registerable memory is below 3/4 of physical memory ({@code btl_openib.c}). */
    public static boolean openMpiWarns(long registerableBytes, long totalMemoryBytes) {
        MemoryInputException.requireNonNegative(registerableBytes, "registerable memory");
        MemoryInputException.requireNonNegative(totalMemoryBytes, "total memory");
        // floor(3 * total / 4) without overflowing: total = 4q + r gives 3q + floor(3r / 4).
        long threeQuarters = totalMemoryBytes / 4 * 3 + (totalMemoryBytes % 4) * 3 / 4;
        return registerableBytes < threeQuarters;
    }

    private static long pageSizeBytes(long pageSizeBytes) {
        if (pageSizeBytes <= 0 || Long.bitCount(pageSizeBytes) != 1) {
            throw new MemoryInputException("page size must be a positive power of two, got " + pageSizeBytes);
        }
        return pageSizeBytes;
    }

    private static void checkLog(int value, String what) {
        if (value < 0 || value > 40) {
            throw new MemoryInputException(what + " must be between 0 and 40, got " + value);
        }
    }

    private static long fitOrThrow(double units, long pageSizeBytes) {
        double bytes = units * pageSizeBytes;
        if (bytes >= Math.scalb(1.0, 63)) {
            throw new MemoryInputException("registerable memory overflows 2^63 bytes");
        }
        return (long) bytes;
    }
}
