package org.rdmasim.hardware;

/**
 * ConnectX generations (FACTS.md section 5; NVIDIA ConnectX product briefs): line rate, host
 * interface, and the throughput one RDMA READ path (one QP) reaches in UCX's model of the device
 * (src/uct/ib/base/ib_iface.c: NDR ~38 GB/s per path, XDR ~35 GB/s per path, "4 QPs are needed").
 * For generations UCX gives no READ figure the READ path is limited only by the line.
 */
public enum NicModel {
    CX5("ConnectX-5", 100.0, PcieGen.GEN4, 16, Double.POSITIVE_INFINITY),
    CX6("ConnectX-6", 200.0, PcieGen.GEN4, 16, Double.POSITIVE_INFINITY),
    CX7("ConnectX-7", 400.0, PcieGen.GEN5, 16, 38e9),
    // ConnectX-8 has a Gen6 x16 host interface (or 2 x Gen5 x16 through its switch).
    CX8("ConnectX-8", 800.0, PcieGen.GEN6, 16, 35e9);

    private final String product;
    private final double lineRateGbps;
    private final PcieGen pcieGen;
    private final int pcieWidth;
    private final double readBytesPerSecondPerPath;

    NicModel(String product, double lineRateGbps, PcieGen pcieGen, int pcieWidth, double readPerPath) {
        this.product = product;
        this.lineRateGbps = lineRateGbps;
        this.pcieGen = pcieGen;
        this.pcieWidth = pcieWidth;
        this.readBytesPerSecondPerPath = readPerPath;
    }

    public String product() {
        return product;
    }

    public double lineRateGbps() {
        return lineRateGbps;
    }

    public LinkSpec hostLink() {
        return LinkSpec.pcie(pcieGen, pcieWidth);
    }

    /** RDMA READ throughput of one path (QP), bytes per second; infinite when not limited. */
    public double readBytesPerSecondPerPath() {
        return readBytesPerSecondPerPath;
    }

    public static NicModel parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT).replace("connectx-", "cx").replace("-", "");
        for (NicModel m : values()) {
            if (m.name().toLowerCase(java.util.Locale.ROOT).equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown NIC model '" + text + "' (expected one of cx5, cx6, cx7, cx8)");
    }
}
