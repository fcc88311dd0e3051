package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;

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
 * <p>The heap is indexed (one entry per resource, moved in place when its level changes, and one per
 * capped flow) and its arrays are kept between solves, so a solve allocates nothing once warm. It
 * pops entries in the order of (level, resources before flow caps, resource index or flow id), so
 * the freezing order, and with it every rate to the last bit, does not depend on how the heap is
 * stored.
 *
 * <p>The solver sees only the flows passed in; flows outside the set keep their rates, and their load
 * on a resource (the caller's {@code outsideLoad}) is taken off its capacity first.
 *
 * <p>Its scratch lives here, not on flows and resources: per resource its heap entry (by
 * {@link Resource#number}), and by heap entry the load already frozen and the weight still unfrozen;
 * per flow (by {@link Flow#number}) whether it is in this solve and frozen yet. Arrays grow as needed.
 * The flows crossing each resource (SimGrid's constraint elements) are the {@link ResourceTable}'s
 * {@link Crossing}s.
 */
public final class MaxMinSolver {
    /** Where the flows crossing each resource are read (the order in which a saturated resource freezes them). */
    private final ResourceTable resources;
    /** Advances by 2 per solve: a flow's state is {@code stamp} while in the solve, {@code stamp + 1} once frozen. */
    private int stamp;
    private int[] handleOf = new int[16];
    private int[] flowState = new int[16];
    private double[] frozenLoad = new double[16];
    private double[] activeWeight = new double[16];
    // Heap entries are handles: 0..R-1 are the resources passed in, R.. the capped flows.
    private Resource[] resourceOf = new Resource[16];
    private Flow[] flowOf = new Flow[16];
    private double[] key = new double[16];
    /** A heap entry's tie-break within its kind: the resource's index, or the capped flow's id. */
    private long[] tie = new long[16];
    private int[] position = new int[16];
    private int[] heap = new int[16];
    private int size;
    private int resourceCount;
    // Resources whose load changed since the heap last moved (by handle), each once: touchedAt[h] == touchStamp.
    private int[] touched = new int[16];
    private long[] touchedAt = new long[16];
    private int touchedCount;
    // long: one step per pop, so an int would wrap within reach of a long run and re-level nothing
    private long touchStamp = 1;

    /** A solver over the resources of {@code resources}, reading the flows on each from its crossings. */
    MaxMinSolver(ResourceTable resources) {
        this.resources = resources;
    }

    /**
     * Sets {@code rate}, {@code bottleneck} and {@code cappedByItself} of every flow in the component.
     * {@code resources} holds every resource the flows cross; {@code outsideLoad[i]} is the load flows
     * outside the solve put on {@code resources.get(i)}.
     */
    void solve(ArrayList<Flow> flows, ArrayList<Resource> resources, double[] outsideLoad) {
        stamp += 2;
        resourceCount = resources.size();
        ensureCapacity(resourceCount + flows.size());
        size = 0;
        for (int i = 0; i < resourceCount; i++) {
            Resource r = resources.get(i);
            if (r.number >= handleOf.length) {
                handleOf = Arrays.copyOf(handleOf, Math.max(r.number + 1, 2 * handleOf.length));
            }
            // Load of flows outside this solve is fixed: it starts out as already-frozen load.
            frozenLoad[i] = outsideLoad[i];
            activeWeight[i] = 0;
            handleOf[r.number] = i;
            resourceOf[i] = r;
            tie[i] = r.index();
            position[i] = -1;
        }
        int handles = resourceCount;
        for (int j = 0; j < flows.size(); j++) {
            Flow f = flows.get(j);
            if (f.number >= flowState.length) {
                flowState = Arrays.copyOf(flowState, Math.max(f.number + 1, 2 * flowState.length));
            }
            flowState[f.number] = stamp;
            f.bottleneck = null;
            f.cappedByItself = false;
            Resource[] path = f.pathArray();
            for (int i = 0, ends = f.pathLength(); i < ends; i++) {
                activeWeight[handleOf[path[i].number]] += f.weight() * f.usage(i);
            }
            if (f.rateCap() < Double.POSITIVE_INFINITY) {
                int h = handles++;
                flowOf[h - resourceCount] = f;
                tie[h] = f.id();
                key[h] = f.rateCap() / f.weight();
                push(h);
            }
        }
        for (int i = 0; i < resourceCount; i++) {
            Resource r = resourceOf[i];
            if (activeWeight[i] > 0) {
                key[i] = Math.max(0.0, r.capacity() - frozenLoad[i]) / activeWeight[i];
                push(i);
            }
        }
        int unfrozen = flows.size();
        double level = 0;
        while (unfrozen > 0 && size > 0) {
            int h = pop();
            if (h < resourceCount) {
                Resource r = resourceOf[h];
                if (activeWeight[h] <= 0) {
                    continue;
                }
                level = Math.max(level, key[h]);
                Crossing on = this.resources.crossing(r);
                for (int k = 0, n = on.size(); k < n; k++) {
                    Flow f = on.flow(k);
                    int fn = f.number;
                    // Flows outside this solve keep their rate (their load is in outsideLoad); frozen
                    // ones are done.
                    if (fn >= flowState.length || flowState[fn] != stamp) {
                        continue;
                    }
                    unfrozen -= freeze(f, level, r);
                }
                relevel(level, r);
            } else {
                Flow f = flowOf[h - resourceCount];
                if (flowState[f.number] != stamp) {
                    continue;
                }
                level = Math.max(level, key[h]);
                f.cappedByItself = true;
                unfrozen -= freeze(f, level, null);
                relevel(level, null);
            }
        }
        Arrays.fill(resourceOf, 0, resourceCount, null);
        Arrays.fill(flowOf, 0, Math.max(0, handles - resourceCount), null);
        size = 0;
    }

    /**
     * Freezes {@code f} at {@code level}: its load moves from unfrozen weight to frozen load on every resource
     * it crosses, each of which is marked for {@link #relevel}. A saturated resource freezes all its flows
     * before any level moves in the heap: a resource several of them cross is moved once, at the level its
     * final load gives, which is the level and heap membership it would end with if moved after each flow
     * (the heap's order is total, so where it sits inside does not change what pops next).
     */
    private int freeze(Flow f, double level, Resource saturated) {
        flowState[f.number] = stamp + 1;
        double rate = f.cappedByItself ? Math.min(f.rateCap(), f.weight() * level) : f.weight() * level;
        f.rate = Math.min(rate, f.rateCap());
        f.bottleneck = saturated;
        Resource[] path = f.pathArray();
        for (int i = 0, ends = f.pathLength(); i < ends; i++) {
            Resource q = path[i];
            int h = handleOf[q.number];
            frozenLoad[h] += f.rate * f.usage(i);
            activeWeight[h] -= f.weight() * f.usage(i);
            if (activeWeight[h] <= 1e-12) {
                activeWeight[h] = 0;
            }
            if (touchedAt[h] != touchStamp) {
                touchedAt[h] = touchStamp;
                touched[touchedCount++] = h;
            }
        }
        return 1;
    }

    /** Moves the level of every resource touched since the last call (saturated: the one just popped). */
    private void relevel(double level, Resource saturated) {
        for (int t = 0; t < touchedCount; t++) {
            int h = touched[t];
            Resource q = resourceOf[h];
            if (q != saturated && activeWeight[h] > 1e-12) {
                double x = Math.max(0.0, q.capacity() - frozenLoad[h]) / activeWeight[h];
                key[h] = Math.max(x, level);
                if (position[h] < 0) {
                    push(h);
                } else {
                    // A level can move either way (a frozen flow may take more or less than its share).
                    siftUp(position[h]);
                    siftDown(position[h]);
                }
            } else {
                if (activeWeight[h] <= 1e-12) {
                    activeWeight[h] = 0;
                }
                if (position[h] >= 0) {
                    remove(h);
                }
            }
        }
        touchedCount = 0;
        touchStamp++;
    }

    private void ensureCapacity(int n) {
        if (key.length < n) {
            int c = Math.max(n, key.length * 2);
            resourceOf = Arrays.copyOf(resourceOf, c);
            flowOf = Arrays.copyOf(flowOf, c);
            key = Arrays.copyOf(key, c);
            tie = Arrays.copyOf(tie, c);
            frozenLoad = new double[c];
            activeWeight = new double[c];
            position = Arrays.copyOf(position, c);
            heap = Arrays.copyOf(heap, c);
            touched = new int[c];
            touchedAt = new long[c];
        }
    }

    /** Heap order: level, then resources before flow caps, then resource index or flow id (deterministic ties). */
    private boolean before(int a, int b) {
        double ka = key[a];
        double kb = key[b];
        // plain comparisons first (the heap's hot path; Double.compare is a call under C1); signed zeros
        // and NaN keep Double.compare's order, so the heap orders exactly as it did with it alone
        if (ka < kb) {
            return true;
        }
        if (ka > kb) {
            return false;
        }
        if (ka != kb || ka == 0.0) {
            int c = Double.compare(ka, kb);
            if (c != 0) {
                return c < 0;
            }
        }
        boolean ra = a < resourceCount;
        boolean rb = b < resourceCount;
        if (ra != rb) {
            return ra;
        }
        return tie[a] < tie[b];
    }

    private void push(int h) {
        heap[size] = h;
        position[h] = size;
        size++;
        siftUp(size - 1);
    }

    private int pop() {
        int top = heap[0];
        remove(top);
        return top;
    }

    private void remove(int h) {
        int at = position[h];
        position[h] = -1;
        size--;
        if (at == size) {
            return;
        }
        int last = heap[size];
        heap[at] = last;
        position[last] = at;
        siftUp(at);
        siftDown(position[last]);
    }

    private void siftUp(int at) {
        int h = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            int p = heap[parent];
            if (!before(h, p)) {
                break;
            }
            heap[at] = p;
            position[p] = at;
            at = parent;
        }
        heap[at] = h;
        position[h] = at;
    }

    private void siftDown(int at) {
        int h = heap[at];
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            int c = heap[child];
            if (!before(c, h)) {
                break;
            }
            heap[at] = c;
            position[c] = at;
            at = child;
        }
        heap[at] = h;
        position[h] = at;
    }
}
