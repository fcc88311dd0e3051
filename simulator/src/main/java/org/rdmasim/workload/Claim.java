package org.rdmasim.workload;

/**
 * A published figure a variant is meant to reproduce or refute: a per-receiver pull time (or range)
 * and the NIC count it assumes, with the physical floor that count allows (all bytes at the line
 * rate of that many NICs, no overhead). A claim below its floor promises more than the wire allows.
 */
public record Claim(String source, double lowSeconds, double highSeconds, int nics, double floorSeconds) {
    public boolean belowFloor() {
        return lowSeconds < floorSeconds * (1 - 1e-9);
    }

    /** What the model says of the claim, given the modelled pull time. */
    public String verdict(double modelledSeconds) {
        if (belowFloor()) {
            return String.format(java.util.Locale.ROOT,
                    "FLAGGED: promises %.3g s, below the %.3g s line-rate floor of %d NIC(s)", lowSeconds, floorSeconds, nics);
        }
        if (modelledSeconds >= lowSeconds * 0.9 && modelledSeconds <= highSeconds * 1.1) {
            return "consistent with the model (within 10%)";
        }
        return modelledSeconds < lowSeconds ? "model is faster than claimed" : "model is slower than claimed";
    }
}
