package org.rdmasim.fluid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The selective update of a {@link FluidNetwork} (SimGrid's kernel/lmm keeps the same apart from time
 * advancement): after an arrival, a departure or a capacity change, find the region of flows and
 * resources whose rates can change, re-solve it with {@link MaxMinSolver}, apply the new rates and
 * loads, and move the completion events ({@link CompletionEvents}) of the flows whose rate changed.
 * With grouping on it checks that the region's groups still hold ({@link FlowGroups}) and lets new
 * ones form afterwards. Its scratch (marks, loads, counts) is in arrays of its own by
 * {@link Resource#number} and {@link Flow#number}, kept from event to event.
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
        fitArrays();
        int mark = ++marks;
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
            if (perResource[3 * r.number + IN_REGION] != mark) {
                perResource[3 * r.number + IN_REGION] = mark;
                queue.add(r);
            }
        }
        while (true) {
            expand(queue, mark, flows, visited);
            // Every resource on a region flow: visited ones hold only region flows; others keep outside load.
            touched.clear();
            int edgeMark = ++marks;
            for (Resource q : visited) {
                // Visited resources include the seeds, which may have lost their last flow.
                if (perResource[3 * q.number + ROUND] != edgeMark) {
                    perResource[3 * q.number + ROUND] = edgeMark;
                    perResource[3 * q.number + PLACE] = touched.size();
                    touched.add(q);
                }
            }
            for (Flow f : flows) {
                for (Resource q : f.pathInternal()) {
                    if (perResource[3 * q.number + ROUND] != edgeMark) {
                        perResource[3 * q.number + ROUND] = edgeMark;
                        perResource[3 * q.number + PLACE] = touched.size();
                        touched.add(q);
                    }
                }
            }
            int k = touched.size();
            fitTouched(k);
            Arrays.fill(solvedLoad, 0, k, 0.0);
            for (Flow f : flows) {
                Resource[] p = f.pathInternal();
                for (int i = 0; i < p.length; i++) {
                    solvedLoad[perResource[3 * p[i].number + PLACE]] += f.rate * f.usage(i);
                }
            }
            for (int t = 0; t < k; t++) {
                Resource q = touched.get(t);
                outsideLoad[t] = perResource[3 * q.number + IN_REGION] == mark ? 0.0 : Math.max(0.0, q.load() - solvedLoad[t]);
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
            solver.solve(flows, touched, outsideLoad);
            solves++;
            flowsSolved += flows.size();
            // The region's new load on each resource and how many region flows cross it, gathered from
            // the region's own paths so the cost follows the region, not the resource's whole flow list.
            Arrays.fill(regionLoad, 0, k, 0.0);
            Arrays.fill(crossingFlows, 0, k, 0);
            for (Flow f : flows) {
                Resource[] p = f.pathInternal();
                for (int i = 0; i < p.length; i++) {
                    int t = perResource[3 * p[i].number + PLACE];
                    regionLoad[t] += f.rate * f.usage(i);
                    crossingFlows[t]++;
                }
            }
            boolean grew = false;
            for (int t = 0; t < k; t++) {
                Resource q = touched.get(t);
                if (perResource[3 * q.number + IN_REGION] == mark) {
                    continue;
                }
                double newLoad = outsideLoad[t] + regionLoad[t];
                if (crossingFlows[t] < q.flows.size() && newLoad >= q.capacity() * (1 - SATURATED)) {
                    perResource[3 * q.number + IN_REGION] = mark;
                    queue.add(q);
                    grew = true;
                }
            }
            if (!grew) {
                List<FlowGroup> broken = FlowGroups.brokenGroups(flows, this);
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
        for (int t = 0; t < touched.size(); t++) {
            Resource r = touched.get(t);
            // Small resources are summed exactly; busy ones as outside plus region load (the outside load
            // of a resource inside the region is 0), which keeps the work proportional to the region
            // (drift stays far below the 1e-9 saturation slack).
            double load = r.flows.size() <= EXACT_LOAD_FLOWS ? loadOf(r) : outsideLoad[t] + regionLoad[t];
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

    /**
     * Source of the marks in {@link #perResource} and {@link #flowMark}: each pass and each round takes a
     * fresh one, so nothing needs clearing between them.
     */
    private int marks;
    /**
     * Scratch by Resource.number, three ints each, side by side so that a resource costs one cache line
     * (a group's pseudo-flow crosses hundreds spread over the whole numbering): {@code 3n + IN_REGION} holds
     * the mark of the pass that took it into the region, {@code 3n + ROUND} the mark of the round that
     * touched it, and {@code 3n + PLACE} its place in that round's touched list.
     */
    private int[] perResource = new int[48];
    private static final int IN_REGION = 0;
    private static final int ROUND = 1;
    private static final int PLACE = 2;
    // Scratch by place in the touched list (compact, so it stays in cache however many resources there
    // are): the region flows' old load, the load of flows outside the region, the region's new load and
    // how many region flows cross the resource.
    private double[] solvedLoad = new double[16];
    private double[] outsideLoad = new double[16];
    private double[] regionLoad = new double[16];
    private int[] crossingFlows = new int[16];
    // Scratch by Flow.number: in the region (the mark of the pass).
    private int[] flowMark = new int[16];
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
                if (flowMark[f.number] == mark) {
                    continue;
                }
                flowMark[f.number] = mark;
                flows.add(f);
                for (Resource q : f.pathInternal()) {
                    if (perResource[3 * q.number + IN_REGION] != mark && (q == f.bottleneck || q.load() >= q.capacity() * (1 - SATURATED))) {
                        perResource[3 * q.number + IN_REGION] = mark;
                        queue.add(q);
                    }
                }
            }
        }
    }

    /** The load {@code q} carries at the rates of the last solve: outside load plus the region's. */
    double newLoad(Resource q) {
        int t = perResource[3 * q.number + PLACE];
        return outsideLoad[t] + regionLoad[t];
    }

    /** Grows the scratch kept by place in the touched list to {@code k} resources. */
    private void fitTouched(int k) {
        if (solvedLoad.length < k) {
            int c = Math.max(k, 2 * solvedLoad.length);
            solvedLoad = new double[c];
            outsideLoad = new double[c];
            regionLoad = new double[c];
            crossingFlows = new int[c];
        }
    }

    /** Grows the scratch arrays to every resource built and every flow number given so far. */
    private void fitArrays() {
        int resources = net.resourceCount();
        if (perResource.length < 3 * resources) {
            perResource = Arrays.copyOf(perResource, 3 * Math.max(resources, perResource.length / 3 * 2));
        }
        int flows = net.numbers.limit();
        if (flowMark.length < flows) {
            flowMark = Arrays.copyOf(flowMark, Math.max(flows, 2 * flowMark.length));
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
