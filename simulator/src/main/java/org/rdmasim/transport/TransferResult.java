package org.rdmasim.transport;

import java.util.List;
import org.rdmasim.hardware.Bottleneck;

/**
 * A finished transfer. {@code startSeconds} is when it was posted, {@code finishSeconds} when the
 * initiator saw it complete; {@code bottleneck} is the limit that held one of its lanes
 * longest ({@link HeldLongest}; a {@link Bottleneck.Tie} when several held for the same time). A failed
 * transfer has {@code failure}, the error the initiator saw, and ends when it saw it.
 */
public record TransferResult(TransferSpec spec, double startSeconds, double finishSeconds, List<LaneResult> lanes,
        Bottleneck bottleneck, String failure) {
    public TransferResult(TransferSpec spec, double startSeconds, double finishSeconds, List<LaneResult> lanes,
            Bottleneck bottleneck) {
        this(spec, startSeconds, finishSeconds, lanes, bottleneck, null);
    }

    /** True when the transfer ended in an error (NIXL reported it failed) rather than delivering its bytes. */
    public boolean failed() {
        return failure != null;
    }

    public double seconds() {
        return finishSeconds - startSeconds;
    }

    public double gbps() {
        double d = seconds();
        return d > 0 ? spec.bytes() * 8.0 / d / 1e9 : 0.0;
    }
}
