package org.rdmasim.fluid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.rdmasim.engine.SimulationClock;

/**
 * Flows over resources, kept at max-min fair rates as they come and go. On an arrival or a
 * completion only the connected component of the resources involved is re-solved (rates elsewhere
 * cannot change: max-min allocations decompose over the components of the flow/resource graph), and
 * only flows whose rate changed get their completion event moved. Flows whose completions fall on
 * the same instant finish in one event, followed by one re-solve.
 *
 * <p>With {@link #grouping} on, flows frozen together at one resource become a {@link FlowGroup}: one
 * pseudo-flow in the solve and one completion event, so an event on a NIC with thousands of backlogged
 * flows costs a few heap operations instead of a pass over all of them. The flow-by-flow path stays the
 * reference: a group is used only while its members would be frozen exactly where the group is, and is
 * otherwise dissolved and its region re-solved flow by flow; {@link #verifying} checks every event
 * against a solve from scratch.
 *
 * <p>Why one class of this size: the incremental region re-solve and the same-instant completions
 * mutate the same per-resource and per-flow state inside one event, and the re-solve's fixed point
 * (every saturated resource holds only re-solved or unchanged flows) holds across those steps. What
 * could stand apart does: group behaviour ({@link FlowGroups}, {@link FlowGroup}), the solver
 * ({@link MaxMinSolver}) and the checking oracle ({@link MaxMinOracle}).
 */
public final class FluidNetwork {
    /**
     * Two completions closer than this are the same instant. One picosecond is far below anything the
     * model resolves (PCIe switch hops are ~100 ns) and well above double rounding at second scales.
     */
    static final double SAME_INSTANT_SECONDS = 1e-12;

    /**
     * When the next pending event is further away than this (relative, like SAME_INSTANT_SECONDS), no
     * other flow can finish at this instant. A thousand times the same-instant window: a flow's pending
     * completion time and its finish recomputed after a settle differ by a few ulps at most.
     */
    static final double NOTHING_ELSE_DUE = 1e-9;

    private final SimulationClock clock;
    private final FlowGroups groups = new FlowGroups(this);
    private final MaxMinSolver solver = new MaxMinSolver();
    /**
     * Resources by index. An index may be reserved ahead and its resource built on first use (see
     * {@link #reserve}), so a cluster of 100k hosts does not hold the ~30 links of every host when a
     * fan-out crosses a dozen of them; reserved-but-unbuilt indices are null.
     */
    private Resource[] byIndex = new Resource[16];
    private int indices;
    private int built;
    private final List<LoadObserver> observers = new ArrayList<>();
    private final Set<ResourceKind> watchedKinds = EnumSet.noneOf(ResourceKind.class);
    private long nextFlowId;
    int componentMark;
    private long activeFlows;
    private long solves;
    private long flowsSolved;
    /** Smallest number of flows frozen together at one resource that forms a group; 0 turns grouping off. */
    int groupMin;
    private boolean verifying;
    long groupFallbacks;
    private FlowLog log;

    public FluidNetwork(SimulationClock clock) {
        this.clock = clock;
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
        if (count < 0) {
            throw new IllegalArgumentException("cannot reserve " + count + " resources");
        }
        int first = indices;
        indices = Math.addExact(indices, count);
        if (indices > byIndex.length) {
            byIndex = Arrays.copyOf(byIndex, Math.max(indices, 2 * byIndex.length));
        }
        return first;
    }

    /** Builds the resource at a reserved index. */
    public Resource addResourceAt(int index, Limit limit, ResourceKind kind, double capacityBytesPerSecond) {
        if (index < 0 || index >= indices || byIndex[index] != null) {
            throw new IllegalArgumentException("index " + index + " is not reserved or already holds " + byIndex[index]);
        }
        Resource r = new Resource(index, limit, kind, capacityBytesPerSecond);
        r.watched = watchedKinds.contains(kind);
        byIndex[index] = r;
        built++;
        return r;
    }

    /** The resource built at {@code index}, or null when that reserved index was never built. */
    public Resource resourceAt(int index) {
        return byIndex[index];
    }

