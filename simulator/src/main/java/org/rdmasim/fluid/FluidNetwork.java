package org.rdmasim.fluid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rdmasim.engine.SimulationClock;

/**
 * Flows over resources, kept at max-min fair rates as they come and go. On an arrival or a
 * completion only the connected component of the resources involved is re-solved (rates elsewhere
 * cannot change: max-min allocations decompose over the components of the flow/resource graph), and
 * only flows whose rate changed get their completion event moved. Flows whose completions fall on
 * the same instant finish in one event, followed by one re-solve.
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
    private final MaxMinSolver solver = new MaxMinSolver();
    private final List<Resource> resources = new ArrayList<>();
    private final List<LoadObserver> observers = new ArrayList<>();
    private long nextFlowId;
    private int componentMark;
    private long activeFlows;
    private long solves;
    private long flowsSolved;

    public FluidNetwork(SimulationClock clock) {
        this.clock = clock;
    }

    public SimulationClock clock() {
        return clock;
    }

    public Resource addResource(String name, ResourceKind kind, double capacityBytesPerSecond) {
        Resource r = new Resource(resources.size(), name, kind, capacityBytesPerSecond);
        resources.add(r);
        return r;
    }

    public List<Resource> resources() {
        return Collections.unmodifiableList(resources);
    }

    /** Receives every change of a resource's load (for time series). */
    public void addObserver(LoadObserver observer) {
        observers.add(observer);
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
        if (bytes == 0) {
            f.markFinished(clock.now());
            listener.finished(f);
            return f;
        }
        for (int i = 0; i < p.length; i++) {
            f.slotInResource[i] = p[i].flows.size();
            p[i].flows.add(f);
        }
        activeFlows++;
        resolveAround(p);
        return f;
    }

    private void onCompletionEvent(Flow first) {
        if (first.isFinished()) {
            return;
        }
        double now = clock.now();
        List<Flow> finishing = new ArrayList<>();
        if (clock.nextEventTime() - now > NOTHING_ELSE_DUE * Math.max(1.0, now)) {
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
            for (Flow f : componentFlows) {
                if (f == first || finishesNow(f, now)) {
                    finishing.add(f);
                }
            }
        }
        for (Flow f : finishing) {
            f.settle(now);
            detach(f);
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

    private static boolean finishesNow(Flow f, double now) {
        if (f.rate <= 0) {
            return false;
        }
        double finish = f.lastSettled + f.remaining / f.rate;
        return finish - now <= SAME_INSTANT_SECONDS * Math.max(1.0, now);
    }

    private void detach(Flow f) {
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

    private static int indexOf(Resource[] path, Resource r) {
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
        double now = clock.now();
        int mark = ++componentMark;
        List<Flow> flows = new ArrayList<>();
        List<Resource> visited = new ArrayList<>();
        ArrayDeque<Resource> queue = new ArrayDeque<>();
        for (Resource r : seeds) {
            if (r.componentMark != mark) {
                r.componentMark = mark;
                queue.add(r);
            }
        }
        List<Resource> touched = new ArrayList<>();
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
            double[] oldRates = new double[flows.size()];
            for (int i = 0; i < flows.size(); i++) {
                oldRates[i] = flows.get(i).rate;
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
                for (int i = 0; i < flows.size(); i++) {
                    Flow f = flows.get(i);
                    if (f.rate != oldRates[i] || f.completion == null || !f.completion.isPending()) {
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
    }

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

    private static double loadOf(Resource r) {
        double load = 0;
        for (Flow f : r.flows) {
            load += f.rate * f.usageOf(r);
        }
        return load;
    }

    private void schedule(Flow f, double now) {
        if (f.rate <= 0) {
            if (f.completion != null) {
                f.completion.cancel();
            }
            return;
        }
        double delay = f.remaining / f.rate;
        if (f.completion == null) {
            f.completion = clock.schedule(delay, () -> onCompletionEvent(f));
        } else {
            f.completion.moveTo(delay);
        }
    }

    /**
     * Checks the invariants of a max-min allocation at this instant and returns the violations (empty
     * when all hold): no resource above capacity, and every flow either at its own cap or crossing a
     * saturated resource on which no other flow has a higher rate per unit weight.
     */
    public List<String> invariantViolations() {
        List<String> out = new ArrayList<>();
        double tol = 1e-9;
        List<Flow> all = new ArrayList<>();
        int mark = ++componentMark;
        for (Resource r : resources) {
            double load = loadOf(r);
            for (Flow f : r.flows) {
                if (f.componentMark != mark) {
                    f.componentMark = mark;
                    all.add(f);
                }
            }
            if (Math.abs(load - r.load()) > tol * r.capacity()) {
                out.add(r.name() + " records load " + r.load() + " B/s but its flows carry " + load);
            }
            if (load > r.capacity() * (1 + tol)) {
                out.add(r.name() + " carries " + load + " B/s over capacity " + r.capacity());
            }
        }
        for (Flow f : all) {
            if (f.rate > 0 && (f.completion == null || !f.completion.isPending())) {
                out.add("flow " + f.label() + " runs at " + f.rate + " B/s with no completion event");
            } else if (f.rate > 0) {
                double due = f.lastSettled + f.remaining / f.rate;
                if (Math.abs(f.completion.time() - due) > 1e-9 * Math.max(1.0, due)) {
                    out.add("flow " + f.label() + " completes at " + f.completion.time() + " but is due at " + due);
                }
            }
            if (f.rate >= f.rateCap() * (1 - tol)) {
                continue;
            }
            boolean limited = false;
            for (Resource r : f.pathInternal()) {
                double load = loadOf(r);
                double maxNormalised = 0;
                for (Flow g : r.flows) {
                    maxNormalised = Math.max(maxNormalised, g.rate / g.weight());
                }
                if (load >= r.capacity() * (1 - 1e-7) && f.rate / f.weight() >= maxNormalised * (1 - 1e-7)) {
                    limited = true;
                    break;
                }
            }
            if (!limited) {
                out.add("flow " + f.label() + " at " + f.rate + " B/s is not limited by a saturated resource or its cap");
            }
        }
        return out;
    }
}
