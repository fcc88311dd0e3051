package org.rdmasim.fluid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The selective update of a {@link FluidNetwork} (SimGrid's kernel/lmm keeps the same apart from time
 * advancement): after an arrival, a departure or a capacity change, find the region of flows and
 * resources whose rates can change, re-solve it with {@link MaxMinSolver}, apply the new rates and
 * loads, and move the completion events ({@link CompletionEvents}) of the flows whose rate changed.
 * With grouping on it checks that the region's groups still hold ({@link FlowGroups}) and lets new
 * ones form afterwards.
 */
final class RegionSolve {
    private final FluidNetwork net;
    private final MaxMinSolver solver = new MaxMinSolver();
    private long solves;
    private long flowsSolved;
    private long groupFallbacks;

    RegionSolve(FluidNetwork net) {
        this.net = net;
    }

    long solves() {
        return solves;
    }

    long flowsSolved() {
        return flowsSolved;
    }

    /** Times a group had to be dissolved because its members stopped sharing one bottleneck. */
    long groupFallbacks() {
        return groupFallbacks;
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
    void resolveAround(Resource[] seeds) {
        // A pass fails only after dissolving at least one group, so this ends.
        while (!resolveOnce(seeds)) {
            groupFallbacks++;
        }
        if (net.verifying) {
            MaxMinOracle oracle = new MaxMinOracle(net);
            List<String> bad = oracle.scratchMismatches();
            bad.addAll(oracle.invariantViolations());
            if (!bad.isEmpty()) {
                throw new IllegalStateException("at t=" + net.clock().now() + ": " + String.join("; ", bad));
            }
        }
    }

    /** One pass of {@link #resolveAround}; false when a group had to be dissolved (nothing was applied). */
    private boolean resolveOnce(Resource[] seeds) {
        double now = net.clock().now();
        int mark = ++net.componentMark;
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
            int edgeMark = ++net.componentMark;
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
                    net.groups.dissolve(broken, now);
                    return false;
                }
                for (int i = 0; i < flows.size(); i++) {
                    Flow f = flows.get(i);
                    if (f.aggregate != null) {
                        // Its smallest tag may have changed even when its level did not.
                        net.completions.scheduleGroup(f.aggregate, now);
                        if (f.rate != oldRates[i]) {
                            f.aggregate.recordLevel();
                        }
                    } else if (f.rate != oldRates[i] || f.completion == null || !f.completion.isPending()) {
                        net.completions.schedule(f, now);
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
                for (LoadObserver o : net.observers) {
                    o.loadChanged(r, now, load);
                }
            }
        }
        if (net.groupMin > 0) {
            net.groups.formGroups(flows, now);
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
}
