package org.rdmasim.fluid;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.rdmasim.engine.SimulationClock.ScheduledAction;

/**
 * Bytes moving over a fixed path of resources. Its rate is set by the solver; between rate changes
 * the remaining byte count falls linearly, so it is settled lazily. A flow knows the resources it
 * crosses but not who listens for its end nor which group it runs in (the network keeps both by its
 * {@link #number}); a grouped member reads its rate from its group's {@link Level}.
 */
public final class Flow {
    private final long id;
    private final Supplier<String> label;
    // Not final: a group's pseudo-flow gains and loses shared resources as members come and go. Its
    // arrays then have room beyond pathLength, so a member joining or leaving costs O(1), not a copy of
    // a path of hundreds of resources (a refit's groups span every sender's links). Entries at and past
    // pathLength are unused; every reader stops at pathLength.
    private Resource[] path;
    /** Usage of each resource on the path; may be longer than the path, and may be {@link #ONES}, shared. */
    private double[] usage;
    private int pathLength;
    private final double weight;
    // Not final: a pseudo-flow's cap is its group's lowest member threshold.
    double rateCap;
    private final long bytes;
    private final double startTime;

    double remaining;
    double rate;
    double lastSettled;
    /** The resource that froze this flow in the last solve, or null when its own cap did. */
    Resource bottleneck;
    boolean cappedByItself;
    /**
     * Dense number while the flow runs (taken at start, given back when it ends; -1 otherwise): where
     * the solver, the region re-solve and the completion events keep this flow's scratch in their arrays.
     */
    int number = -1;
    double finishTime = Double.NaN;
    private boolean aborted;
    ScheduledAction completion;
    /**
     * Where this flow sits in the crossing of each resource on its path, while it is in them. Null while
     * it is a member of a group (members are in no crossing): a member spends most of its life waiting in
     * its group, and the array was ~50 bytes of every lane of a large fan-out's backlog, copied by each
     * young collection. {@link RunningFlows#attach} makes it again for a member put back on its own.
     */
    int[] slotInResource;
    /**
     * Non-null while this flow is a member of a group: the group's level, which its rate follows (its
     * rate and remaining bytes then live in the group; {@link FlowGroups} knows which group it is).
     */
    Level groupLevel;
    /** Group virtual time at which this member finishes. */
    double tag;
    /** Lowest group level at which this member's own cap or one of its private resources would bind. */
    double threshold;
    /** Remaining bytes when the flow joined its group (to credit the bytes moved while in it). */
    double remainingAtJoin;
    /** When the flow joined its group (to credit the time spent in it). */
    double joinedAt;
    // Bytes delivered per limit, in first-seen order. Parallel arrays rather than a map: a flow meets
    // one to three limits, and settle() runs on every re-solve of its region (a boxed map merge there
    // was a tenth of a large fan-out's run time). Limits are compared by identity: one per resource.
    // The first limit is held in fields and the arrays made when a second is met: most lanes run under
    // one limit all their life, and two arrays per flow made at its start were ~56 bytes of every lane in
    // flight (a 65,536-transfer list holds tens of thousands), copied by each young collection.
    /**
     * Usages of 1 for a path of up to its length, shared by every flow whose usages are all 1 (a lane
     * crosses each resource once). Nothing writes it: only a group's pseudo-flow has its usages changed,
     * and it is made with its own array.
     */
    static final double[] ONES = ones(32);

    private static double[] ones(int n) {
        double[] u = new double[n];
        Arrays.fill(u, 1.0);
        return u;
    }

    private static final Limit[] NO_LIMITS = new Limit[0];
    private static final double[] NO_BYTES = new double[0];
    private Limit firstLimit;
    private double firstLimitBytes;
    private Limit[] moreLimits = NO_LIMITS;
    private double[] moreLimitBytes = NO_BYTES;
    private int limitCount;
    // Seconds spent under each limit, beside its bytes: which limit held the flow longest is a matter of
    // time (a lane held to a third of its rate for most of its life carries fewer bytes than in its last
    // unshared part, yet that share is what set its length).
    private double firstLimitSeconds;
    private double[] moreLimitSeconds = NO_BYTES;

