package org.rdmasim.fluid;

import java.util.List;

/**
 * Which running flows cross each resource (its list, and each flow's slot in the lists of its path so
 * it leaves in constant time), and how many flows run. Group pseudo-flows sit in the lists too but are
 * not counted as running flows.
 */
final class RunningFlows {
    private final FlowNumbers numbers;
    private long count;

    RunningFlows(FlowNumbers numbers) {
        this.numbers = numbers;
    }

    long count() {
        return count;
    }

    /** A flow starts: it takes a number and enters the list of every resource on its path. */
    void started(Flow f) {
        numbers.assign(f);
        attach(f);
        count++;
    }

    /** A running flow finished or was stopped (it is already out of every resource list). */
    void ended(Flow f) {
        count--;
        numbers.release(f);
    }

    /** Puts {@code f} in the list of every resource on its path. */
    void attach(Flow f) {
        Resource[] p = f.pathInternal();
        for (int i = 0; i < p.length; i++) {
            f.slotInResource[i] = p[i].flows.size();
            p[i].flows.add(f);
        }
    }

    /** Takes {@code f} out of the list of every resource on its path (the last flow of a list takes its slot). */
    static void detach(Flow f) {
        Resource[] p = f.pathInternal();
        for (int i = 0; i < p.length; i++) {
            List<Flow> list = p[i].flows;
            int slot = f.slotInResource[i];
            Flow last = list.remove(list.size() - 1);
            if (last != f) {
                list.set(slot, last);
                last.slotInResource[indexOf(last.pathInternal(), p[i])] = slot;
            }
        }
    }

    static int indexOf(Resource[] path, Resource r) {
        for (int i = 0; i < path.length; i++) {
            if (path[i] == r) {
                return i;
            }
        }
        throw new IllegalStateException("flow does not cross " + r);
    }
}
