package org.rdmasim.transport.ucx;

import java.util.Comparator;

/**
 * UCX's topology distance from a buffer's device to an HCA: latency and bandwidth
 * ({@code ucs_sys_dev_distance_t}). The hardware package supplies the numbers.
 *
 * <p>Ordering follows {@code ucs_topo_distance_cmp} (openucx/ucx {@code src/ucs/sys/topo/base/topo.h}):
 * lower latency is closer; at equal latency, higher bandwidth is closer. Two distances that compare
 * equal are "equally close", which is what {@code UCX_MAX_HCA_PER_GPU=auto} keys on.
 */
public record HcaDistance(double latencySeconds, double bandwidthBytesPerSecond) {

    /** Closest first. */
    public static final Comparator<HcaDistance> CLOSEST_FIRST = Comparator
            .comparingDouble(HcaDistance::latencySeconds)
            .thenComparing(Comparator.comparingDouble(HcaDistance::bandwidthBytesPerSecond).reversed());

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
