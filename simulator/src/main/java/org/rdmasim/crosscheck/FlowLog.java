package org.rdmasim.crosscheck;

import org.rdmasim.fluid.Flow;
import org.rdmasim.fluid.FlowTap;
import org.rdmasim.fluid.Resource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every flow a {@link org.rdmasim.fluid.FluidNetwork} started, kept so the run can be posed again as a self-contained
 * {@link FlowProblem} (the flows with their start times, sizes, routes of resources and caps) and
 * handed to another solver. Only a run of the subset SimGrid shares the same way can be posed: weight
 * 1, each resource used once per byte, no flow stopped early and no capacity changed mid-run.
 */
public final class FlowLog implements FlowTap {
    private final List<Flow> flows = new ArrayList<>();
    private String refusal;

    @Override
    public void started(Flow f) {
        if (refusal != null) {
            return;
        }
        if (f.weight() != 1.0) {
            refusal = "flow " + f.label() + " has weight " + f.weight() + " (SimGrid's CM02 shares with weight 1 only)";
        }
        for (Resource r : f.path()) {
            if (refusal == null && f.usageOf(r) != 1.0) {
                refusal = "flow " + f.label() + " uses " + r.name() + " " + f.usageOf(r)
                        + " times per byte (staged through host memory); SimGrid counts a link once per flow";
            }
        }
        flows.add(f);
    }

    @Override
    public void aborted(Flow f) {
        if (refusal == null) {
            refusal = "flow " + f.label() + " was stopped before its end (a fault); the problem has no such event";
        }
    }

    @Override
    public void capacityChanged(Resource r) {
        if (refusal == null) {
            refusal = r.name() + " changed capacity mid-run (a fault); the problem's links are fixed";
        }
    }

    /** Why this run cannot be posed as a flow problem, or null when it can. */
    public String refusal() {
        return refusal;
    }

    /** Flows started so far. */
    public int size() {
        return flows.size();
    }

    /**
     * The run as a flow problem: links are the resources the flows crossed, named as in resources.csv,
     * at their capacity; flow {@code fN} is the N-th flow started, grouped by its label (transfer and lane).
     */
    public FlowProblem problem() {
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
        Map<Resource, FlowProblem.Link> links = new LinkedHashMap<>();
        List<FlowProblem.FlowSpec> specs = new ArrayList<>(flows.size());
        for (int k = 0; k < flows.size(); k++) {
            Flow f = flows.get(k);
            Resource[] path = f.path();
            List<String> route = new ArrayList<>(path.length);
            for (Resource r : path) {
                links.computeIfAbsent(r, q -> new FlowProblem.Link(q.name(), q.capacity()));
                route.add(r.name());
            }
            specs.add(new FlowProblem.FlowSpec(id(k), f.label(), f.startTime(), f.bytes(), route, f.rateCap()));
        }
        return new FlowProblem(new ArrayList<>(links.values()), specs);
    }

    /** Finish time of each flow in this run, by the ids {@link #problem()} gives them. */
    public Map<String, Double> finishById() {
        Map<String, Double> out = new LinkedHashMap<>(flows.size() * 2);
        for (int k = 0; k < flows.size(); k++) {
            out.put(id(k), flows.get(k).finishTime());
        }
        return out;
    }

    private static String id(int k) {
        return "f" + k;
    }
}
