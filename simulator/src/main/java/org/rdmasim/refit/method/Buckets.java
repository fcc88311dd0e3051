package org.rdmasim.refit.method;

/**
 * How a broadcast method cuts the weights into buckets: each bucket is filled (gathered, converted, or
 * copied from host memory) into a GPU buffer, then sent whole. With double buffering two buffers alternate,
 * so the next bucket fills while this one is on the wire (checkpoint-engine allocates its broadcast buffer
 * as {@code bucket_size * 2} and uses half {@code gidx % 2}: MoonshotAI/checkpoint-engine
 * {@code checkpoint_engine/ps.py}, {@code _update_per_bucket}).
 *
 * @param bucketBytes    size of a full bucket; the last bucket holds the rest
 * @param doubleBuffered two buffers (fill overlaps wire) or one (fill, wire, fill, ...)
 */
public record Buckets(long bucketBytes, boolean doubleBuffered) {
    public static final long GIB = 1L << 30;
    /** checkpoint-engine's {@code PS_MAX_BUCKET_SIZE_GB} default, 8 GiB. */
    public static final long CHECKPOINT_ENGINE_MAX_BUCKET = 8 * GIB;

    public Buckets {
        if (bucketBytes < 1) {
            throw new IllegalArgumentException("a bucket holds at least one byte, got " + bucketBytes);
        }
    }

    /** Buffers a sender holds: 2 double-buffered, else 1. */
    public int depth() {
        return doubleBuffered ? 2 : 1;
    }

    /** How many buckets {@code payload} bytes make. */
    public int count(long payload) {
        if (payload < 1) {
            throw new IllegalArgumentException("a broadcast moves at least one byte");
        }
        long n = (payload + bucketBytes - 1) / bucketBytes;
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many buckets: " + n);
        }
        return (int) n;
    }

    /** Bytes of bucket {@code k} of {@code payload}. */
    public long sizeOf(int k, long payload) {
        long start = (long) k * bucketBytes;
        return Math.min(bucketBytes, payload - start);
    }

    /**
     * checkpoint-engine's bucket rule ({@code _detect_bucket_size} in MoonshotAI/checkpoint-engine
     * {@code checkpoint_engine/ps.py}): {@code free} is the smallest over ranks of free GPU memory times
     * {@code mem_fraction}; it is divided by 3 when the largest tensor fits in a third (an H2D buffer
     * beside the double broadcast buffer), else by 2 (no H2D buffer); then
     * {@code bucket = min(max(PS_MAX_BUCKET_SIZE_GB, largest tensor), free)}. Alignment to its 256-byte
     * {@code _ALIGN_SIZE} is left out. Always double-buffered.
     */
    public static Buckets checkpointEngineRule(long freeBytes, long largestTensorBytes, long maxBucketBytes) {
        if (freeBytes < 1 || largestTensorBytes < 1 || maxBucketBytes < 1) {
            throw new IllegalArgumentException("free memory, largest tensor and bucket limit must be positive");
        }
        long third = freeBytes / 3;
        long free = largestTensorBytes <= third ? third : freeBytes / 2;
        if (largestTensorBytes > free) {
            throw new IllegalArgumentException("the largest tensor (" + largestTensorBytes + " B) does not fit in "
                    + "half the free GPU memory (" + free + " B): checkpoint-engine refuses this");
        }
        return new Buckets(Math.min(Math.max(maxBucketBytes, largestTensorBytes), free), true);
    }
}
