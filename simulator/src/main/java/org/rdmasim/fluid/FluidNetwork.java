package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.rdmasim.engine.SimulationClock;

/**
 * Flows over resources, kept at max-min fair rates as they come and go: the public face of the fluid
 * model (resources, starting, stopping and re-rating flows, observers, counters) and the wiring of the
 * parts that do the work. On an arrival or a completion only the region an event can affect is
 * re-solved ({@link RegionSolve}: rates elsewhere cannot change, max-min allocations decompose over the
 * components of the flow/resource graph), and only flows whose rate changed get their completion event
 * moved ({@link RegionUpdate}). Flows whose completions fall on the same instant finish in one event,
 * followed by one re-solve ({@link CompletionEvents}).
 *
 * <p>With {@link #grouping} on, flows frozen together at one resource become a {@link FlowGroup}: one
 * pseudo-flow in the solve and one completion event, so an event on a NIC with thousands of backlogged
 * flows costs a few heap operations instead of a pass over all of them ({@link FlowGroups}). The
 * flow-by-flow path stays the reference: a group is used only while its members would be frozen exactly
 * where the group is, and is otherwise dissolved and its region re-solved flow by flow; {@link #verifying}
 * checks every event against a solve from scratch ({@link MaxMinOracle}).
 */
public final class FluidNetwork {
    /**
     * Smallest group of flows sharing one bottleneck that is tracked as one (see {@link #grouping}).
     * Pairs and triples gain little and churn most; a fan-out's backlog on one NIC is hundreds.
     */
    public static final int DEFAULT_GROUP_MIN = 4;

    private final SimulationClock clock;
    private final ResourceTable table = new ResourceTable();
    final FlowNumbers numbers = new FlowNumbers();
    private final RunningFlows running = new RunningFlows(numbers, table);
    private final List<LoadObserver> observers = new ArrayList<>();
    // Wired bottom up: the schedule puts events on the clock, groups and the region update use it, and
    // a due event comes back here to the completion events, which re-solve through the region update.
    private final CompletionSchedule schedule;
    private final FlowGroups groups;
    private final RegionUpdate update;
    private final CompletionEvents completions;
    /** How deep {@link #together} calls are, and the seeds of the starts they hold back. */
    private int issuing;
    private final List<Resource[]> deferred = new ArrayList<>();
    private long nextFlowId;
    private FlowTap log;

    public FluidNetwork(SimulationClock clock) {
        this.clock = clock;
        this.schedule = new CompletionSchedule(clock, this::completionDue, this::groupCompletionDue);
        this.groups = new FlowGroups(numbers, running, table, schedule);
        this.update = new RegionUpdate(clock, table, numbers, groups, schedule, observers);
        this.completions = new CompletionEvents(clock, table, numbers, running, groups, update);
    }

    private void completionDue(Flow first) {
        completions.fire(first);
    }

    private void groupCompletionDue(FlowGroup g) {
        completions.fireGroup(g);
    }

    public SimulationClock clock() {
        return clock;
    }

    /** A resource known only by its name ({@link Limit#named}). */
    public Resource addResource(String name, ResourceKind kind, double capacityBytesPerSecond) {
        return addResource(Limit.named(name), kind, capacityBytesPerSecond);
    }

    /** A resource standing for {@code limit}, named by its id. */
    public Resource addResource(Limit limit, ResourceKind kind, double capacityBytesPerSecond) {
        return addResourceAt(reserve(1), limit, kind, capacityBytesPerSecond);
    }

    /**
     * Reserves {@code count} consecutive indices for resources built later with {@link #addResourceAt}
     * (or never, when nothing crosses them). Indices order resources in the solver's ties and in reports,
     * so a resource built late sits where it would have been built eagerly.
     *
     * @return the first reserved index
     */
    public int reserve(int count) {
        return table.reserve(count);
    }

    /** Builds the resource at a reserved index. */
    public Resource addResourceAt(int index, Limit limit, ResourceKind kind, double capacityBytesPerSecond) {
        return table.build(index, limit, kind, capacityBytesPerSecond);
    }

    /** The resource built at {@code index}, or null when that reserved index was never built. */
    public Resource resourceAt(int index) {
        return table.at(index);
    }

    /** Every built resource, in index order. */
    public List<Resource> resources() {
        return table.all();
    }

