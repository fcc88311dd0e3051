package org.rdmasim.memory;

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
        MemoryInputException.requireNonNegative(latencySeconds, "HCA distance latency");
        if (Double.isNaN(bandwidthBytesPerSecond) || bandwidthBytesPerSecond <= 0) {
            throw new MemoryInputException("HCA distance bandwidth must be > 0 bytes/s (use infinity for "
                    + "'no limit'), got " + bandwidthBytesPerSecond);
        }
    }
}
