package org.rdmasim.hardware;

/**
 * ConnectX generations (FACTS.md section 5; NVIDIA ConnectX product briefs): line rate and host
 * interface. What one READ path is rated at is UCX's estimate for ranking lanes (transport.ucx
 * UcxPaths), not a property of the hardware, so it is not here.
 */
public enum NicModel {
    CX5("ConnectX-5", 100.0, PcieGen.GEN4, 16),
    CX6("ConnectX-6", 200.0, PcieGen.GEN4, 16),
    CX7("ConnectX-7", 400.0, PcieGen.GEN5, 16),
    // ConnectX-8 has a Gen6 x16 host interface (or 2 x Gen5 x16 through its switch).
    CX8("ConnectX-8", 800.0, PcieGen.GEN6, 16);

    private final String product;
    private final double lineRateGbps;
    private final PcieGen pcieGen;
    private final int pcieWidth;

    NicModel(String product, double lineRateGbps, PcieGen pcieGen, int pcieWidth) {
        this.product = product;
        this.lineRateGbps = lineRateGbps;
        this.pcieGen = pcieGen;
        this.pcieWidth = pcieWidth;
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
