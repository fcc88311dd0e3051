package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;

/**
 * A group's members in finish order: by {@link Flow#tag}, then by id.
 *
 * <p>Why a sorted ring of arrays and not a {@code TreeSet}: members mostly join at the back (a member
 * joining later has the later tag when lanes are alike) and leave at the front (members finish in tag
 * order, and a group dissolves first member first), and a large fan-out's group holds thousands of them.
 * The tree allocated an entry per member and walked a comparator down its levels on every join and leave,
 * loading an entry and a flow at each; a binary heap over arrays did no better, a leaving first member
 * sifting through a dozen levels of cold arrays. Here the tags and ids sit in arrays beside the flows,
 * in order from {@code head} around the ring: a join at the back and a leave at the front move nothing,
 * and a member joining or leaving elsewhere is found by binary search and shifts the shorter side by
 * one slot. The order read is the tree's.
 */
final class MembersByTag {
    private Flow[] flows = new Flow[8];
    private double[] tags = new double[8];
    private long[] ids = new long[8];
    /** Physical slot of the first member; member {@code i} is at {@code (head + i) & (capacity - 1)}. */
    private int head;
    private int size;

    /** Tag, then id: the order in which members finish (ties in tag keep start order). */
    static int compare(Flow a, Flow b) {
        int c = Double.compare(a.tag, b.tag);
        return c != 0 ? c : Long.compare(a.id(), b.id());
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The member with the smallest tag, null when none. */
    Flow first() {
        return size == 0 ? null : flows[head];
    }

    /** The smallest tag, read from the ring rather than from its flow; NaN when there is no member. */
    double firstTag() {
        return size == 0 ? Double.NaN : tags[head];
    }

    /** The tag of member {@code i} in order (0: the smallest). */
    double tagAt(int i) {
        return tags[slot(i)];
    }

    /** Member {@code i} in order (0: the first to finish). */
    Flow at(int i) {
        return flows[slot(i)];
    }

    /** Takes in {@code f}, its tag set (it must not change while {@code f} is here). */
    void add(Flow f) {
        if (size == flows.length) {
            grow();
        }
        double tag = f.tag;
        long id = f.id();
        int at = size == 0 || after(tag, id, size - 1) ? size : firstNotBefore(tag, id);
        if (at >= size / 2) {
            later(at, size);
        } else {
            head = slot(-1);
            earlier(1, at + 1);
        }
        size++;
        int s = slot(at);
        flows[s] = f;
        tags[s] = tag;
        ids[s] = id;
    }

    /** Lets member {@code f} go. */
    void remove(Flow f) {
        int at = size > 0 && flows[head] == f ? 0 : firstNotBefore(f.tag, f.id());
        if (at >= size || flows[slot(at)] != f) {
            throw new IllegalStateException(f.label() + " is not a member here");
        }
        if (at >= size / 2) {
            earlier(at + 1, size);
            flows[slot(size - 1)] = null;
        } else {
            later(0, at);
            flows[head] = null;
            head = slot(1);
        }
        size--;
    }

    /**
     * The members, in order, from the first up to the last whose tag {@code due} accepts; {@code due}
     * must accept a prefix of the order (a tag it refuses, it refuses every larger one).
     */
    List<Flow> firstWhile(DoublePredicate due) {
        List<Flow> out = new ArrayList<>(2);
        for (int i = 0; i < size && due.test(tags[slot(i)]); i++) {
            out.add(flows[slot(i)]);
        }
        return out;
    }

    /** All members, in order. */
    List<Flow> inOrder() {
        List<Flow> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(flows[slot(i)]);
        }
        return out;
    }

    /** Physical slot of member {@code i} (-1: the slot before the first). */
    private int slot(int i) {
        return (head + i) & (flows.length - 1);
    }

    /** Whether (tag, id) comes after member {@code i}. */
    private boolean after(double tag, long id, int i) {
        int s = slot(i);
        int c = Double.compare(tag, tags[s]);
        return c != 0 ? c > 0 : id > ids[s];
    }

    /** The first member not before (tag, id), {@code size} when all are: where it is or belongs. */
    private int firstNotBefore(double tag, long id) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (after(tag, id, mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Moves members {@code from} to {@code to - 1} (in order) one place later, the last first, as a run of
     * copies each within the ring's array (a member at a time cost a refit's groups, joined out of tag
     * order and hundreds long, ~6% of a 32,768-transfer list's simulate, perf).
     */
    private void later(int from, int to) {
        int i = to;
        while (i > from) {
            // member i - 1 goes to i; a run stops where either side reaches slot 0 of the array
            int src = slot(i - 1);
            int dst = slot(i);
            int n = Math.min(Math.min(src, dst) + 1, i - from);
            copy(src - n + 1, dst - n + 1, n);
            i -= n;
        }
    }

    /** Moves members {@code from} to {@code to - 1} (in order) one place earlier, the first first. */
    private void earlier(int from, int to) {
        int capacity = flows.length;
        int i = from;
        while (i < to) {
            // member i goes to i - 1; a run stops where either side reaches the array's end
            int src = slot(i);
            int dst = slot(i - 1);
            int n = Math.min(capacity - Math.max(src, dst), to - i);
            copy(src, dst, n);
            i += n;
        }
    }

    private void copy(int src, int dst, int n) {
        System.arraycopy(flows, src, flows, dst, n);
        System.arraycopy(tags, src, tags, dst, n);
        System.arraycopy(ids, src, ids, dst, n);
    }

    /** Doubles the ring (a power of two, so a slot is a mask), the members from slot 0 in order. */
    private void grow() {
        int n = flows.length;
        Flow[] f = new Flow[2 * n];
        double[] t = new double[2 * n];
        long[] d = new long[2 * n];
        for (int i = 0; i < size; i++) {
            int s = slot(i);
            f[i] = flows[s];
            t[i] = tags[s];
            d[i] = ids[s];
        }
        flows = f;
        tags = t;
        ids = d;
        head = 0;
    }
}