    /** Receives every change of a resource's load (for time series), on resources of every kind. */
    public void addObserver(LoadObserver observer) {
        addObserver(observer, EnumSet.allOf(ResourceKind.class));
    }

    /**
     * Receives every change of load on resources of the given kinds. A watched resource is never
     * followed lazily by a group (see {@link FlowGroup}), so its load changes are always reported.
     */
    public void addObserver(LoadObserver observer, Set<ResourceKind> kinds) {
        observers.add(observer);
        table.watch(kinds);
    }

    public long activeFlows() {
        return running.count();
    }

    /** Number of component solves and the total flows they covered (work done by the solver). */
    public long solves() {
        return update.solves();
    }

    public long flowsSolved() {
        return update.flowsSolved();
    }

    /**
     * Lets flows frozen together at one saturated resource share one rate and one completion event
     * (see {@link FlowGroup}) once at least {@code minMembers} of them are; 0 (the default) keeps every
     * flow on its own. Rates are the same max-min rates either way; finish times agree to rounding.
     * A member's private resources follow its group lazily, with no load notification, unless an
     * observer watches them (then they stay in the solve like shared ones).
     */
    public FluidNetwork grouping(int minMembers) {
        if (minMembers < 0 || minMembers == 1) {
            throw new IllegalArgumentException("a group needs at least 2 members (0 turns grouping off)");
        }
        groups.minMembers = minMembers;
        return this;
    }

    /** Re-solves every flow from scratch after each event and fails on any difference (tests only: slow). */
    public FluidNetwork verifying(boolean on) {
        update.verifying = on;
        return this;
    }

    /** Shows every flow started from now on to {@code into} (to pose the run again to another solver). */
    public FluidNetwork logging(FlowTap into) {
        this.log = into;
        return this;
    }

    /** Times a group had to be dissolved because its members stopped sharing one bottleneck. */
    public long groupFallbacks() {
        return update.groupFallbacks();
    }

    /**
     * Starts a flow now. A zero-byte flow finishes at once (its listener runs before this returns).
     *
     * @param rateCap bytes per second the flow may not exceed on its own, {@code +Infinity} for none
     */
    public Flow start(String label, List<Resource> path, double weight, double rateCap, long bytes,
            FlowListener listener) {
        return start(label, path, null, weight, rateCap, bytes, listener);
    }

    /**
     * Starts a flow whose bytes use {@code usage.get(i)} bytes of {@code path.get(i)} each (a resource
     * listed twice counts twice). {@code usage} null means 1 everywhere.
     */
    public Flow start(String label, List<Resource> path, List<Double> usage, double weight, double rateCap,
            long bytes, FlowListener listener) {
        return start(List.of(new FlowStart(() -> label, path, usage, weight, rateCap, bytes, listener))).get(0);
    }

    /**
     * Starts several flows now, in order, with one re-solve for all of them (the lanes of one transfer
     * leaving together): the rates are those of starting them one by one, without the solves between.
     * A zero-byte flow finishes at once, its listener run before this returns, as with one flow.
     */
    public List<Flow> start(List<FlowStart> starts) {
        List<Flow> out = new ArrayList<>(starts.size());
        // By index: an iterator per call (every lane start) is garbage the C1 compiler keeps.
        for (int i = 0; i < starts.size(); i++) {
            FlowStart s = starts.get(i);
            // All are checked before any starts: a bad one leaves the network as it was.
            out.add(newFlow(s.label(), s.path(), s.usage(), s.weight(), s.rateCap(), s.bytes()));
        }
        int seeds = 0;
        for (int i = 0; i < starts.size(); i++) {
            FlowStart s = starts.get(i);
            Flow f = out.get(i);
            if (log != null) {
                log.started(f);
            }
            if (s.bytes() == 0) {
                f.markFinished(clock.now());
                s.listener().finished(f);
                continue;
            }
            Resource[] p = f.pathArray();
            for (int k = 0, n = f.pathLength(); k < n; k++) {
                Resource q = p[k];
                // A member alone on q is ejected (with a second flow there q can bind it), and a resource
                // only members of one group (or of a blend of groups) crossed goes back into the solve.
                groups.arriving(q, clock.now());
            }
            running.started(f, s.listener());
            seeds += f.pathLength();
        }
        if (seeds > 0) {
            if (issuing > 0) {
                deferred.add(seedsOf(out, starts, new Resource[seeds]));
            } else {
                update.resolveAround(seedsOf(out, starts, update.seedArray(seeds)), seeds);
            }
        }
        return out;
    }

