package org.rdmasim.workload;

/**
 * Refit cycles run back to back: each is a metadata exchange, buffer registration, then the pull.
 *
 * @param count                      cycles in a row
 * @param metadataRttSeconds         one round trip to the metadata service (receivers learn where the
 *                                   new weights are) before any pull starts
 * @param metadataPerReceiverSeconds the service's work per receiver (descriptor lists served one by one)
 * @param registrationCached         buffers stay registered between cycles (the caching fixes ai-dynamo/modelexpress
 *                                   #449 [mx-issue-449] cites), so only the first cycle pays for registration
 */
public record RefitCycles(int count, double metadataRttSeconds, double metadataPerReceiverSeconds,
        boolean registrationCached) {
    public RefitCycles {
        if (count < 1) {
            throw new IllegalArgumentException("at least one cycle is needed, got " + count);
        }
        if (!(metadataRttSeconds >= 0) || !(metadataPerReceiverSeconds >= 0)) {
            throw new IllegalArgumentException("metadata costs must be >= 0");
        }
    }

    /** One pull, no metadata or registration time in front of it. */
    public static RefitCycles single() {
        return new RefitCycles(1, 0, 0, true);
    }

    public double metadataSeconds(int receivers) {
        return metadataRttSeconds + metadataPerReceiverSeconds * receivers;
    }
}
