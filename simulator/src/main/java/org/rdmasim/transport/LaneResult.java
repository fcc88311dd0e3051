package org.rdmasim.transport;

import org.rdmasim.hardware.Bottleneck;

/** What one lane did: bytes, when its data moved, and what limited it most (by bytes). */
public record LaneResult(String sourceNic, String sinkNic, long bytes, double startSeconds, double finishSeconds,
        Bottleneck limiter, int path) {
    public LaneResult(String sourceNic, String sinkNic, long bytes, double startSeconds, double finishSeconds,
            Bottleneck limiter) {
        this(sourceNic, sinkNic, bytes, startSeconds, finishSeconds, limiter, 0);
    }

    public double gbps() {
        double d = finishSeconds - startSeconds;
        return d > 0 ? bytes * 8.0 / d / 1e9 : 0.0;
    }
}
