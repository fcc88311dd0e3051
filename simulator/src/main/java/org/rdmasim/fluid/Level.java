package org.rdmasim.fluid;

/**
 * A rate per unit weight shared by several flows, with its history: what a flow running in a
 * {@link FlowGroup} and a resource following one lazily read of it. The flow's rate is its weight times
 * the level; the resource's load is a fixed factor times the level, and its bytes and peak follow the
 * level's virtual clock and history. An interface so that flows and resources, at the bottom of the data
 * model, read a group's level without knowing groups (the group knows them).
 */
interface Level {
    /** Rate per unit weight now. */
    double level();

    /** Bytes per unit weight delivered at this level since it began, as of {@code now}. */
    double virtualTimeAt(double now);

    /** Number of the latest entry of the level's history. */
    long levelRecord();

    /** Highest level recorded since record {@code from} (inclusive), and the current one. */
    double maxLevelSince(long from);
}
