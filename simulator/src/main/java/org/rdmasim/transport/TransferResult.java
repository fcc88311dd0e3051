package org.rdmasim.transport;

import java.util.List;

/**
 * A finished transfer. {@code startSeconds} is when it was posted, {@code finishSeconds} when the
 * initiator saw it complete; {@code bottleneck} is what limited the lane that finished last.
 */
public record TransferResult(TransferSpec spec, double startSeconds, double finishSeconds, List<LaneResult> lanes,
        String bottleneck) {
    public double seconds() {
        return finishSeconds - startSeconds;
    }

    public double gbps() {
        double d = seconds();
        return d > 0 ? spec.bytes() * 8.0 / d / 1e9 : 0.0;
    }
}
