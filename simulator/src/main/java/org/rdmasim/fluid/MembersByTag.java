package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoublePredicate;

/**
 * A group's members in finish order: by {@link Flow#tag}, then by id. Only the first is read on every
 * event (the group's one completion), and the members due with it when it fires; the whole order is
 * walked only when every group is dissolved (a fault) or the network is verified.
 *
 * <p>Why a binary heap over an array and not a {@code TreeSet}: a large fan-out's group holds thousands
 * of members and each event adds or removes one. The tree allocated an entry per member and walked a
 * comparator down tens of levels on every join and leave (a tenth of a 65k-receiver fan-out's simulate
 * samples); the heap moves array slots, and each member keeps its slot ({@link Flow#memberSlot}) so it
 * leaves without a search. Every walk of the order sorts what it returns, so readers see exactly the
 * order the tree gave.
 */
final class MembersByTag {
    private Flow[] heap = new Flow[8];
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
        return size == 0 ? null : heap[0];
    }

    /** Takes in {@code f}, its tag set (it must not change while {@code f} is here). */
    void add(Flow f) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, 2 * size);
        }
        place(f, size++);
        siftUp(f.memberSlot);
    }

    /** Lets member {@code f} go. */
    void remove(Flow f) {
        int slot = f.memberSlot;
        if (slot < 0 || slot >= size || heap[slot] != f) {
            throw new IllegalStateException(f.label() + " is not a member here");
        }
        f.memberSlot = -1;
        Flow last = heap[--size];
        heap[size] = null;
        if (slot == size) {
            return;
        }
        place(last, slot);
        siftDown(slot);
        if (last.memberSlot == slot) {
            siftUp(slot);
        }
    }

    /**
     * The members, in order, from the first up to the last whose tag {@code due} accepts; {@code due}
     * must accept a prefix of the order (a tag it refuses, it refuses every larger one). A node's
     * children have tags at least its own, so the walk stops on each branch at the first node refused.
     */
    List<Flow> firstWhile(DoublePredicate due) {
        List<Flow> out = new ArrayList<>(2);
        collect(0, due, out);
        out.sort(MembersByTag::compare);
        return out;
    }

    /** All members, in order. */
    List<Flow> inOrder() {
        List<Flow> out = new ArrayList<>(Arrays.asList(heap).subList(0, size));
        out.sort(MembersByTag::compare);
        return out;
    }

    private void collect(int slot, DoublePredicate due, List<Flow> out) {
        if (slot >= size || !due.test(heap[slot].tag)) {
            return;
        }
        out.add(heap[slot]);
        collect(2 * slot + 1, due, out);
        collect(2 * slot + 2, due, out);
    }

    private void place(Flow f, int slot) {
        heap[slot] = f;
        f.memberSlot = slot;
    }

    private void siftUp(int slot) {
        Flow f = heap[slot];
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            if (compare(f, heap[parent]) >= 0) {
                break;
            }
            place(heap[parent], slot);
            slot = parent;
        }
        place(f, slot);
    }

    private void siftDown(int slot) {
        Flow f = heap[slot];
        while (true) {
            int child = 2 * slot + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && compare(heap[child + 1], heap[child]) < 0) {
                child++;
            }
            if (compare(heap[child], f) >= 0) {
                break;
            }
            place(heap[child], slot);
            slot = child;
        }
        place(f, slot);
    }
}
