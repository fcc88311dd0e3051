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
    final Resource resource;
    // Two to start: most resources of a large run (a receiver's NICs and links) carry one or two flows.
    // Given back when the last flow leaves (a finished receiver's resources stay empty for the rest of
    // the run: at 128k receivers their arrays were ~44 MB).
    private static final Flow[] NO_FLOWS = new Flow[0];
    private static final int[] NO_SLOTS = new int[0];
    private Flow[] flows = new Flow[2];
    private int[] pathIndex = new int[2];
    private int size;

    Crossing(Resource resource) {
        this.resource = resource;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The flow in slot {@code k}. */
    Flow flow(int k) {
        return flows[k];
    }

    /** Adds {@code f}, on whose path this resource is at {@code i}, at the end; records the slot in {@code f}. */
    void add(Flow f, int i) {
        if (size == flows.length) {
            flows = Arrays.copyOf(flows, Math.max(2, 2 * size));
            pathIndex = Arrays.copyOf(pathIndex, Math.max(2, 2 * size));
        }
        f.slotInResource[i] = size;
        flows[size] = f;
        pathIndex[size++] = i;
    }

    /** Takes out the flow in slot {@code slot}; the last flow takes its slot. */
    void remove(int slot) {
        int last = --size;
        if (slot != last) {
            Flow moved = flows[last];
            flows[slot] = moved;
            pathIndex[slot] = pathIndex[last];
            moved.slotInResource[pathIndex[last]] = slot;
        }
        flows[last] = null;
        if (last == 0) {
            flows = NO_FLOWS;
            pathIndex = NO_SLOTS;
        }
    }

    /** The flow in {@code slot} now finds this resource at {@code i} on its path (its path was shortened). */
    void moved(int slot, int i) {
        pathIndex[slot] = i;
    }

    /** The load its flows (and a followed group) carry at their current rates, summed flow by flow. */
    double summedLoad() {
        double sum = resource.followedLoad();
        for (int k = 0; k < size; k++) {
            Flow f = flows[k];
            sum += f.rate * f.usage(pathIndex[k]);
        }
        return sum;
    }
}
