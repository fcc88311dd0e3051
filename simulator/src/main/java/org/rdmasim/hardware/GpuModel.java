package org.rdmasim.hardware;

import java.util.Locale;

/**
 * GPU products with the figures the model uses. HBM sizes are what {@code nvidia-smi} reports;
 * H200's 139.80 GiB is the figure measured in NVIDIA/nccl PR #2064 [nccl-pr-2064], GB300's ~279 GiB
 * likewise. BAR1 is the window through which a NIC reaches GPU memory for GPUDirect RDMA (NVIDIA's
 * GPUDirect RDMA documentation, "PCI BAR sizes" [nvidia-gdr-doc]); data-centre Hopper and Blackwell
 * parts expose a BAR1 at least as large as their memory, the T4 only 256 MiB.
 */
public enum GpuModel {
    T4("T4", 15.0 * Units.GIB, 256L << 20, PcieGen.GEN3),
    A100("A100-SXM4-80GB", 80.0 * Units.GIB, 128L << 30, PcieGen.GEN4),
    H100("H100-SXM5-80GB", 79.65 * Units.GIB, 128L << 30, PcieGen.GEN5),
    H200("H200-SXM-141GB", 139.80 * Units.GIB, 256L << 30, PcieGen.GEN5),
    B200("B200", 179.0 * Units.GIB, 256L << 30, PcieGen.GEN5),
    GB300("B300 (GB300)", 279.0 * Units.GIB, 512L << 30, PcieGen.GEN6);

    private final String product;
    private final long hbmBytes;
    private final long bar1Bytes;
    private final PcieGen pcieGen;

    GpuModel(String product, double hbmBytes, long bar1Bytes, PcieGen pcieGen) {
        this.product = product;
        this.hbmBytes = Math.round(hbmBytes);
        this.bar1Bytes = bar1Bytes;
        this.pcieGen = pcieGen;
    }

    public String product() {
        return product;
    }

    public long hbmBytes() {
        return hbmBytes;
    }

    public long bar1Bytes() {
        return bar1Bytes;
    }

    /**
     * NVLink ports of the part: A100 SXM4 12 (NVLink 3, 600 GB/s), H100 and H200 SXM 18 (NVLink 4, 900 GB/s),
     * B200 and B300 18 (NVLink 5, 1.8 TB/s) (NVIDIA's product specifications); the T4 has none. A host may wire
     * fewer (H800 and A800 parts: 8).
     */
    public int nvlinkPorts() {
        return switch (this) {
            case T4 -> 0;
            case A100 -> 12;
            case H100, H200, B200, GB300 -> 18;
        };
    }

    /**
     * HBM bandwidth, bytes per second: T4 320 GB/s (NVIDIA T4 datasheet), A100 SXM4 80GB 2,039 GB/s
     * (NVIDIA A100 datasheet), H100 SXM5 3.35 TB/s (NVIDIA H100 datasheet), H200 4.8 TB/s (NVIDIA H200
     * product page), B200 and B300 8 TB/s (NVIDIA DGX B200 / GB300 NVL72 specifications, per GPU). A
     * memory-bound kernel (a cast, a quantisation, a device-to-device copy) reads and writes every byte once,
     * so it runs at best at this rate: the roofline's memory bound. A peak: no achieved fraction is modelled.
     */
    public double hbmBytesPerSecond() {
        return switch (this) {
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
    public double nvlinkPerLinkBytesPerSecond() {
        return switch (this) {
            case T4 -> 0;
            case A100, H100, H200 -> 25e9;
            case B200, GB300 -> 50e9;
        };
    }

    public LinkSpec hostLink() {
        return LinkSpec.pcie(pcieGen, 16);
    }

    public static GpuModel parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        for (GpuModel m : values()) {
            if (m.name().equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown GPU model '" + text + "' (expected one of t4, a100, h100, h200, b200, gb300)");
    }
}
