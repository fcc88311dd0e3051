package org.rdmasim.transport;

/**
 * A software thread every slice of one engine's NIC context passes through, one slice at a time: the engine
 * cuts each request into slices of at most {@code sliceBytes}, and the thread spends {@code secondsPerSlice}
 * on each (posting it, reaping its completion, marking it done). Its rate is the context's, whatever the
 * NIC's wire allows; the lanes of a transfer that share the initiator's NIC share it.
 *
 * @param secondsPerSlice the thread's time per slice; 0 for an engine with no such thread ({@link #NONE})
 * @param sliceBytes      the largest slice the engine cuts a request into
 */
public record SliceThread(double secondsPerSlice, long sliceBytes) {
    /** No thread of this kind: the engine's lanes are not held by one. */
    public static final SliceThread NONE = new SliceThread(0, 1);

    public SliceThread {
        if (!(secondsPerSlice >= 0) || Double.isInfinite(secondsPerSlice)) {
            throw new IllegalArgumentException("secondsPerSlice must be >= 0 and finite");
        }
        if (sliceBytes < 1) {
            throw new IllegalArgumentException("sliceBytes must be >= 1");
        }
    }

    /** Whether the engine has such a thread. */
    public boolean present() {
        return secondsPerSlice > 0;
    }

    /**
     * Bytes a second the thread passes for requests of {@code requestBytes}: each request is cut into
     * ceil(request / slice) slices, so a request just over a slice costs two; infinity without a thread or
     * for empty requests.
     */
    public double bytesPerSecond(double requestBytes) {
        if (!present() || requestBytes <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double slices = Math.ceil(requestBytes / sliceBytes);
        return requestBytes / slices / secondsPerSlice;
    }
}
