package org.rdmasim.fluid;

import java.util.Arrays;

/**
 * Dense numbers for the flows running in one {@link FluidNetwork} (group pseudo-flows included): a
 * flow takes one when it starts and gives it back when it ends, so the numbers stay below the most
 * flows ever running at once and the solver's per-flow scratch fits in arrays of that length. Which
 * number a flow gets changes nothing in its rates: solve order follows resource lists and flow ids.
 */
final class FlowNumbers {
    private int[] free = new int[16];
    private int freeCount;
    private int limit;

    /** Gives {@code f} a number: the last one given back, or a new one. */
    void assign(Flow f) {
        if (f.number >= 0) {
            throw new IllegalStateException("flow " + f + " already has number " + f.number);
        }
        f.number = freeCount > 0 ? free[--freeCount] : limit++;
    }

    /** Takes {@code f}'s number back for a later flow; {@code f} must be out of every resource list. */
    void release(Flow f) {
        if (f.number < 0) {
            throw new IllegalStateException("flow " + f + " has no number to give back");
        }
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, 2 * freeCount);
        }
        free[freeCount++] = f.number;
        f.number = -1;
    }

    /** One more than the largest number given so far: the length per-flow arrays need. */
    int limit() {
        return limit;
    }
}
