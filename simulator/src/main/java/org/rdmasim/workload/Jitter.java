package org.rdmasim.workload;

/**
 * Variation between replications, drawn from seeded streams.
 *
 * @param nicRateFraction each NIC's rate is scaled by a uniform factor in [1 - f, 1 + f] (stream
 *                        "nic-rate"), for cable, firmware and thermal spread between ports
 * @param startSeconds    each receiver arrives up to this much later than planned, uniformly (stream
 *                        "start-jitter"), for pods that are not perfectly in step
 */
public record Jitter(double nicRateFraction, double startSeconds) {
    public static final Jitter NONE = new Jitter(0, 0);

    public Jitter {
        if (!(nicRateFraction >= 0) || nicRateFraction >= 1) {
            throw new IllegalArgumentException("NIC rate jitter must be a fraction in [0, 1), got " + nicRateFraction);
        }
        if (!(startSeconds >= 0)) {
            throw new IllegalArgumentException("start jitter must be >= 0 seconds");
        }
    }

    public boolean none() {
        return nicRateFraction == 0 && startSeconds == 0;
    }
}