    /**
     * Runs {@code issue}, and re-solves the flows it started once, after it returns, as {@link #start(List)}
     * does for a list: for code that posts many transfers at one instant through calls of its own (an
     * NCCL group of sends), where a re-solve per start grows with everything already started and the
     * whole burst costs the square of its size. The rates are those of starting the flows one by one. Inside
     * the burst a flow it started runs at 0 B/s until the re-solve, so {@code issue} must not read rates;
     * if it throws, the flows it started before are re-solved all the same, so none is left without a rate.
     */
    public void together(Runnable issue) {
        issuing++;
        try {
            issue.run();
        } finally {
            issuing--;
            if (issuing == 0 && !deferred.isEmpty()) {
                int length = 0;
                for (Resource[] s : deferred) {
                    length += s.length;
                }
                Resource[] all = new Resource[length];
                int at = 0;
                for (Resource[] s : deferred) {
                    System.arraycopy(s, 0, all, at, s.length);
                    at += s.length;
                }
                deferred.clear();
                update.resolveAround(all);
            }
        }
    }

    /**
     * The paths of the started flows that carry bytes, one after the other, written from the start of
     * {@code seeds} (long enough for them): the seeds of their re-solve.
     */
    private static Resource[] seedsOf(List<Flow> flows, List<FlowStart> starts, Resource[] seeds) {
        int at = 0;
        for (int i = 0; i < flows.size(); i++) {
            if (starts.get(i).bytes() != 0) {
                Flow f = flows.get(i);
                System.arraycopy(f.pathArray(), 0, seeds, at, f.pathLength());
                at += f.pathLength();
            }
        }
        return seeds;
    }

