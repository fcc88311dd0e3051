package org.rdmasim.fluid;

import java.util.Arrays;

/**
 * Which running flows cross each resource (their {@link Crossing}s, and each flow's slot in the
 * crossings of its path so it leaves in constant time), how many flows run, and whom to tell when each
 * finishes: the listener of a flow is kept here by its {@link Flow#number}, so a flow does not know
 * who listens. Group pseudo-flows sit in the crossings too but are not counted as running flows.
 */
final class RunningFlows {
    private final FlowNumbers numbers;
    private final ResourceTable resources;
    private long count;
    /** By {@link Flow#number}: the listener of the running flow holding that number. */
    private FlowListener[] listeners = new FlowListener[16];

    RunningFlows(FlowNumbers numbers, ResourceTable resources) {
        this.numbers = numbers;
        this.resources = resources;
    }

    long count() {
        return count;
    }

    /** A flow starts: it takes a number and enters the crossing of every resource on its path. */
    void started(Flow f, FlowListener listener) {
        numbers.assign(f);
        if (f.number >= listeners.length) {
            listeners = Arrays.copyOf(listeners, Math.max(f.number + 1, 2 * listeners.length));
        }
        listeners[f.number] = listener;
        attach(f);
        for (int at = 0, ends = f.pathLength(); at < ends; at++) {
            Resource q = f.pathArray()[at];
            q.activeFlows++;
        }
        count++;
    }

    /**
     * A running flow finished or was stopped (it is already out of every crossing): it gives back its
     * number.
     *
     * @return its listener
     */
    FlowListener ended(Flow f) {
        count--;
        for (int at = 0, ends = f.pathLength(); at < ends; at++) {
            Resource q = f.pathArray()[at];
            q.activeFlows--;
        }
        FlowListener listener = listeners[f.number];
        listeners[f.number] = null;
        numbers.release(f);
        return listener;
    }

    /** Puts {@code f} in the crossing of every resource on its path. */
    void attach(Flow f) {
        Resource[] p = f.pathArray();
        if (f.slotInResource == null) {
            // A member put back on its own (its array was dropped when it joined its group).
            f.slotInResource = new int[p.length];
        }
        for (int i = 0, ends = f.pathLength(); i < ends; i++) {
            resources.enter(p[i], f, i);
        }
    }

    /** Takes {@code f} out of the crossing of every resource on its path (the last flow of each takes its slot). */
    void detach(Flow f) {
        Resource[] p = f.pathArray();
        for (int i = 0, ends = f.pathLength(); i < ends; i++) {
            resources.leave(p[i], f.slotInResource[i]);
        }
    }
}
