package org.rdmasim.hardware;

/**
 * NIC generations: ConnectX (NVIDIA ConnectX product briefs [connectx-briefs]) and AWS EFA, with
 * line rate and host interface. What one READ path is rated at is UCX's estimate for ranking lanes
 * (transport.ucx UcxPaths), not a property of the hardware, so it is not here.
 *
 * <p>EFA devices are Amazon (PCI vendor 0x1d0f) virtual functions with device ids 0xefa0 to 0xefa3
 * (Linux {@code drivers/infiniband/hw/efa/efa_main.c}, {@code efa_pci_tbl}; 0xefa3 added in 2023).
 * Which generation each instance type carries, its per-device rate and its PCIe link are read from
 * the hwloc dumps NIXL ships (ai-dynamo/nixl v1.4.0 {@code test/unit/utils/libfabric/topo/}):
 * p5.48xl has 32 devices 0xefa1 at 15.75 GB/s (Gen4 x8), p5en.48xl 16 devices 0xefa2 at 31.5 GB/s,
 * p6-b200.48xl 8 devices 0xefa3 at 63.0 GB/s; each instance totals 3200 Gbps of EFA bandwidth (AWS
 * EC2 user guide, "Maximize network bandwidth on accelerated instances with EFA"), hence 100, 200
 * and 400 Gbps per device.
 */
public enum NicModel {
    CX5("ConnectX-5", 100.0, PcieGen.GEN4, 16),
    CX6("ConnectX-6", 200.0, PcieGen.GEN4, 16),
    CX7("ConnectX-7", 400.0, PcieGen.GEN5, 16),
    // ConnectX-8 has a Gen6 x16 host interface (or 2 x Gen5 x16 through its switch).
    CX8("ConnectX-8", 800.0, PcieGen.GEN6, 16),
    /** Second-generation EFA (p5.48xlarge, p5e): 0xefa1, 100 Gbps, PCIe Gen4 x8. */
    EFA2("EFA 2nd generation", 100.0, PcieGen.GEN4, 8, 0xefa1),
    /** Third-generation EFA (p5en.48xlarge): 0xefa2, 200 Gbps; hwloc reports 31.5 GB/s, taken as Gen4 x16. */
    EFA3("EFA 3rd generation", 200.0, PcieGen.GEN4, 16, 0xefa2),
    /** Fourth-generation EFA (p6-b200.48xlarge): 0xefa3, 400 Gbps, PCIe Gen5 x16. */
    EFA4("EFA 4th generation", 400.0, PcieGen.GEN5, 16, 0xefa3);

    /** Amazon's PCI vendor id ({@code PCI_VENDOR_ID_AMAZON}, include/linux/pci_ids.h). */
    public static final int AMAZON_VENDOR_ID = 0x1d0f;

    private final String product;
    private final double lineRateGbps;
    private final PcieGen pcieGen;
    private final int pcieWidth;
    private final int efaDeviceId;

    NicModel(String product, double lineRateGbps, PcieGen pcieGen, int pcieWidth) {
        this(product, lineRateGbps, pcieGen, pcieWidth, 0);
    }

    NicModel(String product, double lineRateGbps, PcieGen pcieGen, int pcieWidth, int efaDeviceId) {
        this.product = product;
        this.lineRateGbps = lineRateGbps;
        this.pcieGen = pcieGen;
        this.pcieWidth = pcieWidth;
        this.efaDeviceId = efaDeviceId;
    }

    /** The EFA PCI device id (0xefa1..0xefa3); 0 for a ConnectX. */
    public int efaDeviceId() {
        return efaDeviceId;
    }

    /** Whether this is an AWS EFA device (libfabric's efa provider, SRD), not a ConnectX. */
    public boolean isEfa() {
        return efaDeviceId != 0;
    }

    /**
     * The NIC a PCI vendor and device id name, for importers: an EFA generation by its device id. The
     * first EFA (0xefa0, p4d) is not modelled and gives nothing, as does any other id.
     */
    public static java.util.Optional<NicModel> fromPciId(int vendor, int device) {
        if (vendor != AMAZON_VENDOR_ID) {
            return java.util.Optional.empty();
        }
        for (NicModel m : values()) {
            if (m.efaDeviceId == device) {
                return java.util.Optional.of(m);
            }
        }
        return java.util.Optional.empty();
    }

    public String product() {
        return product;
    }

    public double lineRateGbps() {
        return lineRateGbps;
    }

    /**
     * The fastest line rate a port of this model carries, on a device behind {@code hostLink}, and why.
     * A ConnectX: the port speed of its product brief, the figure {@link #lineRateGbps} holds (NVIDIA
     * ConnectX-5 100 Gb/s, ConnectX-6 200 Gb/s, ConnectX-7 400 Gb/s, ConnectX-8 800 Gb/s a port); a port
     * may train lower (a ConnectX-7 on a 200G switch), never higher. An EFA device has no published port
     * speed (its rate here is an instance's EFA total shared over its devices, and a newer instance gives
     * a device of the same id more), so its ceiling is what its host link carries: a rate above that
     * could never reach the GPU, and is a unit slip ("400 GBps" for "400 Gbps").
     */
    public PortCeiling portCeiling(LinkSpec hostLink) {
        if (isEfa()) {
            double gbps = Units.bytesPerSecondToGbps(hostLink.bytesPerSecond());
            return new PortCeiling(gbps, "what an " + product + " device's " + hostLink.describe() + " link carries, "
                    + Units.number(gbps) + " Gbps (AWS publishes no port speed for an EFA device)");
        }
        return new PortCeiling(lineRateGbps, "a " + product + " port's top speed, " + Units.number(lineRateGbps)
                + " Gbps (NVIDIA " + product + " product brief)");
    }

    /** The most a NIC's line rate may be, in Gbps, and where that figure comes from, for a message. */
    public record PortCeiling(double gbps, String why) {
    }

    public LinkSpec hostLink() {
        return LinkSpec.pcie(pcieGen, pcieWidth);
    }

    public static NicModel parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT).replace("connectx-", "cx").replace("-", "");
        for (NicModel m : values()) {
            if (m.name().toLowerCase(java.util.Locale.ROOT).equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown NIC model '" + text + "' (expected one of cx5, cx6, cx7, cx8, efa2, efa3, efa4)");
    }
}
