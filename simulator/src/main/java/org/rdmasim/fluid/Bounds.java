package org.rdmasim.fluid;

import java.util.Arrays;

/**
 * The bounds on a group's level (its members' thresholds, the levels at which its lazily followed
 * resources would fill) or a blend's capacities, of which only the lowest is ever read: a multiset of
 * values, kept as the distinct values in ascending order ({@link Double#compare}) with a count each.
 *
 * <p>Why counts and not a tree of the members or resources: a group or blend of a large fan-out holds
 * thousands of them, yet they carry a handful of distinct values (every receiver of a preset has the
 * same link capacities and lane usage). A {@code TreeSet} ordered by value then by index paid a
 * comparator walk down a deep tree on every join, leave and lazy share; here a join or leave is a binary
 * search over those few values and a count. A caller removes exactly the value it added (the value of a
 * member or resource does not change while it is counted), so the lowest value is the same as the
 * first of such a tree.
 */
final class Bounds {
    private double[] values = new double[2];
    private int[] counts = new int[2];
    private int distinct;

    /** Counts one more {@code value}. */
    void add(double value) {
        int k = find(value);
        if (k >= 0) {
            counts[k]++;
            return;
        }
        int at = -1 - k;
        if (distinct == values.length) {
            values = Arrays.copyOf(values, 2 * distinct);
            counts = Arrays.copyOf(counts, 2 * distinct);
        }
        System.arraycopy(values, at, values, at + 1, distinct - at);
        System.arraycopy(counts, at, counts, at + 1, distinct - at);
        values[at] = value;
        counts[at] = 1;
        distinct++;
    }

    /** Counts one {@code value} fewer; it must have been added. */
    void remove(double value) {
        int k = find(value);
        if (k < 0) {
            throw new IllegalStateException("bound " + value + " was never added");
        }
        if (--counts[k] == 0) {
            distinct--;
            System.arraycopy(values, k + 1, values, k, distinct - k);
            System.arraycopy(counts, k + 1, counts, k, distinct - k);
        }
    }

    boolean isEmpty() {
        return distinct == 0;
    }

    /** The lowest value counted, +Infinity when none. */
    double lowest() {
        return distinct == 0 ? Double.POSITIVE_INFINITY : values[0];
    }

    /** Where {@code value} is, or {@code -1 - k} when absent and it belongs at {@code k}. */
    private int find(double value) {
        int lo = 0;
        int hi = distinct - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Double.compare(values[mid], value);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1 - lo;
    }
}
