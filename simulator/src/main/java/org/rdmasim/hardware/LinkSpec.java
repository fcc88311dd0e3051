package org.rdmasim.hardware;

/**
 * A full-duplex link from a device to its parent: PCIe (generation and width) or a coherent
 * chip-to-chip link such as NVLink-C2C given by its per-direction bandwidth.
 *
 * @param bytesPerSecond deliverable payload per direction
 */
public record LinkSpec(LinkType type, PcieGen gen, int width, double bytesPerSecond) {
    public enum LinkType { PCIE, C2C }

    public LinkSpec {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("link bandwidth must be positive, got " + bytesPerSecond);
        }
    }

    public static LinkSpec pcie(PcieGen gen, int width) {
        if (width <= 0 || width > 32) {
            throw new IllegalArgumentException("PCIe width must be 1..32 lanes, got " + width);
        }
        return new LinkSpec(LinkType.PCIE, gen, width, gen.payloadBytesPerSecond(width));
    }

    public static LinkSpec c2c(double bytesPerSecondPerDirection) {
        return new LinkSpec(LinkType.C2C, null, 0, bytesPerSecondPerDirection);
    }

    public String describe() {
        return type == LinkType.PCIE ? "PCIe Gen" + gen.number() + " x" + width
                // rates in Gbps; NVIDIA publishes C2C in GB/s, so that figure follows in parentheses
                : String.format(java.util.Locale.ROOT, "C2C %.0f Gbps (%.0f GB/s)", Units.bytesPerSecondToGbps(bytesPerSecond),
                        bytesPerSecond / 1e9);
    }
}
