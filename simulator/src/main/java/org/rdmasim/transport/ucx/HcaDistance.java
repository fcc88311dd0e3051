package org.rdmasim.transport.ucx;

import java.util.Comparator;

/**
 * UCX's topology distance from a buffer's device to an HCA: latency and bandwidth
 * ({@code ucs_sys_dev_distance_t}). The hardware package supplies the numbers.
 *
 * <p>Ordering follows {@code ucs_topo_distance_cmp} (openucx/ucx v1.21.0 {@code src/ucs/sys/topo/base/topo.c}
 * L679-690, the release that brought {@code UCX_MAX_HCA_PER_GPU}): lower latency is closer; at equal latency,
 * higher bandwidth is closer; each compared with {@code ucs_fp_compare} ({@code src/ucs/sys/math.h} L68-86), which
 * takes two values within a millionth of their sum as equal. Two distances that compare equal are "equally
 * close", which is what {@code UCX_MAX_HCA_PER_GPU=auto} keys on.
 */
public record HcaDistance(double latencySeconds, double bandwidthBytesPerSecond) {

    /** Closest first. */
    public static final Comparator<HcaDistance> CLOSEST_FIRST = (a, b) -> {
        int latency = fpCompare(a.latencySeconds, b.latencySeconds);
        return latency != 0 ? latency : fpCompare(b.bandwidthBytesPerSecond, a.bandwidthBytesPerSecond);
    };

    /**
     * {@code ucs_fp_compare}: 0 when the two differ by less than {@code (a + b) * 1e-6}, else the sign of
     * {@code a - b}. Two infinities (no bandwidth limit) compare equal, as in C, where their difference is NaN.
     */
    static int fpCompare(double a, double b) {
        double diff = a - b;
        if (Double.isNaN(diff) || Math.abs(diff) < (a + b) * 1e-6) {
            return 0;
        }
        return diff < 0 ? -1 : diff > 0 ? 1 : 0;
    }

    public HcaDistance {
        if (Double.isNaN(latencySeconds) || latencySeconds < 0) {
            throw new IllegalArgumentException("HCA distance latency must be >= 0 s, got " + latencySeconds);
        }
        if (Double.isNaN(bandwidthBytesPerSecond) || bandwidthBytesPerSecond <= 0) {
            throw new IllegalArgumentException("HCA distance bandwidth must be > 0 bytes/s (use infinity for "
                    + "'no limit'), got " + bandwidthBytesPerSecond);
        }
    }
}