    Flow(long id, String label, Resource[] path, double[] usage, double weight, double rateCap, long bytes,
            double now) {
        this(id, () -> label, path, usage, weight, rateCap, bytes, now);
    }

    /** A flow named by {@code label} when asked (see {@link FlowStart}). */
    Flow(long id, Supplier<String> label, Resource[] path, double[] usage, double weight, double rateCap, long bytes,
            double now) {
        this.id = id;
        this.label = label;
        this.path = path;
        this.usage = usage;
        this.pathLength = path.length;
        this.weight = weight;
        this.rateCap = rateCap;
        this.bytes = bytes;
        this.startTime = now;
        this.remaining = bytes;
        this.lastSettled = now;
        this.slotInResource = new int[path.length];
    }

    public long id() {
        return id;
    }

    public String label() {
        return label.get();
    }

    /** The resources crossed, in path order. */
    public Resource[] path() {
        return Arrays.copyOf(path, pathLength);
    }

    /** The path array itself: its first {@link #pathLength()} entries are the path, the rest room to grow. */
    Resource[] pathArray() {
        return path;
    }

    /** Adds the resources of the path to {@code out}, in path order. */
    void addPathTo(java.util.Collection<Resource> out) {
        for (int i = 0; i < pathLength; i++) {
            out.add(path[i]);
        }
    }

    /** Resources on the path. */
    int pathLength() {
        return pathLength;
    }

    /**
     * Appends {@code r} with {@code use} to a pseudo-flow's path (the caller keeps resource lists
     * consistent); returns its position. The arrays double when full.
     */
    int appendToPath(Resource r, double use) {
        int n = pathLength;
        if (n == path.length) {
            int room = Math.max(4, 2 * n);
            path = Arrays.copyOf(path, room);
            usage = Arrays.copyOf(usage, room);
            slotInResource = Arrays.copyOf(slotInResource, room);
        }
        path[n] = r;
        usage[n] = use;
        pathLength = n + 1;
        return n;
    }

    /**
     * Removes position {@code k} of a pseudo-flow's path by moving the last entry into it (the caller
     * updates the moved resource's crossing and keeps resource lists consistent).
     */
    void removeFromPath(int k) {
        int last = --pathLength;
        if (k != last) {
            path[k] = path[last];
            usage[k] = usage[last];
            slotInResource[k] = slotInResource[last];
        }
        path[last] = null;
        usage[last] = 0;
    }

    double[] usageInternal() {
        return usage;
    }

    /**
     * How many bytes of resource {@code i}'s capacity one byte of this flow uses: 1 for a link it
     * crosses once, 2 for host memory that a staged copy writes and then reads.
     */
    double usage(int i) {
        return usage[i];
    }

