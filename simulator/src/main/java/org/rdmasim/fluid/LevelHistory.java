package org.rdmasim.fluid;

import java.util.Arrays;

/**
 * The levels a {@link Level} took, kept only as far as a peak asks: a suffix-maximum stack over the
 * sequence of recorded levels (record numbers increase; levels on the stack strictly decrease), so the
 * highest level since any record is one binary search.
 */
final class LevelHistory {
    private long records;
    private long[] stackRecord = new long[8];
    private double[] stackLevel = new double[8];
    private int stackSize;

    /** Appends {@code level} to the history. */
    void record(double level) {
        while (stackSize > 0 && stackLevel[stackSize - 1] <= level) {
            stackSize--;
        }
        if (stackSize == stackRecord.length) {
            stackRecord = Arrays.copyOf(stackRecord, 2 * stackSize);
            stackLevel = Arrays.copyOf(stackLevel, 2 * stackSize);
        }
        stackRecord[stackSize] = records++;
        stackLevel[stackSize++] = level;
    }

    /** Number of the latest record. */
    long latest() {
        return records - 1;
    }

    /**
     * Highest level recorded since record {@code from} (inclusive), or {@code current} if higher; with nothing
     * recorded yet, {@code current} (a guard: the fast path below reads the record before the latest).
     */
    double maxSince(long from, double current) {
        int hi = stackSize - 1;
        if (hi < 0) {
            return current;
        }
        if (hi == 0 || stackRecord[hi - 1] < from) {
            // Only the latest record qualifies (a peak asked since the last level change, the usual case):
            // what the search below finds, without its reads spread over the stack.
            return Math.max(stackLevel[hi], current);
        }
        int lo = 0;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (stackRecord[mid] >= from) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return Math.max(stackLevel[lo], current);
    }
}
