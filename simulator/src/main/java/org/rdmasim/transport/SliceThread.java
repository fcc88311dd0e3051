package org.rdmasim.transport;

/**
 * A software thread every slice of one engine's NIC context passes through, one slice at a time: the engine
 * cuts each request into slices of {@code sliceBytes}, the last one taking whatever is left when that is at most
 * {@code sliceBytes + tailBytes}, and the thread spends {@code secondsPerSlice} on each (posting it, reaping its
 * completion, marking it done). Its rate is the context's, whatever the NIC's wire allows; the lanes of a
 * transfer that share the initiator's NIC share it.
 *
 * @param secondsPerSlice the thread's time per slice; 0 for an engine with no such thread ({@link #NONE})
 * @param sliceBytes      the size the engine cuts a request at
 * @param tailBytes       how far past a slice the last slice may run rather than leave a slice of its own
 * @param basis           where {@code secondsPerSlice} comes from, as a limit it sets says it ("calibrated on ROW",
 *                        or the scenario's own figure); empty when nothing needs saying
 */
public record SliceThread(double secondsPerSlice, long sliceBytes, long tailBytes, String basis) {
    /** No thread of this kind: the engine's lanes are not held by one. */
    public static final SliceThread NONE = new SliceThread(0, 1, 0);

    /** A thread whose time per slice needs no word on where it comes from. */
    public SliceThread(double secondsPerSlice, long sliceBytes, long tailBytes) {
        this(secondsPerSlice, sliceBytes, tailBytes, "");
    }

    public SliceThread {
        basis = basis == null ? "" : basis;
        if (!(secondsPerSlice >= 0) || Double.isInfinite(secondsPerSlice)) {
            throw new IllegalArgumentException("secondsPerSlice must be >= 0 and finite");
        }
        if (sliceBytes < 1) {
            throw new IllegalArgumentException("sliceBytes must be >= 1");
        }
        if (tailBytes < 0) {
            throw new IllegalArgumentException("tailBytes must be >= 0");
        }
    }

    /** Whether the engine has such a thread. */
    public boolean present() {
        return secondsPerSlice > 0;
    }

    /**
     * The slices a request of {@code requestBytes} is cut into: one a slice, the last taking up to
     * {@code tailBytes} more (so a request of a slice and a small tail is one), at least one for any bytes,
     * none for none. The count follows the request, not its bytes alone: the same bytes in more requests are
     * more slices.
     */
    public double slices(double requestBytes) {
        if (requestBytes <= 0) {
            return 0;
        }
        return Math.max(1, Math.ceil((requestBytes - tailBytes) / sliceBytes));
    }

    /**
     * Bytes a second the thread passes for requests of {@code requestBytes}: their bytes over their slices'
     * time; infinity without a thread or for empty requests.
     */
    public double bytesPerSecond(double requestBytes) {
        if (!present() || requestBytes <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        return requestBytes / slices(requestBytes) / secondsPerSlice;
    }
}