    /** Every built resource, in index order. */
    public List<Resource> resources() {
        List<Resource> out = new ArrayList<>(built);
        for (int i = 0; i < indices; i++) {
            if (byIndex[i] != null) {
                out.add(byIndex[i]);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** One more than the largest index reserved so far. */
    int indexLimit() {
        return indices;
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
        watchedKinds.addAll(kinds);
        for (Resource r : resources()) {
            if (kinds.contains(r.kind())) {
                if (r.lazyGroup != null) {
                    throw new IllegalStateException("observers must be added before flows start");
                }
                r.watched = true;
            }
        }
    }

    public long activeFlows() {
        return activeFlows;
    }

    /** Number of component solves and the total flows they covered (work done by the solver). */
    public long solves() {
        return solves;
    }

    public long flowsSolved() {
        return flowsSolved;
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
        groupMin = minMembers;
        return this;
    }

    /** Re-solves every flow from scratch after each event and fails on any difference (tests only: slow). */
    public FluidNetwork verifying(boolean on) {
        verifying = on;
        return this;
    }

    /** Keeps every flow started from now on in {@code into}, to pose the run again as a {@link FlowProblem}. */
    public FluidNetwork logging(FlowLog into) {
        this.log = into;
        return this;
    }

    /** Times a group had to be dissolved because its members stopped sharing one bottleneck. */
    public long groupFallbacks() {
        return groupFallbacks;
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
        if (path.isEmpty()) {
            throw new IllegalArgumentException("flow " + label + " crosses no resource");
        }
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("flow " + label + " needs a positive weight");
        }
        if (!(rateCap > 0)) {
            throw new IllegalArgumentException("flow " + label + " needs a positive rate cap");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("flow " + label + " has negative size");
        }
        List<Resource> unique = new ArrayList<>(path.size());
        List<Double> factors = new ArrayList<>(path.size());
        for (int i = 0; i < path.size(); i++) {
            double u = usage == null ? 1.0 : usage.get(i);
            if (!(u > 0)) {
                throw new IllegalArgumentException("flow " + label + " has non-positive usage of " + path.get(i));
            }
            int at = unique.indexOf(path.get(i));
            if (at >= 0) {
                factors.set(at, factors.get(at) + u);
            } else {
                unique.add(path.get(i));
                factors.add(u);
            }
        }
        Resource[] p = unique.toArray(new Resource[0]);
        double[] u = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            u[i] = factors.get(i);
        }
        Flow f = new Flow(nextFlowId++, label, p, u, weight, rateCap, bytes, clock.now(), listener);
        if (log != null) {
            log.started(f);
        }
        if (bytes == 0) {
            f.markFinished(clock.now());
            listener.finished(f);
            return f;
        }
        for (Resource q : p) {
            if (q.lazyMember != null) {
                // The member was alone on q; with a second flow there q is shared and can bind it.
                groups.eject(q.lazyMember, clock.now());
            } else if (q.lazyGroup != null) {
                // Only members of one group crossed q; with another flow there it goes back into the solve.
                FlowGroups.unshare(q, clock.now());
            }
        }
        for (int i = 0; i < p.length; i++) {
            f.slotInResource[i] = p[i].flows.size();
            p[i].flows.add(f);
        }
        activeFlows++;
        resolveAround(p);
        return f;
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
        int saved = groupMin;
        groupMin = 0;
        try {
            dissolveAllGroups(now);
            f.settle(now);
            detach(f);
            if (f.completion != null) {
                f.completion.cancel();
            }
            double left = f.remaining;
            f.markAborted(now);
            activeFlows--;
            resolveAround(f.pathInternal());
            return left;
        } finally {
            groupMin = saved;
        }
    }

    /**
     * Sets a resource's capacity now (a port renegotiated to a lower rate, a degraded link, and back):
     * the flows crossing it are re-solved from this instant. Groups are dissolved first so the change
     * is solved flow by flow; they form again at later events. Faults are rare, so this costs one pass.
     */
    public void setCapacity(Resource r, double capacityBytesPerSecond) {
        double now = clock.now();
        if (log != null) {
            log.capacityChanged(r);
        }
        int saved = groupMin;
        // No group may form while the change is solved: a group's cap is built from capacities.
        groupMin = 0;
        try {
            dissolveAllGroups(now);
            r.setCapacity(capacityBytesPerSecond);
            resolveAround(new Resource[] {r});
        } finally {
            groupMin = saved;
        }
    }

    /** Puts every grouped flow back on its own, re-solved at the rates it had (no rate changes). */
    private void dissolveAllGroups(double now) {
        List<FlowGroup> all = new ArrayList<>();
        List<Resource> seeds = new ArrayList<>();
        for (Resource r : resources()) {
            if (r.group != null) {
                all.add(r.group);
            }
        }
        if (all.isEmpty()) {
            return;
        }
        for (FlowGroup g : all) {
            for (Flow m : g.byTag) {
                Collections.addAll(seeds, m.pathInternal());
            }
        }
        groups.dissolve(all, now);
        resolveAround(seeds.toArray(new Resource[0]));
    }

    void onCompletionEvent(Flow first) {
        double now = clock.now();
        boolean groupEvent = first.aggregate != null;
        if (groupEvent) {
            FlowGroup g = first.aggregate;
            if (g.byTag.isEmpty()) {
                return;
            }
            g.advance(now);
            // The group's event is its smallest tag's: that member is the one due now.
            first = g.byTag.first();
        } else if (first.isFinished()) {
            return;
        }
        List<Flow> finishing = new ArrayList<>();
        if (!groupEvent && clock.nextEventTime() - now > NOTHING_ELSE_DUE * Math.max(1.0, now)) {
            // No other event is pending within far more than SAME_INSTANT_SECONDS (plus rounding
            // between a flow's scheduled time and its settled finish), so no other flow finishes now:
            // skip scanning the flows beside it, which on a busy resource costs as much as the re-solve.
            finishing.add(first);
        } else {
            // Flows finishing at this same instant on the resources this flow crossed finish in this
            // event too (their own events are cancelled), so one re-solve covers them all. Looking only
            // at those resources keeps the work proportional to what the event touches.
            List<Flow> componentFlows = new ArrayList<>();
            int mark = ++componentMark;
            for (Resource r : first.pathInternal()) {
                for (Flow f : r.flows) {
                    if (f.componentMark != mark) {
                        f.componentMark = mark;
                        componentFlows.add(f);
                    }
                }
            }
            if (first.group != null) {
                // A member is in no resource list: it leads, and the scan below adds whoever else is due.
                finishing.add(first);
            }
            for (Flow f : componentFlows) {
                if (f.aggregate != null) {
                    addMembersFinishing(f.aggregate, first, now, finishing);
                } else if (f == first || finishesNow(f, now)) {
                    finishing.add(f);
                }
            }
        }
        for (Flow f : finishing) {
            if (f.group != null) {
                groups.leave(f, now, false);
            } else {
                f.settle(now);
                detach(f);
            }
            if (f.completion != null) {
                f.completion.cancel();
            }
            f.markFinished(now);
            activeFlows--;
        }
        List<Resource> touched = new ArrayList<>();
        for (Flow f : finishing) {
            Collections.addAll(touched, f.pathInternal());
        }
        resolveAround(touched.toArray(new Resource[0]));
        for (Flow f : finishing) {
            f.listener.finished(f);
        }
    }

    /** Members of {@code g} other than {@code skip} whose finish falls within the same instant. */
    private static void addMembersFinishing(FlowGroup g, Flow skip, double now, List<Flow> out) {
        g.advance(now);
        double level = g.level();
        if (!(level > 0)) {
            return;
        }
        double v = g.virtualTimeAt(now);
        for (Flow m : g.byTag) {
            // Tags are in order, so finish times are too: stop at the first one not due now.
            if ((m.tag - v) / level > SAME_INSTANT_SECONDS * Math.max(1.0, now)) {
                break;
            }
            if (m != skip) {
                out.add(m);
            }
        }
    }

    private static boolean finishesNow(Flow f, double now) {
        if (f.rate <= 0) {
            return false;
        }
        double finish = f.lastSettled + f.remaining / f.rate;
        return finish - now <= SAME_INSTANT_SECONDS * Math.max(1.0, now);
    }

    void detach(Flow f) {
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

    /**
     * Re-solves the flows an event can affect and reschedules those whose rate changed.
     *
     * <p>Which flows: start from the resources of the arriving or departing flows, take every flow on
     * them, and keep walking only through resources that are saturated (or are a flow's bottleneck).
     * A flow reached only through unsaturated resources keeps its rate: its own bottleneck is
     * untouched. Those unsaturated resources enter the solve with the load of the untouched flows
     * taken off their capacity. If the new rates saturate such a resource, its other flows may now be
     * limited there, so the region grows to include them and is solved again. At the fixed point every
     * saturated resource holds only re-solved flows or unchanged ones, which is the max-min condition.
     */
    private void resolveAround(Resource[] seeds) {
        // A pass fails only after dissolving at least one group, so this ends.
        while (!resolveOnce(seeds)) {
            groupFallbacks++;
        }
        if (verifying) {
            MaxMinOracle oracle = new MaxMinOracle(this);
            List<String> bad = oracle.scratchMismatches();
            bad.addAll(oracle.invariantViolations());
            if (!bad.isEmpty()) {
                throw new IllegalStateException("at t=" + clock.now() + ": " + String.join("; ", bad));
            }
        }
    }

    /** One pass of {@link #resolveAround}; false when a group had to be dissolved (nothing was applied). */
    private boolean resolveOnce(Resource[] seeds) {
        double now = clock.now();
        int mark = ++componentMark;
        // Scratch kept between passes (a pass never runs inside another): no garbage per event.
        List<Flow> flows = regionFlows;
        List<Resource> visited = regionVisited;
        ArrayDeque<Resource> queue = regionQueue;
        List<Resource> touched = regionTouched;
        flows.clear();
        visited.clear();
        queue.clear();
        touched.clear();
        for (Resource r : seeds) {
            if (r.componentMark != mark) {
                r.componentMark = mark;
                queue.add(r);
            }
        }
        while (true) {
            expand(queue, mark, flows, visited);
            // Every resource on a region flow: visited ones hold only region flows; others keep outside load.
            touched.clear();
            int edgeMark = ++componentMark;
            for (Resource q : visited) {
                // Visited resources include the seeds, which may have lost their last flow.
                if (q.stamp != -edgeMark) {
                    q.stamp = -edgeMark;
                    q.solvedLoad = 0;
                    touched.add(q);
                }
            }
            for (Flow f : flows) {
                for (Resource q : f.pathInternal()) {
                    if (q.stamp != -edgeMark) {
                        q.stamp = -edgeMark;
                        q.solvedLoad = 0;
                        touched.add(q);
                    }
                }
            }
            for (Flow f : flows) {
                Resource[] p = f.pathInternal();
                for (int i = 0; i < p.length; i++) {
                    p[i].solvedLoad += f.rate * f.usage(i);
                }
            }
            for (Resource q : touched) {
                q.outsideLoad = q.componentMark == mark ? 0.0 : Math.max(0.0, q.load() - q.solvedLoad);
                // The stamp field doubles as scratch above; the solver resets it.
            }
            for (Flow f : flows) {
                f.settle(now);
            }
            if (oldRates.length < flows.size()) {
                int n = Math.max(flows.size(), 2 * oldRates.length);
                oldRates = new double[n];
                oldBottlenecks = new Resource[n];
                oldCapped = new boolean[n];
            }
            for (int i = 0; i < flows.size(); i++) {
                oldRates[i] = flows.get(i).rate;
            }
            // What a group fallback must restore besides rates.
            for (int i = 0; i < flows.size(); i++) {
                oldBottlenecks[i] = flows.get(i).bottleneck;
                oldCapped[i] = flows.get(i).cappedByItself;
            }
            solver.solve(flows, touched);
            solves++;
            flowsSolved += flows.size();
            // The region's new load on each resource and how many region flows cross it, gathered from
            // the region's own paths so the cost follows the region, not the resource's whole flow list.
            for (Resource q : touched) {
                q.regionLoad = 0;
                q.regionFlows = 0;
            }
            for (Flow f : flows) {
                Resource[] p = f.pathInternal();
                for (int i = 0; i < p.length; i++) {
                    p[i].regionLoad += f.rate * f.usage(i);
                    p[i].regionFlows++;
                }
            }
            boolean grew = false;
            for (Resource q : touched) {
                if (q.componentMark == mark) {
                    continue;
                }
                double newLoad = q.outsideLoad + q.regionLoad;
                if (q.regionFlows < q.flows.size() && newLoad >= q.capacity() * (1 - SATURATED)) {
                    q.componentMark = mark;
                    queue.add(q);
                    grew = true;
                }
            }
            if (!grew) {
                List<FlowGroup> broken = FlowGroups.brokenGroups(flows);
                if (!broken.isEmpty()) {
                    // Judged on the new rates, dissolved at the old ones (members keep the rate they ran at
                    // until now), then the caller re-solves.
                    for (int i = 0; i < flows.size(); i++) {
                        Flow f = flows.get(i);
                        f.rate = oldRates[i];
                        f.bottleneck = oldBottlenecks[i];
                        f.cappedByItself = oldCapped[i];
                    }
                    groups.dissolve(broken, now);
                    return false;
                }
                for (int i = 0; i < flows.size(); i++) {
                    Flow f = flows.get(i);
                    if (f.aggregate != null) {
                        // Its smallest tag may have changed even when its level did not.
                        groups.scheduleGroup(f.aggregate, now);
                        if (f.rate != oldRates[i]) {
                            f.aggregate.recordLevel();
                        }
                    } else if (f.rate != oldRates[i] || f.completion == null || !f.completion.isPending()) {
                        schedule(f, now);
                    }
                }
                break;
            }
            // Roll back to the old rates before re-solving the larger region (they are the outside
            // loads the next round subtracts).
            for (int i = 0; i < flows.size(); i++) {
                flows.get(i).rate = oldRates[i];
            }
        }
        for (Resource r : touched) {
            // Small resources are summed exactly; busy ones as outside plus region load, which keeps the
            // work proportional to the region (drift stays far below the 1e-9 saturation slack).
            double load = r.flows.size() <= EXACT_LOAD_FLOWS ? loadOf(r)
                    : (r.componentMark == mark ? r.regionLoad : r.outsideLoad + r.regionLoad);
            if (load != r.load()) {
                r.setLoad(now, load);
                for (LoadObserver o : observers) {
                    o.loadChanged(r, now, load);
                }
            }
        }
        if (groupMin > 0) {
            groups.formGroups(flows, now);
        }
        return true;
    }

    private final List<Flow> regionFlows = new ArrayList<>();
    private final List<Resource> regionVisited = new ArrayList<>();
    private final List<Resource> regionTouched = new ArrayList<>();
    private final ArrayDeque<Resource> regionQueue = new ArrayDeque<>();
    private double[] oldRates = new double[16];
    private Resource[] oldBottlenecks = new Resource[16];
    private boolean[] oldCapped = new boolean[16];

    /** Resources with at most this many flows have their load summed exactly after each solve. */
    private static final int EXACT_LOAD_FLOWS = 64;

    /** Relative slack under which a resource counts as saturated. */
    static final double SATURATED = 1e-9;

    private void expand(ArrayDeque<Resource> queue, int mark, List<Flow> flows, List<Resource> visited) {
        while (!queue.isEmpty()) {
            Resource r = queue.poll();
            visited.add(r);
            for (Flow f : r.flows) {
                if (f.componentMark == mark) {
                    continue;
                }
                f.componentMark = mark;
                flows.add(f);
                for (Resource q : f.pathInternal()) {
                    if (q.componentMark != mark && (q == f.bottleneck || q.load() >= q.capacity() * (1 - SATURATED))) {
                        q.componentMark = mark;
                        queue.add(q);
                    }
                }
            }
        }
    }

    static double loadOf(Resource r) {
        double load = r.lazyGroup != null ? r.lazyFactor * r.lazyGroup.level() : 0;
        for (Flow f : r.flows) {
            load += f.rate * f.usageOf(r);
        }
        return load;
    }

    void schedule(Flow f, double now) {
        if (f.rate <= 0) {
            if (f.completion != null) {
                f.completion.cancel();
            }
            return;
        }
        double delay = f.remaining / f.rate;
        if (f.completion == null) {
            f.completion = clock.schedule(delay, new FlowCompletion(this, f));
        } else {
            f.completion.moveTo(delay);
        }
    }

    /** A fresh mark for the flows' and resources' visit stamps (shared with {@link MaxMinOracle}). */
    int nextMark() {
        return ++componentMark;
    }

    /**
     * Checks the invariants of a max-min allocation at this instant and returns the violations (empty
     * when all hold); see {@link MaxMinOracle#invariantViolations()}.
     */
    public List<String> invariantViolations() {
        return new MaxMinOracle(this).invariantViolations();
    }
}