    /** How many bytes of {@code r}'s capacity one byte of this flow uses, 0 when it does not cross it. */
    public double usageOf(Resource r) {
        for (int i = 0; i < pathLength; i++) {
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
        return groupLevel != null ? weight * groupLevel.level() : rate;
    }

    /** Completion time, NaN while running. */
    public double finishTime() {
        return finishTime;
    }

    public boolean isFinished() {
        return !Double.isNaN(finishTime);
    }

    /** What limits the flow now: a resource's limit, {@link Limit#OWN_CAP} or {@link Limit#NONE}. */
    public Limit limiter() {
        return limiterOf(cappedByItself, bottleneck);
    }

    /** The limit a flow frozen at {@code bottleneck} (null: none), or by its own cap, runs under. */
    static Limit limiterOf(boolean cappedByItself, Resource bottleneck) {
        if (cappedByItself) {
            return Limit.OWN_CAP;
        }
        return bottleneck == null ? Limit.NONE : bottleneck.heldAs();
    }

    /**
     * What limited this flow over its life: the limit it spent the most seconds under (a share that held it
     * most of its life set its length, though the unshared part after it may carry more bytes). Ties go to
     * the first seen.
     */
    public Limit dominantLimiter() {
        Limit best = limiter();
        double bestSeconds = -1;
        for (int i = 0; i < limitCount; i++) {
            double s = i == 0 ? firstLimitSeconds : moreLimitSeconds[i - 1];
            if (s > bestSeconds) {
                best = limitAt(i);
                bestSeconds = s;
            }
        }
        return best;
    }

    /**
     * Seconds the flow moved bytes under each limit, in the order the limits were first met (a stall at rate
     * 0 counts under none).
     */
    public Map<Limit, Double> secondsByLimiter() {
        Map<Limit, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < limitCount; i++) {
            out.put(limitAt(i), i == 0 ? firstLimitSeconds : moreLimitSeconds[i - 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** How many limits the flow met over its life. */
    public int limitsMet() {
        return limitCount;
    }

    /** Bytes delivered per limit over the flow's life. */
    public Map<Limit, Double> bytesByLimiter() {
        Map<Limit, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < limitCount; i++) {
            out.put(limitAt(i), limitBytesAt(i));
        }
        return Map.copyOf(out);
    }

    /** The {@code i}-th limit met, in first-seen order. */
    private Limit limitAt(int i) {
        return i == 0 ? firstLimit : moreLimits[i - 1];
    }

    /** Bytes delivered under the {@code i}-th limit met. */
    private double limitBytesAt(int i) {
        return i == 0 ? firstLimitBytes : moreLimitBytes[i - 1];
    }

    /** Adds {@code moved} bytes and {@code seconds} to the current limit. */
    private void credit(double moved, double seconds) {
        credit(moved, seconds, limiter());
    }

    /**
     * Adds {@code moved} to the bytes and {@code seconds} to the time of limit {@code now} (same sums, in the
     * same order, as a map merge).
     */
    private void credit(double moved, double seconds, Limit now) {
        if (limitCount == 0) {
            firstLimit = now;
            firstLimitBytes = moved;
            firstLimitSeconds = seconds;
            limitCount = 1;
            return;
        }
        if (firstLimit == now) {
            firstLimitBytes += moved;
            firstLimitSeconds += seconds;
            return;
        }
        int more = limitCount - 1;
        for (int i = 0; i < more; i++) {
            if (moreLimits[i] == now) {
                moreLimitBytes[i] += moved;
                moreLimitSeconds[i] += seconds;
                return;
            }
        }
        if (more == moreLimits.length) {
            moreLimits = Arrays.copyOf(moreLimits, Math.max(2, 2 * more));
            moreLimitBytes = Arrays.copyOf(moreLimitBytes, Math.max(2, 2 * more));
            moreLimitSeconds = Arrays.copyOf(moreLimitSeconds, Math.max(2, 2 * more));
        }
        moreLimits[more] = now;
        moreLimitBytes[more] = moved;
        moreLimitSeconds[more] = seconds;
        limitCount++;
    }

    /** Credits the bytes moved while in a group to the limiter it had there (the group's resource). */
    void creditGrouped(double moved, double seconds) {
        if (moved > 0) {
            credit(moved, Math.max(0.0, seconds));
        }
    }

    /** Counts the bytes moved since the last settle at the current rate, under the current limit. */
    void settle(double now) {
        settle(now, rate, limiter());
    }

    /**
     * Counts the bytes moved since the last settle at {@code rateBefore} under {@code limitBefore}: the
     * rate and limit the flow ran at until now, when a re-solve has already given it new ones. Not for a
     * group's pseudo-flow, which has no bytes of its own (its group's virtual clock advances instead).
     */
    void settle(double now, double rateBefore, Limit limitBefore) {
        double dt = now - lastSettled;
        if (dt > 0 && rateBefore > 0) {
            double moved = Math.min(remaining, rateBefore * dt);
            remaining -= moved;
            credit(moved, dt, limitBefore);
        }
        lastSettled = now;
    }

    /** Stopped before delivering everything (its port failed): the bytes left stay undelivered. */
    void markAborted(double now) {
        rate = 0;
        finishTime = now;
        aborted = true;
    }

    /** True when the flow was stopped by {@link FluidNetwork#abort} rather than delivering its bytes. */
    public boolean isAborted() {
        return aborted;
    }

    void markFinished(double now) {
        if (remaining > 0) {
            credit(remaining, Math.max(0.0, now - lastSettled));
        }
        remaining = 0;
        rate = 0;
        finishTime = now;
    }

    @Override
    public String toString() {
        return label.get();
    }
}
