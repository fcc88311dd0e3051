package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Bottleneck;

/**
 * What one lane did: bytes, when its data moved, and what held it longest ({@link HeldLongest}).
 *
 * @param heldOverTime each limit the lane met with the seconds it moved bytes under it, in the order met;
 *                     empty when one limit held it all its life ({@code limiter})
 */
public record LaneResult(String sourceNic, String sinkNic, long bytes, double startSeconds, double finishSeconds,
        Bottleneck limiter, int path, List<Held> heldOverTime) {
    public LaneResult {
        heldOverTime = List.copyOf(heldOverTime);
    }

    public LaneResult(String sourceNic, String sinkNic, long bytes, double startSeconds, double finishSeconds,
            Bottleneck limiter, int path) {
        this(sourceNic, sinkNic, bytes, startSeconds, finishSeconds, limiter, path, List.of());
    }

    public LaneResult(String sourceNic, String sinkNic, long bytes, double startSeconds, double finishSeconds,
            Bottleneck limiter) {
        this(sourceNic, sinkNic, bytes, startSeconds, finishSeconds, limiter, 0);
    }

    /** A limit and the seconds the lane moved bytes under it. */
    public record Held(Bottleneck limit, double seconds) {
    }

    public double gbps() {
        double d = finishSeconds - startSeconds;
        return d > 0 ? bytes * 8.0 / d / 1e9 : 0.0;
    }
}
