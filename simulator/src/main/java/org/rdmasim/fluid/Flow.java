package org.rdmasim.fluid;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rdmasim.engine.SimulationClock.ScheduledAction;

/**
 * Bytes moving over a fixed path of resources. Its rate is set by the solver; between rate changes
 * the remaining byte count falls linearly, so it is settled lazily.
 */
public final class Flow {
    private final long id;
    private final String label;
    private final Resource[] path;
    private final double[] usage;
    private final double weight;
    private final double rateCap;
    private final long bytes;
    private final double startTime;
    final FlowListener listener;

    double remaining;
    double rate;
    double lastSettled;
    /** The resource that froze this flow in the last solve, or null when its own cap did. */
    Resource bottleneck;
    boolean cappedByItself;
    boolean frozen;
    int stamp;
    int solveMark;
    int componentMark;
    double finishTime = Double.NaN;
    ScheduledAction completion;
    final int[] slotInResource;
    private final Map<String, Double> bytesByLimiter = new LinkedHashMap<>();

    Flow(long id, String label, Resource[] path, double[] usage, double weight, double rateCap, long bytes,
            double now, FlowListener listener) {
        this.id = id;
        this.label = label;
        this.path = path;
        this.usage = usage;
        this.weight = weight;
        this.rateCap = rateCap;
        this.bytes = bytes;
        this.startTime = now;
        this.remaining = bytes;
        this.lastSettled = now;
        this.listener = listener;
        this.slotInResource = new int[path.length];
    }

    public long id() {
        return id;
    }

    public String label() {
        return label;
    }

    /** The resources crossed, in path order. */
    public Resource[] path() {
        return path.clone();
    }

    Resource[] pathInternal() {
        return path;
    }

    /**
     * How many bytes of resource {@code i}'s capacity one byte of this flow uses: 1 for a link it
     * crosses once, 2 for host memory that a staged copy writes and then reads.
     */
    double usage(int i) {
        return usage[i];
    }

    public double usageOf(Resource r) {
        for (int i = 0; i < path.length; i++) {
            if (path[i] == r) {
                return usage[i];
            }
        }
        return 0;
    }

    public double weight() {
        return weight;
    }

    /** Per-flow limit in bytes per second ({@code +Infinity} when none), e.g. an RDMA READ QP limit. */
    public double rateCap() {
        return rateCap;
    }

    public long bytes() {
        return bytes;
    }

    public double startTime() {
        return startTime;
    }

    /** Current rate in bytes per second. */
    public double rate() {
        return rate;
    }

    /** Completion time, NaN while running. */
    public double finishTime() {
        return finishTime;
    }

    public boolean isFinished() {
        return !Double.isNaN(finishTime);
    }

    /** Name of what limits the flow now: a resource name, or {@code "flow-cap"}. */
    public String limiter() {
        if (cappedByItself) {
            return FlowListener.OWN_CAP;
        }
        return bottleneck == null ? "none" : bottleneck.name();
    }

    /**
     * What limited this flow over its life, weighted by bytes: the limiter that carried the most
     * bytes. Ties go to the first seen.
     */
    public String dominantLimiter() {
        String best = limiter();
        double bestBytes = -1;
        for (Map.Entry<String, Double> e : bytesByLimiter.entrySet()) {
            if (e.getValue() > bestBytes) {
                best = e.getKey();
                bestBytes = e.getValue();
            }
        }
        return best;
    }

    /** Bytes delivered per limiter over the flow's life. */
    public Map<String, Double> bytesByLimiter() {
        return Map.copyOf(bytesByLimiter);
    }

    /** Bytes still to deliver at {@code now}. */
    public double remainingAt(double now) {
        return Math.max(0.0, remaining - rate * (now - lastSettled));
    }

    void settle(double now) {
        double dt = now - lastSettled;
        if (dt > 0 && rate > 0) {
            double moved = Math.min(remaining, rate * dt);
            remaining -= moved;
            bytesByLimiter.merge(limiter(), moved, Double::sum);
        }
        lastSettled = now;
    }

    void markFinished(double now) {
        if (remaining > 0) {
            bytesByLimiter.merge(limiter(), remaining, Double::sum);
        }
        remaining = 0;
        rate = 0;
        finishTime = now;
    }

    @Override
    public String toString() {
        return label;
    }
}
