package org.rdmasim.fluid;

import java.util.List;
import java.util.PriorityQueue;

/**
 * Weighted max-min fair rates by progressive filling (Bertsekas and Gallager, Data Networks, 6.5).
 *
 * <p>All unfrozen flows share one fill level {@code x}: flow {@code f} runs at {@code w_f * x}.
 * Resource {@code r} saturates at {@code x_r = (C_r - frozen_r) / W_r}, where {@code frozen_r} is
 * the load of its already-frozen flows and {@code W_r} the weight of its unfrozen ones (each scaled by
 * how much of {@code r} a byte of the flow uses); a flow with
 * its own cap {@code c_f} stops at {@code x = c_f / w_f}, exactly like a private resource. The
 * smallest such level is taken from a heap, its flows are frozen, and the levels of the resources
 * they also cross are updated. Cost: O((F + R + sum of path lengths) log(F + R)).
 *
 * <p>The solver sees only the flows passed in; flows outside the set keep their rates, and their load
 * on a resource ({@code Resource.outsideLoad}, set by the caller) is taken off its capacity first.
 */
public final class MaxMinSolver {
    private int stamp;

    /** Sets {@code rate}, {@code bottleneck} and {@code cappedByItself} of every flow in the component. */
    public void solve(List<Flow> flows, List<Resource> resources) {
        stamp++;
        for (Resource r : resources) {
            // Load of flows outside this solve is fixed: it starts out as already-frozen load.
            r.frozenLoad = r.outsideLoad;
            r.activeWeight = 0;
            r.stamp = 0;
        }
        PriorityQueue<Level> heap = new PriorityQueue<>(flows.size() + resources.size() + 1);
        for (Flow f : flows) {
            f.solveMark = stamp;
            f.frozen = false;
            f.bottleneck = null;
            f.cappedByItself = false;
            Resource[] path = f.pathInternal();
            for (int i = 0; i < path.length; i++) {
                path[i].activeWeight += f.weight() * f.usage(i);
            }
            if (f.rateCap() < Double.POSITIVE_INFINITY) {
                heap.add(new Level(f.rateCap() / f.weight(), null, f, 0));
            }
        }
        for (Resource r : resources) {
            if (r.activeWeight > 0) {
                heap.add(new Level(Math.max(0.0, r.capacity() - r.frozenLoad) / r.activeWeight, r, null, 0));
            }
        }
        int unfrozen = flows.size();
        double level = 0;
        while (unfrozen > 0 && !heap.isEmpty()) {
            Level next = heap.poll();
            if (next.resource != null) {
                Resource r = next.resource;
                if (next.version != r.stamp || r.activeWeight <= 0) {
                    continue;
                }
                level = Math.max(level, next.x);
                for (Flow f : r.flows) {
                    // Flows outside this solve keep their rate (their load is in outsideLoad).
                    if (f.solveMark != stamp || f.stamp == stamp) {
                        continue;
                    }
                    unfrozen -= freeze(f, level, r, heap);
                }
            } else {
                Flow f = next.flow;
                if (f.stamp == stamp) {
                    continue;
                }
                level = Math.max(level, next.x);
                f.cappedByItself = true;
                unfrozen -= freeze(f, level, null, heap);
            }
        }
    }

    private int freeze(Flow f, double level, Resource saturated, PriorityQueue<Level> heap) {
        f.stamp = stamp;
        f.frozen = true;
        double rate = f.cappedByItself ? Math.min(f.rateCap(), f.weight() * level) : f.weight() * level;
        f.rate = Math.min(rate, f.rateCap());
        f.bottleneck = saturated;
        Resource[] path = f.pathInternal();
        for (int i = 0; i < path.length; i++) {
            Resource q = path[i];
            q.frozenLoad += f.rate * f.usage(i);
            q.activeWeight -= f.weight() * f.usage(i);
            q.stamp++;
            if (q != saturated && q.activeWeight > 1e-12) {
                double x = Math.max(0.0, q.capacity() - q.frozenLoad) / q.activeWeight;
                heap.add(new Level(Math.max(x, level), q, null, q.stamp));
            } else if (q.activeWeight <= 1e-12) {
                q.activeWeight = 0;
            }
        }
        return 1;
    }

    private record Level(double x, Resource resource, Flow flow, int version) implements Comparable<Level> {
        @Override
        public int compareTo(Level o) {
            int c = Double.compare(x, o.x);
            if (c != 0) {
                return c;
            }
            // Deterministic tie order: resources before flow caps, then by index/id.
            if (resource != null && o.resource != null) {
                return Integer.compare(resource.index(), o.resource.index());
            }
            if (resource != null) {
                return -1;
            }
            if (o.resource != null) {
                return 1;
            }
            return Long.compare(flow.id(), o.flow.id());
        }
    }
}
