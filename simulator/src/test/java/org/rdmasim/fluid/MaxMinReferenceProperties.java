package org.rdmasim.fluid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.rdmasim.engine.SimulationClock;

/**
 * The network's rates against weighted max-min fairness computed here from its definition, by plain
 * progressive filling (no heap, no incremental region, no scratch kept between solves): random small
 * networks with weights, usage factors (a resource crossed twice per byte), own rate caps, and flows
 * arriving and leaving in a random order, so the incremental re-solve meets the outside loads it keeps.
 */
class MaxMinReferenceProperties {
    private record Spec(int[] path, double[] usage, double weight, double cap) {
    }

    /** Weighted progressive filling over the flows alive; returns each one's rate. */
    private static double[] reference(double[] capacity, List<Spec> flows) {
        int n = flows.size();
        double[] rate = new double[n];
        boolean[] frozen = new boolean[n];
        double[] used = new double[capacity.length];
        int left = n;
        while (left > 0) {
            // the lowest level at which some unfrozen flow stops: a resource fills, or a flow meets its cap
            double level = Double.POSITIVE_INFINITY;
            for (int r = 0; r < capacity.length; r++) {
                double w = 0;
                for (int i = 0; i < n; i++) {
                    if (!frozen[i]) {
                        w += weightOn(flows.get(i), r);
                    }
                }
                if (w > 0) {
                    level = Math.min(level, (capacity[r] - used[r]) / w);
                }
            }
            for (int i = 0; i < n; i++) {
                if (!frozen[i]) {
                    level = Math.min(level, flows.get(i).cap() / flows.get(i).weight());
                }
            }
            List<Integer> stop = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (frozen[i]) {
                    continue;
                }
                Spec f = flows.get(i);
                boolean atCap = f.cap() / f.weight() <= level * (1 + 1e-12);
                boolean atFull = false;
                for (int r : f.path()) {
                    double w = 0;
                    for (int j = 0; j < n; j++) {
                        if (!frozen[j]) {
                            w += weightOn(flows.get(j), r);
                        }
                    }
                    if ((capacity[r] - used[r]) / w <= level * (1 + 1e-12)) {
                        atFull = true;
                    }
                }
                if (atCap || atFull) {
                    stop.add(i);
                }
            }
            for (int i : stop) {
                Spec f = flows.get(i);
                rate[i] = Math.min(f.cap(), f.weight() * level);
                frozen[i] = true;
                left--;
                for (int k = 0; k < f.path().length; k++) {
                    used[f.path()[k]] += rate[i] * f.usage()[k];
                }
            }
        }
        return rate;
    }

    private static double weightOn(Spec f, int r) {
        for (int k = 0; k < f.path().length; k++) {
            if (f.path()[k] == r) {
                return f.weight() * f.usage()[k];
            }
        }
        return 0;
    }

    @Property(tries = 400)
    void ratesAreWeightedMaxMinFairAfterEveryArrivalAndDeparture(@ForAll @LongRange(min = 1, max = 10_000_000) long seed) {
        Random rnd = new Random(seed);
        int resources = 1 + rnd.nextInt(5);
        double[] capacity = new double[resources];
        SimulationClock clock = new SimulationClock();
        FluidNetwork net = new FluidNetwork(clock);
        List<Resource> rs = new ArrayList<>();
        for (int r = 0; r < resources; r++) {
            capacity[r] = 1 + rnd.nextInt(100);
            rs.add(net.addResource("r" + r, ResourceKind.NIC_TX, capacity[r]));
        }
        List<Spec> specs = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        int steps = 1 + rnd.nextInt(10);
        for (int s = 0; s < steps; s++) {
            if (!flows.isEmpty() && rnd.nextInt(4) == 0) {
                int i = rnd.nextInt(flows.size());
                net.abort(flows.remove(i));
                specs.remove(i);
            } else {
                List<Integer> path = new ArrayList<>();
                for (int r = 0; r < resources; r++) {
                    if (rnd.nextBoolean()) {
                        path.add(r);
                    }
                }
                if (path.isEmpty()) {
                    path.add(rnd.nextInt(resources));
                }
                int[] p = path.stream().mapToInt(Integer::intValue).toArray();
                double[] u = new double[p.length];
                List<Resource> route = new ArrayList<>();
                List<Double> usage = new ArrayList<>();
                for (int k = 0; k < p.length; k++) {
                    u[k] = rnd.nextInt(3) == 0 ? 2.0 : 1.0;
                    route.add(rs.get(p[k]));
                    usage.add(u[k]);
                }
                double weight = 1 + rnd.nextInt(3);
                double cap = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(60) : Double.POSITIVE_INFINITY;
                specs.add(new Spec(p, u, weight, cap));
                flows.add(net.start("f" + s, route, usage, weight, cap, 1L << 50, f -> { }));
            }
            double[] want = reference(capacity, specs);
            for (int i = 0; i < flows.size(); i++) {
                assertEquals(want[i], flows.get(i).rate(), 1e-9 * Math.max(1, want[i]),
                        "seed " + seed + " step " + s + " flow " + flows.get(i).label());
            }
        }
    }
}
