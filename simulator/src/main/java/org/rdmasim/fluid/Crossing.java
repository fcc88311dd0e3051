package org.rdmasim.fluid;

import java.util.Arrays;

/**
 * The flows crossing one resource (group pseudo-flows included, grouped members not): one side of the
 * flow/resource incidence, the other being each flow's path. Each entry also keeps where the resource
 * sits on that flow's path, and each flow keeps its slot here ({@link Flow#slotInResource}), so a flow
 * leaves in constant time and a flow's usage of this resource is read without searching its path (a
 * group's pseudo-flow crosses hundreds). SimGrid's lmm keeps the same two-way link in its Element
 * (src/kernel/lmm/System.hpp). Held by the {@link ResourceTable} by {@link Resource#number}, apart from
 * the resource, so that a resource knows nothing of flows.
 */
final class Crossing {
    // Slot 0 is held in fields, slots 1 and on in arrays (slot k at k - 1) made when a second flow comes:
    // most resources of a large run (a receiver's NICs and links) carry one flow at a time, and their
    // two-slot arrays, made when the resource was built and again each time a flow came back after the
    // last had left, were a tenth of a 65,536-transfer list's allocation. An emptied crossing keeps its
    // arrays: the table takes it off its resource and hands it to the next resource a flow enters (see
    // ResourceTable#leave), so a finished receiver's resources hold none, and the arrays the lanes of the
    // next striped receiver need (its four lanes share its GPU's links) are there already. Given back
    // at each emptying, they were made again for every receiver: ~50 MB of a 65,536-receiver fan-out's
    // garbage, grown through Arrays.copyOf, whose typed copy the launcher's C1 compiler leaves to a
    // reflective call (java.lang.reflect.Array.newInstance).
    private static final Flow[] NO_FLOWS = new Flow[0];
    private static final int[] NO_SLOTS = new int[0];
    /** What a resource no flow crosses reads as (see {@link ResourceTable#crossing}); nothing enters it. */
    static final Crossing EMPTY = new Crossing();
    private Flow first;
    private int firstIndex;
    private Flow[] flows = NO_FLOWS;
    private int[] pathIndex = NO_SLOTS;
    private int size;

    // No field for its resource (every caller has it at hand): with the first flow's two fields, a crossing
    // stays 32 bytes; the table holds one only while flows cross its resource (reused once emptied).
    Crossing() {
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The flow in slot {@code k}. */
    Flow flow(int k) {
        return k == 0 ? first : flows[k - 1];
    }

    /** Where the flow in slot {@code k} has this resource on its path. */
    private int indexAt(int k) {
        return k == 0 ? firstIndex : pathIndex[k - 1];
    }

    private void put(int k, Flow f, int i) {
        if (k == 0) {
            first = f;
            firstIndex = i;
        } else {
            flows[k - 1] = f;
            pathIndex[k - 1] = i;
        }
    }

    /** Adds {@code f}, on whose path this resource is at {@code i}, at the end; records the slot in {@code f}. */
    void add(Flow f, int i) {
        if (this == EMPTY) {
            throw new IllegalStateException("a flow enters a resource's crossing through ResourceTable.enter");
        }
        int k = size;
        if (k > 0 && k - 1 == flows.length) {
            int room = Math.max(2, 2 * k);
            Flow[] moreFlows = new Flow[room];
            System.arraycopy(flows, 0, moreFlows, 0, k - 1);
            flows = moreFlows;
            pathIndex = Arrays.copyOf(pathIndex, room);
        }
        f.slotInResource[i] = k;
        put(k, f, i);
        size = k + 1;
    }

    /** Takes out the flow in slot {@code slot}; the last flow takes its slot. */
    void remove(int slot) {
        int last = --size;
        if (slot != last) {
            Flow moved = flow(last);
            int i = indexAt(last);
            put(slot, moved, i);
            moved.slotInResource[i] = slot;
        }
        put(last, null, 0);
    }

    /** The flow in {@code slot} now finds this resource at {@code i} on its path (its path was shortened). */
    void moved(int slot, int i) {
        if (slot == 0) {
            firstIndex = i;
        } else {
            pathIndex[slot - 1] = i;
        }
    }

    /**
     * The load its flows (and a followed group) carry at their current rates on {@code resource}, the
     * resource this crossing is of, summed flow by flow.
     */
    double summedLoad(Resource resource) {
        double sum = resource.followedLoad();
        if (size > 0) {
            sum += first.rate * first.usage(firstIndex);
        }
        for (int k = 1; k < size; k++) {
            Flow f = flows[k - 1];
            sum += f.rate * f.usage(pathIndex[k - 1]);
        }
        return sum;
    }
}
