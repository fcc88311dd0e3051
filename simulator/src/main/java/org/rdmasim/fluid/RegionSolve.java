package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The selective update of the constraint system (SimGrid keeps it with the solver in src/kernel/lmm,
 * apart from the model that advances time): given the resources an arrival, a departure or a capacity
 * change touched, find the region of flows and resources whose rates can change, re-solve it with
 * {@link MaxMinSolver}, and return what moved ({@link RateChanges}). It knows nothing of time, events,
 * completions or how groups form: a group is one pseudo-flow to it like any other flow. It reads the
 * flows on each resource from the {@link ResourceTable}'s {@link Crossing}s. Its scratch
 * (marks, loads, counts) is in arrays of its own by {@link Resource#number} and {@link Flow#number},
 * kept from solve to solve.
 */
final class RegionSolve implements RateChanges {
    private final ResourceTable resources;
    private final MaxMinSolver solver;
    private long solves;
    private long flowsSolved;

    RegionSolve(ResourceTable resources) {
        this.resources = resources;
        this.solver = new MaxMinSolver(resources);
    }

    long solves() {
        return solves;
    }

    long flowsSolved() {
        return flowsSolved;
    }

    /**
     * Re-solves the flows an event can affect; the new rates, bottlenecks and own-cap marks are on the
     * flows when this returns, the old ones in the returned changes.
     *
     * <p>Which flows: start from the resources of the arriving or departing flows, take every flow on
     * them, and keep walking only through resources that are saturated (or are a flow's bottleneck).
     * A flow reached only through unsaturated resources keeps its rate: its own bottleneck is
     * untouched. Those unsaturated resources enter the solve with the load of the untouched flows
     * taken off their capacity. If the new rates saturate such a resource, its other flows may now be
     * limited there, so the region grows to include them and is solved again. At the fixed point every
     * saturated resource holds only re-solved flows or unchanged ones, which is the max-min condition.
     *
     * @param seeds the touched resources, the first {@code seedCount} of the array (callers refill one array)
     * @param resourceCount resources built so far (one more than the largest {@link Resource#number})
     * @param flowNumberLimit one more than the largest {@link Flow#number} given so far
     */
    RateChanges solveAround(Resource[] seeds, int seedCount, int resourceCount, int flowNumberLimit) {
        fitArrays(resourceCount, flowNumberLimit);
        int mark = ++marks;
        enterSeeds(seeds, seedCount, mark);
        while (true) {
            int before = flows.size();
            expand(mark);
            int k = collectTouched();
            measureOutsideLoad(k, mark);
            rememberRates(before);
            solver.solve(flows, touched, outsideLoad);
            solves++;
            flowsSolved += flows.size();
            measureRegionLoad(k);
            if (!growOverNewlySaturated(k, mark)) {
                return this;
            }
            // Roll back to the old rates before re-solving the larger region (they are the outside
            // loads the next round subtracts).
            for (int i = 0; i < flows.size(); i++) {
                flows.get(i).rate = oldRates[i];
            }
        }
    }

    /** Clears the region (its lists are kept between solves: no garbage per event) and queues the seeds. */
    private void enterSeeds(Resource[] seeds, int seedCount, int mark) {
        flows.clear();
        visited.clear();
        expanded = 0;
        touched.clear();
        for (int s = 0; s < seedCount; s++) {
            Resource r = seeds[s];
            if (perResource[3 * r.number + IN_REGION] != mark) {
                perResource[3 * r.number + IN_REGION] = mark;
                visited.add(r);
            }
        }
    }

    /** Takes in every flow on the queued resources, queueing the saturated resources (or bottlenecks) they cross. */
    private void expand(int mark) {
        while (expanded < visited.size()) {
            Resource r = visited.get(expanded++);
            Crossing on = resources.crossing(r);
            for (int j = 0, n = on.size(); j < n; j++) {
                Flow f = on.flow(j);
                if (flowMark[f.number] == mark) {
                    continue;
                }
                flowMark[f.number] = mark;
                flows.add(f);
                for (int at = 0, ends = f.pathLength(); at < ends; at++) {
                    Resource q = f.pathArray()[at];
                    if (perResource[3 * q.number + IN_REGION] != mark && (q == f.bottleneck || q.load() >= q.capacity() * (1 - SATURATED))) {
                        perResource[3 * q.number + IN_REGION] = mark;
                        visited.add(q);
                    }
                }
            }
        }
    }

    /**
     * Lists every resource on a region flow, and the visited ones (they include the seeds, which may have
     * lost their last flow), each once, and numbers them by place in that list. Visited resources hold
     * only region flows; the others keep load from outside.
     *
     * @return how many there are
     */
    private int collectTouched() {
        touched.clear();
        int edgeMark = ++marks;
        // Lists walked by index here and in the solver: an iterator per walk, several walks per event, is
        // garbage the launcher's C1 compiler does not remove.
        for (int v = 0; v < visited.size(); v++) {
            Resource q = visited.get(v);
            if (perResource[3 * q.number + ROUND] != edgeMark) {
                perResource[3 * q.number + ROUND] = edgeMark;
                perResource[3 * q.number + PLACE] = touched.size();
                touched.add(q);
            }
        }
        for (int j = 0; j < flows.size(); j++) {
            Flow f = flows.get(j);
            for (int at = 0, ends = f.pathLength(); at < ends; at++) {
                Resource q = f.pathArray()[at];
                if (perResource[3 * q.number + ROUND] != edgeMark) {
                    perResource[3 * q.number + ROUND] = edgeMark;
                    perResource[3 * q.number + PLACE] = touched.size();
                    touched.add(q);
                }
            }
        }
        int k = touched.size();
        fitTouched(k);
        return k;
    }

    /** The load flows outside the region put on each touched resource: its load less the region's old load. */
    private void measureOutsideLoad(int k, int mark) {
        Arrays.fill(solvedLoad, 0, k, 0.0);
        for (int j = 0; j < flows.size(); j++) {
            Flow f = flows.get(j);
            Resource[] p = f.pathArray();
            for (int i = 0, ends = f.pathLength(); i < ends; i++) {
                solvedLoad[perResource[3 * p[i].number + PLACE]] += f.rate * f.usage(i);
            }
        }
        for (int t = 0; t < k; t++) {
            Resource q = touched.get(t);
            outsideLoad[t] = perResource[3 * q.number + IN_REGION] == mark ? 0.0 : Math.max(0.0, q.load() - solvedLoad[t]);
        }
    }

    /**
     * Keeps what the flows had before this round's solve (what {@link #rollBack} restores), and for the
     * flows that joined the region in this round, from {@code joined} on, the limit they ran under
     * until the event (no earlier round solved them).
     */
    private void rememberRates(int joined) {
        int n = flows.size();
        if (oldRates.length < n) {
            int c = Math.max(n, 2 * oldRates.length);
            oldRates = new double[c];
            oldBottlenecks = new Resource[c];
            oldCapped = new boolean[c];
            limitsBefore = Arrays.copyOf(limitsBefore, c);
        }
        for (int i = 0; i < n; i++) {
            oldRates[i] = flows.get(i).rate;
        }
        for (int i = 0; i < n; i++) {
            oldBottlenecks[i] = flows.get(i).bottleneck;
            oldCapped[i] = flows.get(i).cappedByItself;
        }
        for (int i = joined; i < n; i++) {
            limitsBefore[i] = Flow.limiterOf(oldCapped[i], oldBottlenecks[i]);
        }
    }

    /**
     * The region's new load on each touched resource and how many region flows cross it, gathered from
     * the region's own paths so the cost follows the region, not the resource's whole flow list.
     */
    private void measureRegionLoad(int k) {
        Arrays.fill(regionLoad, 0, k, 0.0);
        Arrays.fill(crossingFlows, 0, k, 0);
        for (int j = 0; j < flows.size(); j++) {
            Flow f = flows.get(j);
            Resource[] p = f.pathArray();
            for (int i = 0, ends = f.pathLength(); i < ends; i++) {
                int t = perResource[3 * p[i].number + PLACE];
                regionLoad[t] += f.rate * f.usage(i);
                crossingFlows[t]++;
            }
        }
    }

    /**
     * Queues the resources outside the region that the new rates saturate and that carry flows outside
     * it (those may now be limited there).
     *
     * @return whether the region grew
     */
    private boolean growOverNewlySaturated(int k, int mark) {
        boolean grew = false;
        for (int t = 0; t < k; t++) {
            Resource q = touched.get(t);
            if (perResource[3 * q.number + IN_REGION] == mark) {
                continue;
            }
            double newLoad = outsideLoad[t] + regionLoad[t];
            if (crossingFlows[t] < resources.crossing(q).size() && newLoad >= q.capacity() * (1 - SATURATED)) {
                perResource[3 * q.number + IN_REGION] = mark;
                visited.add(q);
                grew = true;
            }
        }
        return grew;
    }

    @Override
    public ArrayList<Flow> flows() {
        return flows;
    }

    @Override
    public double rateBefore(int i) {
        return oldRates[i];
    }

    @Override
    public Limit limitBefore(int i) {
        return limitsBefore[i];
    }

    @Override
    public int touchedCount() {
        return touched.size();
    }

    @Override
    public Resource touched(int t) {
        return touched.get(t);
    }

    @Override
    public double loadAfter(int t) {
        Resource r = touched.get(t);
        Crossing on = resources.crossing(r);
        // Small resources are summed exactly; busy ones as outside plus region load (the outside load
        // of a resource inside the region is 0), which keeps the work proportional to the region
        // (drift stays far below the 1e-9 saturation slack).
        return on.size() <= EXACT_LOAD_FLOWS ? on.summedLoad(r) : outsideLoad[t] + regionLoad[t];
    }

    @Override
    public void rollBack() {
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            f.rate = oldRates[i];
            f.bottleneck = oldBottlenecks[i];
            f.cappedByItself = oldCapped[i];
        }
    }

    /**
     * Source of the marks in {@link #perResource} and {@link #flowMark}: each solve and each round takes a
     * fresh one, so nothing needs clearing between them.
     */
    private int marks;
    /**
     * Scratch by Resource.number, three ints each, side by side so that a resource costs one cache line
     * (a group's pseudo-flow crosses hundreds spread over the whole numbering): {@code 3n + IN_REGION} holds
     * the mark of the solve that took it into the region, {@code 3n + ROUND} the mark of the round that
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
    // Scratch by Flow.number: in the region (the mark of the solve).
    private int[] flowMark = new int[16];
    // Typed as ArrayList, not List: walked several times per event, and the launcher's C1 compiler inlines
    // ArrayList's get and size where they are called on the class, but calls them through the interface.
    private final ArrayList<Flow> flows = new ArrayList<>();
    /**
     * The region's resources in the order they were queued, first {@link #expanded} of them taken in (their
     * flows walked), the rest waiting: one list is the queue and the visited set, since every resource
     * queued is taken in before a solve, in the order it came (a deque beside the list added each one twice).
     */
    private final ArrayList<Resource> visited = new ArrayList<>();
    private int expanded;
    private final ArrayList<Resource> touched = new ArrayList<>();
    // By place in the region's flow list: the state before this round's solve, and the limit before the event.
    private double[] oldRates = new double[16];
    private Resource[] oldBottlenecks = new Resource[16];
    private boolean[] oldCapped = new boolean[16];
    private Limit[] limitsBefore = new Limit[16];

    /** Resources with at most this many flows have their load summed exactly after each solve. */
    private static final int EXACT_LOAD_FLOWS = 64;

    /** Relative slack under which a resource counts as saturated. */
    static final double SATURATED = 1e-9;

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
    private void fitArrays(int resources, int flowNumbers) {
        if (perResource.length < 3 * resources) {
            perResource = Arrays.copyOf(perResource, 3 * Math.max(resources, perResource.length / 3 * 2));
        }
        if (flowMark.length < flowNumbers) {
            flowMark = Arrays.copyOf(flowMark, Math.max(flowNumbers, 2 * flowMark.length));
        }
    }
}
