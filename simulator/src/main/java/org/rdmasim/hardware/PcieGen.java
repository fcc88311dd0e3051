package org.rdmasim.hardware;

/**
 * PCIe generations: transfer rate per lane and line encoding. Gen3-5 use 128b/130b; Gen6 uses PAM4
 * with 256-byte FLITs carrying 236 bytes of TLP payload space (PCIe 6.0 base specification), taken
 * here as its encoding efficiency.
 */
public enum PcieGen {
    GEN3(8.0, 128.0 / 130.0),
    GEN4(16.0, 128.0 / 130.0),
    GEN5(32.0, 128.0 / 130.0),
    GEN6(64.0, 236.0 / 256.0);

    /**
     * Fraction of the encoded rate left for data after TLP framing: 256 B payload, 26 B of header and
     * framing, one 16 B ack per 4 packets -> 256 / (256 + 26 + 4) = 0.895 ([ucx-src] ucs_topo_get_pci_bw,
     * src/ucs/sys/topo/base/topo.c). With it Gen4 x16 gives ~28.2 GB/s and Gen5 x16 ~56.4 GB/s.
     */
    public static final double TLP_EFFICIENCY = 256.0 / (256.0 + 26.0 + 16.0 / 4.0);

    private final double gigatransfersPerSecond;
    private final double encoding;

    PcieGen(double gigatransfersPerSecond, double encoding) {
        this.gigatransfersPerSecond = gigatransfersPerSecond;
        this.encoding = encoding;
    }

    public double gigatransfersPerSecond() {
        return gigatransfersPerSecond;
    }

    /** Raw bytes per second per direction for {@code width} lanes, after line encoding. */
    public double rawBytesPerSecond(int width) {
        return gigatransfersPerSecond * 1e9 * width / 8.0 * encoding;
    }

    /** Deliverable payload bytes per second per direction for {@code width} lanes. */
    public double payloadBytesPerSecond(int width) {
        return rawBytesPerSecond(width) * TLP_EFFICIENCY;
    }

    /** Generation from a GT/s figure as NCCL and lspci print it ("32.0 GT/s PCIe" -> GEN5). */
    public static PcieGen fromGigatransfers(double gts) {
        for (PcieGen g : values()) {
            if (Math.abs(g.gigatransfersPerSecond - gts) < 0.5) {
                return g;
            }
        }
        throw new IllegalArgumentException("no PCIe generation runs at " + gts + " GT/s (expected 8, 16, 32 or 64)");
    }

    public static PcieGen fromNumber(int gen) {
        return switch (gen) {
            case 3 -> GEN3;
            case 4 -> GEN4;
            case 5 -> GEN5;
            case 6 -> GEN6;
            default -> throw new IllegalArgumentException("unsupported PCIe generation " + gen + " (expected 3 to 6)");
        };
    }

    public int number() {
        return ordinal() + 3;
    }
}
