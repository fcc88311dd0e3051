package org.rdmasim.refit.method;

import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.HostSpec;

/**
 * The two on-GPU rates the refit stages need, DERIVED from NVIDIA datasheets: HBM bandwidth (a
 * memory-bound kernel, a cast, a quantisation or a device-to-device copy, reads and writes every byte
 * once, so it runs at best at this rate: the roofline's memory bound) and NVLink bandwidth per
 * direction (NVLink count of the host preset times the per-link rate of the GPU's NVLink generation).
 *
 * <p>Peak figures: an achieved fraction below 1 is not modelled (no public measurement of a refit's
 * conversion kernel isolates it), so the stages they price are lower bounds.
 */
public final class GpuRates {
    private GpuRates() {
    }

    /**
     * HBM bandwidth, bytes per second: T4 320 GB/s (NVIDIA T4 datasheet), A100 SXM4 80GB 2,039 GB/s
     * (NVIDIA A100 datasheet), H100 SXM5 3.35 TB/s (NVIDIA H100 datasheet), H200 4.8 TB/s (NVIDIA H200
     * product page), B200 and B300 8 TB/s (NVIDIA DGX B200 / GB300 NVL72 specifications, per GPU).
     */
    public static double hbmBytesPerSecond(GpuModel model) {
        return switch (model) {
            case T4 -> 320e9;
            case A100 -> 2039e9;
            case H100 -> 3.35e12;
            case H200 -> 4.8e12;
            case B200, GB300 -> 8e12;
        };
    }

    /**
     * NVLink bandwidth of one link, one direction, bytes per second: NVLink 3 (A100, 12 links, 600 GB/s
     * bidirectional) and NVLink 4 (H100/H200, 18 links, 900 GB/s) 25 GB/s; NVLink 5 (B200/B300, 18 links,
     * 1.8 TB/s) 50 GB/s (NVIDIA NVLink product page, per-GPU totals divided by links and directions). T4
     * has none.
     */
    public static double nvlinkPerLinkBytesPerSecond(GpuModel model) {
        return switch (model) {
            case T4 -> 0;
            case A100, H100, H200 -> 25e9;
            case B200, GB300 -> 50e9;
        };
    }

    /** One direction of a GPU's NVLink ports: links on the host preset times the per-link rate; 0 without NVLink. */
    public static double nvlinkBytesPerSecond(HostSpec.GpuSpec gpu) {
        return gpu.nvlinks() * nvlinkPerLinkBytesPerSecond(gpu.model());
    }
}
