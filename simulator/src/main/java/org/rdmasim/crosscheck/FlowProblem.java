package org.rdmasim.crosscheck;

import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.engine.SimulationClock;

/**
 * A self-contained fluid problem: links with a capacity, flows with a start time, a size, a route of
 * link ids and an optional own rate cap. Every flow has weight 1 and uses each link of its route
 * once, which is the subset of the model that SimGrid's CM02 flow model shares the same way (it has
 * no per-flow weight and no usage factor above 1; a cap there is a private link). Solved here by
 * {@link #solveInRdmasim()} and, by a peer, from {@link #toJson()} (the input format of
 * {@code tools/simgrid-peer/flowpeer.py}).
 */
public record FlowProblem(List<Link> links, List<FlowSpec> flows) {
    /** One direction of one link: {@code bandwidth} in bytes per second. */
    public record Link(String id, double bandwidth) {
        public Link {
            if (!(bandwidth > 0) || Double.isInfinite(bandwidth)) {
                throw new IllegalArgumentException("link " + id + " needs a finite positive bandwidth");
            }
        }
    }

    /**
     * A flow of {@code bytes} starting at {@code start} seconds over {@code route}.
     *
     * @param cap   bytes per second the flow may not exceed by itself, {@code +Infinity} for none
     * @param group what the flow is a part of (a receiver's pull, for per-receiver finish times)
     */
    public record FlowSpec(String id, String group, double start, long bytes, List<String> route, double cap) {
        public FlowSpec {
            route = List.copyOf(route);
            if (!(start >= 0) || Double.isInfinite(start)) {
                throw new IllegalArgumentException("flow " + id + " needs a finite start >= 0");
            }
            if (bytes < 0) {
                throw new IllegalArgumentException("flow " + id + " has negative size");
            }
            if (!(cap > 0)) {
                throw new IllegalArgumentException("flow " + id + " needs a positive cap (+Infinity for none)");
            }
            if (new HashSet<>(route).size() != route.size()) {
                // SimGrid would count a repeated link once; rdmasim would count it twice. Refuse both.
                throw new IllegalArgumentException("flow " + id + " lists a link twice in its route");
            }
        }

        public boolean capped() {
            return cap < Double.POSITIVE_INFINITY;
        }
    }

    public FlowProblem {
        links = List.copyOf(links);
        flows = List.copyOf(flows);
        Set<String> ids = new HashSet<>();
        for (Link l : links) {
            if (!ids.add(l.id())) {
                throw new IllegalArgumentException("two links are named " + l.id());
            }
        }
        Set<String> flowIds = new HashSet<>();
        for (FlowSpec f : flows) {
            if (!flowIds.add(f.id())) {
                throw new IllegalArgumentException("two flows are named " + f.id());
            }
            if (f.route().isEmpty()) {
                throw new IllegalArgumentException("flow " + f.id() + " crosses no link");
            }
            for (String l : f.route()) {
                if (!ids.contains(l)) {
                    throw new IllegalArgumentException("flow " + f.id() + " crosses unknown link " + l);
                }
            }
        }
    }

    /** Finish time of every flow, in input order, and what the run cost. */
    public record Solution(Map<String, Double> finishById, long events, long solves, long flowsSolved) {
        public Solution {
            finishById = Collections.unmodifiableMap(new LinkedHashMap<>(finishById));
        }
    }

    /**
     * Runs the problem on a fresh clock and fluid network: each flow starts at its start time (flows
     * of the same instant in input order, in one event) and finishes when its bytes are through.
     * Flows sharing a bottleneck are grouped from {@link FluidNetwork#DEFAULT_GROUP_MIN} on: the same rates, finish
     * times equal to the flow-by-flow solve to rounding (about 1e-14 relative on a 16,384-receiver fan-out).
     */
    public Solution solveInRdmasim() {
        return solveInRdmasim(FluidNetwork.DEFAULT_GROUP_MIN, false);
    }

    /**
     * As {@link #solveInRdmasim()}, with grouping from {@code groupMin} flows (0: off) and, with
     * {@code verify}, a from-scratch re-solve and invariant check after every event (slow; for tests).
     */
    public Solution solveInRdmasim(int groupMin, boolean verify) {
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock).grouping(groupMin).verifying(verify);
        Map<String, Resource> byId = new HashMap<>(links.size() * 2);
        for (Link l : links) {
            byId.put(l.id(), net.addResource(l.id(), ResourceKind.OTHER, l.bandwidth()));
        }
        double[] finish = new double[flows.size()];
        Arrays.fill(finish, Double.NaN);
        Integer[] order = new Integer[flows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Double.compare(flows.get(a).start(), flows.get(b).start());
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int from = 0; from < order.length; ) {
            int to = from;
            double start = flows.get(order[from]).start();
            while (to < order.length && flows.get(order[to]).start() == start) {
                to++;
            }
            int[] batch = new int[to - from];
            for (int k = from; k < to; k++) {
                batch[k - from] = order[k];
            }
            clock.scheduleAt(start, () -> {
                for (int index : batch) {
                    FlowSpec spec = flows.get(index);
                    List<Resource> path = new ArrayList<>(spec.route().size());
                    for (String l : spec.route()) {
                        path.add(byId.get(l));
                    }
                    net.start(spec.id(), path, 1.0, spec.cap(), spec.bytes(), f -> finish[index] = f.finishTime());
                }
            });
            from = to;
        }
        clock.run();
        Map<String, Double> out = new LinkedHashMap<>(flows.size() * 2);
        for (int i = 0; i < flows.size(); i++) {
            out.put(flows.get(i).id(), finish[i]);
        }
        return new Solution(out, clock.eventsFired(), net.solves(), net.flowsSolved());
    }

    /**
     * The problem as flowpeer.py reads it: bandwidths and caps in bytes per second, {@code cap} null
     * for none, start in seconds. Doubles are written in Java's shortest round-trip form, so the peer
     * reads exactly the numbers rdmasim uses.
     */
    public String toJson() {
        StringBuilder sb = new StringBuilder(64 * (links.size() + 2 * flows.size()));
        sb.append("{\"links\":[");
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("{\"id\":");
            string(sb, l.id());
            sb.append(",\"bandwidth\":").append(number(l.bandwidth())).append('}');
        }
        sb.append("],\n\"flows\":[");
        for (int i = 0; i < flows.size(); i++) {
            FlowSpec f = flows.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("{\"id\":");
            string(sb, f.id());
            sb.append(",\"group\":");
            string(sb, f.group());
            sb.append(",\"start\":").append(number(f.start()));
            sb.append(",\"bytes\":").append(f.bytes());
            sb.append(",\"route\":[");
            for (int k = 0; k < f.route().size(); k++) {
                if (k > 0) {
                    sb.append(',');
                }
                string(sb, f.route().get(k));
            }
            sb.append("],\"cap\":").append(f.capped() ? number(f.cap()) : "null").append('}');
        }
        sb.append("]}\n");
        return sb.toString();
    }

    private static String number(double v) {
        // Double.toString gives the shortest decimal that reads back to the same double; "1.0E10" is valid JSON.
        return Double.toString(v);
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
