package org.rdmasim.fluid;

import java.util.ArrayList;

/**
 * What one region solve moved ({@link RegionSolve#solveAround}): the flows it re-rated, each with the
 * rate and limit it ran at before (its new ones are on the flow), and every resource those flows
 * cross, with the load it carries at the new rates. It says nothing of time: the network settles the
 * flows' bytes at the old rates, moves their completion events and records the new loads
 * ({@link RegionUpdate}), or puts the old rates back with {@link #rollBack} when it cannot use the solve.
 * Valid until the next solve.
 */
interface RateChanges {
    /**
     * The flows of the region (group pseudo-flows included), in the order they joined it. Typed as ArrayList:
     * walked by index several times per event, and the launcher's C1 compiler inlines ArrayList's get and
     * size where called on the class, but calls them through the List interface (an itable dispatch each).
     */
    ArrayList<Flow> flows();

    /** The rate {@code flows().get(i)} had before the solve. */
    double rateBefore(int i);

    /** The limit {@code flows().get(i)} ran under before the event that led to the solve. */
    Limit limitBefore(int i);

    /** How many resources the region's flows cross (with the seeds, which may have lost their last flow). */
    int touchedCount();

    Resource touched(int t);

    /**
     * The load {@code touched(t)} carries at the new rates: summed flow by flow on a resource with few
     * flows, else the load from outside the region plus the region's.
     */
    double loadAfter(int t);

    /** Puts back the rates, bottlenecks and own-cap marks the flows had before the solve's last round. */
    void rollBack();
}