    /** Checks a flow's arguments and builds it, its repeated resources merged (usages summed). */
    private Flow newFlow(Supplier<String> label, List<Resource> path, List<Double> usage, double weight, double rateCap,
            long bytes) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("flow " + label.get() + " crosses no resource");
        }
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("flow " + label.get() + " needs a positive weight");
        }
        if (!(rateCap > 0)) {
            throw new IllegalArgumentException("flow " + label.get() + " needs a positive rate cap");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("flow " + label.get() + " has negative size");
        }
        // Straight into the flow's arrays: every lane start builds one, and lists here cost a boxed usage
        // and a list of each per resource (the launcher's C1 compiler removes neither).
        // The usages are made only once one differs from 1: a lane crosses each resource once, and its
        // flow then reads them from Flow.ONES, shared (nothing writes a flow's usages but a group's
        // pseudo-flow, which has its own). An array of ones per lane was ~70 bytes of every lane in
        // flight, and a 65,536-receiver fan-out holds ~180,000 of them in its backlog, copied by each
        // young collection.
        int n = path.size();
        Resource[] p = new Resource[n];
        double[] u = null;
        int unique = 0;
        for (int i = 0; i < n; i++) {
            Resource r = path.get(i);
            double use = usage == null ? 1.0 : usage.get(i);
            if (!(use > 0)) {
                throw new IllegalArgumentException("flow " + label.get() + " has non-positive usage of " + r);
            }
            int at = 0;
            while (at < unique && p[at] != r) {
                at++;
            }
            if (at < unique) {
                u = u != null ? u : ones(n);
                u[at] += use;
            } else {
                p[unique] = r;
                if (u == null && use != 1.0) {
                    u = ones(n);
                }
                if (u != null) {
                    u[unique] = use;
                }
                unique++;
            }
        }
        if (unique < n) {
            Resource[] fewer = new Resource[unique];
            System.arraycopy(p, 0, fewer, 0, unique);
            p = fewer;
        }
        if (u == null) {
            u = unique <= Flow.ONES.length ? Flow.ONES : ones(unique);
        } else if (unique < n) {
            u = Arrays.copyOf(u, unique);
        }
        return new Flow(nextFlowId++, label, p, u, weight, rateCap, bytes, clock.now());
    }

    /** {@code n} usages of 1. */
    private static double[] ones(int n) {
        double[] u = new double[n];
        Arrays.fill(u, 1.0);
        return u;
    }

    /**
     * Stops a running flow now without completing it (a lane whose port went down, a transfer that
     * failed): the bytes it moved so far stay counted on its resources, the rest is returned and its
     * listener is not called. Rates around it are re-solved.
     *
     * @return bytes the flow had still to deliver
     */
    public double abort(Flow f) {
        if (f.isFinished()) {
            throw new IllegalStateException("flow " + f.label() + " has already ended");
        }
        double now = clock.now();
        if (log != null) {
            log.aborted(f);
        }
        int saved = groups.minMembers;
        groups.minMembers = 0;
        try {
            dissolveAllGroups(now);
            f.settle(now);
            running.detach(f);
            if (f.completion != null) {
                f.completion.cancel();
            }
            double left = f.remaining;
            f.markAborted(now);
            running.ended(f);
            update.resolveAround(f.path());
            return left;
        } finally {
            groups.minMembers = saved;
        }
    }

    /**
     * Sets a resource's capacity now (a port renegotiated to a lower rate, a degraded link, and back):
     * the flows crossing it are re-solved from this instant. Groups are dissolved first so the change
     * is solved flow by flow; they form again at later events. Faults are rare, so this costs one pass.
     */
    public void setCapacity(Resource r, double capacityBytesPerSecond) {
        setCapacity(r, capacityBytesPerSecond, r.limit());
    }

    /**
     * As {@link #setCapacity(Resource, double)}, and from now on a flow this resource holds is credited to
     * {@code heldAs} (a fault's degraded rate, named as such) instead of the resource's own limit. The flows
     * crossing it are settled first, so the time before now stays with the limit that held them then.
     */
    public void setCapacity(Resource r, double capacityBytesPerSecond, Limit heldAs) {
        double now = clock.now();
        if (heldAs != r.heldAs()) {
            int saved = groups.minMembers;
            groups.minMembers = 0;
            try {
                dissolveAllGroups(now);
                Crossing c = table.crossing(r);
                for (int k = 0; k < c.size(); k++) {
                    c.flow(k).settle(now);
                }
            } finally {
                groups.minMembers = saved;
            }
            r.holdAs(heldAs);
        }
        setCapacityNow(r, capacityBytesPerSecond, now);
    }

    private void setCapacityNow(Resource r, double capacityBytesPerSecond, double now) {
        if (log != null) {
            log.capacityChanged(r);
        }
        int saved = groups.minMembers;
        // No group may form while the change is solved: a group's cap is built from capacities.
        groups.minMembers = 0;
        try {
            dissolveAllGroups(now);
            r.setCapacity(capacityBytesPerSecond);
            update.resolveAround(new Resource[] {r});
        } finally {
            groups.minMembers = saved;
        }
    }

    /** Puts every grouped flow back on its own, re-solved at the rates it had (no rate changes). */
    private void dissolveAllGroups(double now) {
        List<FlowGroup> all = new ArrayList<>();
        List<Resource> seeds = new ArrayList<>();
        for (Resource r : resources()) {
            FlowGroup g = groups.groupAt(r);
            if (g != null) {
                all.add(g);
            }
        }
        if (all.isEmpty()) {
            return;
        }
        for (FlowGroup g : all) {
            for (Flow m : g.byTag.inOrder()) {
                m.addPathTo(seeds);
            }
        }
        groups.dissolve(all, now);
        update.resolveAround(seeds.toArray(new Resource[0]));
    }

    /** The group {@code f} runs in, or null (for checks and tests). */
    FlowGroup groupOf(Flow f) {
        return groups.groupOf(f);
    }

    /** The group at {@code r}, or null (for checks and tests). */
    FlowGroup groupAt(Resource r) {
        return groups.groupAt(r);
    }

    /** The group {@code r} follows lazily, or null (for checks and tests). */
    FlowGroup followedBy(Resource r) {
        return groups.followedBy(r);
    }

    /** How many groups {@code r} follows as a blend, 0 when none (for checks and tests). */
    int blendedGroups(Resource r) {
        Level[] parts = groups.blendedAt(r);
        return parts == null ? 0 : parts.length;
    }

    /** The one member {@code r} carries while it follows that member's group, or null (for checks and tests). */
    Flow lazyMember(Resource r) {
        return groups.lazyMember(r);
    }

    /**
     * Checks the invariants of a max-min allocation at this instant and returns the violations (empty
     * when all hold); see {@link MaxMinOracle#invariantViolations()}.
     */
    public List<String> invariantViolations() {
        return oracle().invariantViolations();
    }

    /** The checking oracle over this network's resources and flows at this instant. */
    MaxMinOracle oracle() {
        return new MaxMinOracle(table, groups, clock.now());
    }
}
