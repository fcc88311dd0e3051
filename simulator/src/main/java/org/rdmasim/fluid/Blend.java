package org.rdmasim.fluid;

/**
 * The load several groups put together on resources that only their members cross: the lanes of one
 * striped receiver, each frozen at a different source NIC (so each in its own group), meeting on the
 * receiver's memory or C2C link. Such a resource is crossed by every group's pseudo-flow, so in the solve
 * each receiver would add one resource to each of those pseudo-flows. Instead it follows the blend:
 * its load is {@code sum_i a_i x_i} over the groups' levels {@code x_i} with the members' summed usage
 * {@code a_i}, and its bytes and peak follow this blend's virtual clock and history like a resource
 * following one group.
 *
 * <p>Leaving the resource out of the solve is exact while it cannot bind: then max-min rates are the same
 * with and without it. Each group gets a budget, a level it may not reach, such that the groups all
 * below their budgets keep the load below the smallest capacity of the blend's resources: the slack
 * {@code C - sum_i a_i x_i} split evenly, {@code x_i + slack / (k a_i)} for {@code k} groups. The budget
 * joins the group's cap, so a group that would reach it is dissolved and solved flow by flow (as when a
 * member's threshold is reached). Budgets are renewed whenever a level of the blend changes.
 *
 * <p>Resources with the same groups and usages share one blend, so a level change costs one record per
 * blend, not one per receiver.
 */
final class Blend implements Level {
    /** The groups' levels, in the order of their resources' indices. */
    final Level[] parts;
    /** Summed usage of each part's members crossing one resource of the blend. */
    final double[] factors;
    private final double[] budget;
    /**
     * Capacities of the resources following this blend (only the smallest is read). A capacity changes
     * only after every group is dissolved ({@link FluidNetwork#setCapacity}), so no follower's changes
     * while counted.
     */
    private final Bounds followers = new Bounds();
    private final LevelHistory history = new LevelHistory();

    Blend(Level[] parts, double[] factors) {
        this.parts = parts;
        this.factors = factors;
        this.budget = new double[parts.length];
        history.record(level());
    }

    /** Load per resource: the parts' levels weighted by their usages, summed in part order. */
    @Override
    public double level() {
        double sum = 0;
        for (int i = 0; i < parts.length; i++) {
            sum += factors[i] * parts[i].level();
        }
        return sum;
    }

    @Override
    public double virtualTimeAt(double now) {
        double sum = 0;
        for (int i = 0; i < parts.length; i++) {
            sum += factors[i] * parts[i].virtualTimeAt(now);
        }
        return sum;
    }

    @Override
    public long levelRecord() {
        return history.latest();
    }

    @Override
    public double maxLevelSince(long from) {
        return history.maxSince(from, level());
    }

    /** A part's level changed: the load is recorded again and the budgets renewed. */
    void recordLevel() {
        history.record(level());
        renewBudgets();
    }

    void add(Resource r) {
        followers.add(r.capacity());
        renewBudgets();
    }

    /** Takes {@code r} off; returns whether the blend has no resource left. */
    boolean remove(Resource r) {
        followers.remove(r.capacity());
        if (followers.isEmpty()) {
            return true;
        }
        renewBudgets();
        return false;
    }

    /** Where {@code part} is among the parts (its first place), -1 for a level that is no part. */
    int partIndex(Level part) {
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] == part) {
                return i;
            }
        }
        return -1;
    }

    /** The level the part at {@code i} ({@link #partIndex}) must stay below; +Infinity for -1, no part. */
    double budget(int i) {
        return i < 0 ? Double.POSITIVE_INFINITY : budget[i];
    }

    private void renewBudgets() {
        if (followers.isEmpty()) {
            return;
        }
        double slack = followers.lowest() - level();
        for (int i = 0; i < parts.length; i++) {
            double x = parts[i].level();
            // No slack left (rounding at a full resource): the budget is the level itself, so the
            // group is dissolved when next solved.
            budget[i] = slack > 0 ? x + slack / (parts.length * factors[i]) : x;
        }
    }
}
