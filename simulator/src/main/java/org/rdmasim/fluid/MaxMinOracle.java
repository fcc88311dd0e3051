package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The checking oracle of {@link FluidNetwork}'s verifying mode and of tests: a solve of every running
 * flow from scratch, on copies, compared with the incremental (and grouped) rates, and the max-min
 * conditions checked resource by resource. Slow by design; never on the path of a normal run.
 */
final class MaxMinOracle {
    private final ResourceTable table;
    private final List<Resource> resources;
    private final FlowGroups groups;
    private final double now;

    /** An oracle over every built resource of {@code table}, with the groups of {@code groups}, at the instant {@code now}. */
    MaxMinOracle(ResourceTable table, FlowGroups groups, double now) {
        this.table = table;
        this.resources = table.all();
        this.groups = groups;
        this.now = now;
    }

    /** Every flow still running: those on their own and the members of groups. */
    private List<Flow> runningFlows() {
        List<Flow> all = new ArrayList<>();
        Set<Flow> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Resource r : resources) {
            Crossing on = table.crossing(r);
            for (int k = 0; k < on.size(); k++) {
                Flow f = on.flow(k);
                if (!seen.add(f)) {
                    continue;
                }
                FlowGroup g = groups.aggregate(f);
                if (g != null) {
                    all.addAll(g.byTag.inOrder());
                } else {
                    all.add(f);
                }
            }
        }
        return all;
    }

    /**
     * Solves every running flow from scratch, on copies, and lists where the incremental (and grouped)
     * rates differ from it by more than 1e-9 relative. Max-min rates are unique, so any difference is
     * a bug in the incremental bookkeeping.
     */
    List<String> scratchMismatches() {
        List<Flow> running = runningFlows();
        running.sort((a, b) -> Long.compare(a.id(), b.id()));
        ResourceTable copies = new ResourceTable();
        copies.reserve(table.indexLimit());
        Resource[] copy = new Resource[table.indexLimit()];
        for (Resource r : resources) {
            copy[r.index()] = copies.build(r.index(), r.limit(), r.kind(), r.capacity());
        }
        ArrayList<Flow> fresh = new ArrayList<>(running.size());
        for (Flow f : running) {
            Resource[] p = f.path();
            Resource[] cp = new Resource[p.length];
            double[] u = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                cp[i] = copy[p[i].index()];
                u[i] = f.usage(i);
            }
            Flow g = new Flow(f.id(), f.label(), cp, u, f.weight(), f.rateCap(), f.bytes(), 0);
            g.number = fresh.size();
            for (int i = 0; i < cp.length; i++) {
                copies.enter(cp[i], g, i);
            }
            fresh.add(g);
        }
        ArrayList<Resource> built = new ArrayList<>();
        for (Resource r : copy) {
            if (r != null) {
                built.add(r);
            }
        }
        // Every running flow is in the solve: no resource carries load from outside it.
        new MaxMinSolver(copies).solve(fresh, built, new double[copies.count()]);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < running.size(); i++) {
            double a = running.get(i).rate();
            double b = fresh.get(i).rate;
            if (Math.abs(a - b) > 1e-9 * Math.max(Math.abs(b), 1e-300)) {
                out.add("flow " + running.get(i).label() + " (id " + running.get(i).id() + ") runs at " + a
                        + " B/s; a solve from scratch gives " + b);
            }
        }
        return out;
    }

    /**
     * Checks the invariants of a max-min allocation at this instant and returns the violations (empty
     * when all hold): no resource above capacity, and every flow either at its own cap or crossing a
     * saturated resource on which no other flow has a higher rate per unit weight.
     */
    List<String> invariantViolations() {
        List<String> out = new ArrayList<>();
        double tol = 1e-9;
        List<Flow> all = new ArrayList<>();
        Set<Flow> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Resource r : resources) {
            Crossing on = table.crossing(r);
            double load = on.summedLoad(r);
            for (int k = 0; k < on.size(); k++) {
                Flow f = on.flow(k);
                if (seen.add(f)) {
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
        List<Flow> members = new ArrayList<>();
        for (Flow f : all) {
            FlowGroup g = groups.aggregate(f);
            if (g != null) {
                // A group: its one event is its smallest tag's; its members are checked as flows below.
                members.addAll(g.byTag.inOrder());
                double due = now + g.nextDelay(now);
                if (g.byTag.isEmpty() || f.completion == null || !f.completion.isPending()) {
                    out.add("group " + f.label() + " has no members or no completion event");
                } else if (Math.abs(f.completion.time() - due) > 1e-9 * Math.max(1.0, due)) {
                    out.add("group " + f.label() + " completes at " + f.completion.time() + " but is due at " + due);
                }
                continue;
            }
            if (f.rate > 0 && (f.completion == null || !f.completion.isPending())) {
                out.add("flow " + f.label() + " runs at " + f.rate + " B/s with no completion event");
            } else if (f.rate > 0) {
                double due = f.lastSettled + f.remaining / f.rate;
                if (Math.abs(f.completion.time() - due) > 1e-9 * Math.max(1.0, due)) {
                    out.add("flow " + f.label() + " completes at " + f.completion.time() + " but is due at " + due);
                }
            }
            members.add(f);
        }
        for (Flow f : members) {
            double rate = f.rate();
            if (rate >= f.rateCap() * (1 - tol)) {
                continue;
            }
            boolean limited = false;
            for (int at = 0, ends = f.pathLength(); at < ends; at++) {
                Resource r = f.pathArray()[at];
                Crossing on = table.crossing(r);
                double load = on.summedLoad(r);
                double maxNormalised = 0;
                for (int k = 0; k < on.size(); k++) {
                    Flow g = on.flow(k);
                    maxNormalised = Math.max(maxNormalised, g.rate / g.weight());
                }
                if (load >= r.capacity() * (1 - 1e-7) && rate / f.weight() >= maxNormalised * (1 - 1e-7)) {
                    limited = true;
                    break;
                }
            }
            if (!limited) {
                out.add("flow " + f.label() + " at " + rate + " B/s is not limited by a saturated resource or its cap");
            }
        }
        return out;
    }
}
