package org.rdmasim.refit.layout;

import java.util.Arrays;

/**
 * A half-open index box {@code [lo, hi)} per dimension of a tensor, in the HuggingFace orientation: the part
 * of one tensor a rank holds or needs. Slicing works on boxes only, never on elements, so a map of a
 * trillion-parameter model stays arithmetic.
 */
public final class Box {
    private final long[] lo;
    private final long[] hi;

    private Box(long[] lo, long[] hi) {
        this.lo = lo;
        this.hi = hi;
    }

    /** The whole tensor of this shape. */
    public static Box whole(long[] shape) {
        return new Box(new long[shape.length], shape.clone());
    }

    public static Box of(long[] lo, long[] hi) {
        if (lo.length != hi.length || lo.length == 0) {
            throw new IllegalArgumentException("a box needs the same number (>= 1) of starts and ends");
        }
        for (int d = 0; d < lo.length; d++) {
            if (lo[d] < 0 || hi[d] <= lo[d]) {
                throw new IllegalArgumentException("empty or negative extent in dim " + d + ": [" + lo[d] + ", " + hi[d] + ")");
            }
        }
        return new Box(lo.clone(), hi.clone());
    }

    /** This box with dimension {@code dim} narrowed to {@code [start, end)}; null when that range is empty. */
    public Box narrow(int dim, long start, long end) {
        long s = Math.max(start, lo[dim]);
        long e = Math.min(end, hi[dim]);
        if (s >= e) {
            return null;
        }
        long[] l = lo.clone();
        long[] h = hi.clone();
        l[dim] = s;
        h[dim] = e;
        return new Box(l, h);
    }

    /** The overlap of two boxes of the same rank, null when they are disjoint in any dimension. */
    public Box intersect(Box other) {
        long[] l = new long[lo.length];
        long[] h = new long[lo.length];
        for (int d = 0; d < lo.length; d++) {
            l[d] = Math.max(lo[d], other.lo[d]);
            h[d] = Math.min(hi[d], other.hi[d]);
            if (l[d] >= h[d]) {
                return null;
            }
        }
        return new Box(l, h);
    }

    /** Whether the two boxes share at least one index, without building the overlap. */
    public boolean overlaps(Box other) {
        for (int d = 0; d < lo.length; d++) {
            if (Math.max(lo[d], other.lo[d]) >= Math.min(hi[d], other.hi[d])) {
                return false;
            }
        }
        return true;
    }

    public boolean contains(Box other) {
        for (int d = 0; d < lo.length; d++) {
            if (other.lo[d] < lo[d] || other.hi[d] > hi[d]) {
                return false;
            }
        }
        return true;
    }

    public int dims() {
        return lo.length;
    }

    public long start(int dim) {
        return lo[dim];
    }

    public long end(int dim) {
        return hi[dim];
    }

    public long size(int dim) {
        return hi[dim] - lo[dim];
    }

    public long elements() {
        long n = 1;
        for (int d = 0; d < lo.length; d++) {
            n = Math.multiplyExact(n, hi[d] - lo[d]);
        }
        return n;
    }

    /**
     * Contiguous runs of {@code overlap} when it is read from a row-major {@code source} buffer and written
     * into a row-major {@code destination} buffer: the trailing dimensions coalesce into one run while each
     * inner dimension is covered whole on both sides, every outer index starts a new run. This is the
     * decomposition of ModelExpress' {@code paired_runs} (ai-dynamo/modelexpress @3db6bdc4,
     * modelexpress_client/python/modelexpress/refit/reshard/slice_plan.py L259): a dim-0 slice of a
     * {@code [out, in]} weight is one run, a dim-1 slice is one run per row.
     */
    public static long pairedRuns(Box overlap, Box source, Box destination) {
        int p = overlap.dims() - 1;
        while (p > 0 && overlap.size(p) == source.size(p) && overlap.size(p) == destination.size(p)) {
            p--;
        }
        long runs = 1;
        for (int d = 0; d < p; d++) {
            runs = Math.multiplyExact(runs, overlap.size(d));
        }
        return runs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Box b && Arrays.equals(lo, b.lo) && Arrays.equals(hi, b.hi);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(lo) + Arrays.hashCode(hi);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("[");
        for (int d = 0; d < lo.length; d++) {
            s.append(d == 0 ? "" : ", ").append(lo[d]).append(':').append(hi[d]);
        }
        return s.append(']').toString();
    }
}
