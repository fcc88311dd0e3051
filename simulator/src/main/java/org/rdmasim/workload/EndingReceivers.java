package org.rdmasim.workload;

import java.util.Arrays;

/**
 * The receivers of a fan-out that ended in the current instant, taken out lowest index first, each once
 * however often it is added. A heap of ints with a mark per receiver: a sorted set of boxed indices here
 * made a box and a tree entry per receiver, and an entry object per removal, on every end of a pull
 * (~5% of a 65,536-receiver fan-out's garbage in its event loop, JFR allocation samples).
 */
final class EndingReceivers {
    private final boolean[] held;
    private int[] heap = new int[8];
    private int size;

    EndingReceivers(int receivers) {
        held = new boolean[receivers];
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Adds receiver {@code i}; a receiver already held is not added again. */
    void add(int i) {
        if (held[i]) {
            return;
        }
        held[i] = true;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, 2 * size);
        }
        int at = size++;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heap[parent] <= i) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = i;
    }

    /** Removes and returns the lowest receiver held; there must be one. */
    int pollFirst() {
        int first = heap[0];
        held[first] = false;
        int last = heap[--size];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] < heap[child]) {
                child++;
            }
            if (heap[child] >= last) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = last;
        return first;
    }
}
