package org.rdmasim.workload;

/**
 * A published figure a variant is meant to reproduce or refute: a per-receiver pull time (or range)
 * and the NIC count it assumes, with the physical floors under it: all bytes at the line rate of that many
 * NICs ({@code floorSeconds}), and each byte through the GPU links it must cross, the receiving GPU's and the
 * sending GPU's ({@code gpuLinkFloorSeconds}, naming the tightest as {@code gpuLink}; 0 and empty where no GPU
 * is at an end), no overhead either way. A claim below the larger promises more than the hardware allows.
 */
public record Claim(String source, double lowSeconds, double highSeconds, int nics, double floorSeconds,
        double gpuLinkFloorSeconds, String gpuLink) {
    public Claim(String source, double lowSeconds, double highSeconds, int nics, double floorSeconds) {
        this(source, lowSeconds, highSeconds, nics, floorSeconds, 0, "");
    }

    /** The least time the hardware allows: the tighter of the NICs' line rate and the GPU links. */
    public double physicalFloorSeconds() {
        return Math.max(floorSeconds, gpuLinkFloorSeconds);
    }

    /** Whether a GPU's own link, not the claimed NICs, sets the floor. */
    public boolean gpuLinkBinds() {
        return gpuLinkFloorSeconds > floorSeconds;
    }

    public boolean belowFloor() {
        return lowSeconds < physicalFloorSeconds() * (1 - 1e-9);
    }

    /** What the model says of the claim, given the modelled pull time. */
    public String verdict(double modelledSeconds) {
        if (belowFloor()) {
            return gpuLinkBinds() ? String.format(java.util.Locale.ROOT,
                    "FLAGGED: promises %.3g s, below the %.3g s floor of %s (the line rate of %d NIC(s) alone allows %.3g s)",
                    lowSeconds, gpuLinkFloorSeconds, gpuLink, nics, floorSeconds)
                    : String.format(java.util.Locale.ROOT,
                    "FLAGGED: promises %.3g s, below the %.3g s line-rate floor of %d NIC(s)", lowSeconds, floorSeconds, nics);
        }
        if (modelledSeconds >= lowSeconds * 0.9 && modelledSeconds <= highSeconds * 1.1) {
            return "consistent with the model (within 10%)";
        }
        return modelledSeconds < lowSeconds ? "model is faster than claimed" : "model is slower than claimed";
    }
}
