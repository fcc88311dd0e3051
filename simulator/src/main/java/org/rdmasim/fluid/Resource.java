package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.List;

/**
 * A capacity shared by flows: one direction of one link, or one side of a device. Capacity is in
 * bytes per second. A resource also keeps its own load history (bytes carried, busy integral) so
 * reports need not replay the run.
 */
public final class Resource {
    private final int index;
    private final Limit limit;
    /**
     * Dense number in build order (reserved-but-unbuilt indices take none): where the solver, the
     * region re-solve and grouping keep this resource's scratch in their arrays.
     */
    final int number;
    // Its limit's id, built once: names are read in logs and checks, never rebuilt per use.
    private final String name;
    private final ResourceKind kind;
    // Not final: a fault may degrade a link or NIC to a fraction of its rate mid-run.
    private double capacity;

    final List<Flow> flows = new ArrayList<>();

    /** An observer reports this resource's load changes, so groups never follow it lazily. */
    boolean watched;

    /** The group whose pseudo-flow is frozen here by definition (members' bottleneck), or null. */
    FlowGroup group;
    /** Pseudo-flows in {@link #flows} (they are not flows of their own). */
    int pseudoCount;
    /** Group members crossing this resource (they are not in {@link #flows}). */
    int memberCount;
    /**
     * Non-null while this resource carries only one grouped member: its load is then {@code lazyFactor}
     * times the group's level, and bytes and peak follow the group's virtual clock and level history
     * instead of being updated on every level change.
     */
    Flow lazyMember;
    /**
     * The group this resource follows, or null: {@code lazyMember}'s group, or with no lazy member a
     * group several of whose members cross it and nothing else does (the lanes of one striped receiver
     * on its GPU link). Then the group's cap keeps the level below where this resource would bind.
     */
    FlowGroup lazyGroup;
    /** Members crossing this resource while it follows {@link #lazyGroup}. */
    int lazyCount;
    double lazyFactor;
    private double lazyV0;
    private double lazyBytes0;
    private long lazyPeakFrom;

    // Load accounting.
    private double load;
    private double loadSince;
    private double bytesCarried;
    private double peakLoad;

    Resource(int index, int number, Limit limit, ResourceKind kind, double capacityBytesPerSecond) {
        this.name = limit.id();
        if (!(capacityBytesPerSecond > 0) || Double.isInfinite(capacityBytesPerSecond)) {
            throw new IllegalArgumentException("resource " + name + " needs a finite positive capacity, got "
                    + capacityBytesPerSecond);
        }
        this.index = index;
        this.limit = limit;
        this.number = number;
        this.kind = kind;
        this.capacity = capacityBytesPerSecond;
    }

    public int index() {
        return index;
    }

    /** Its limit's id (names as in resources.csv). */
    public String name() {
        return name;
    }

    /** What this resource stands for, as the layer that built it described it. */
    public Limit limit() {
        return limit;
    }

    public ResourceKind kind() {
        return kind;
    }

    /** Bytes per second. */
    public double capacity() {
        return capacity;
    }

    /** Changes the capacity (a degraded port); the caller re-solves the flows crossing it. */
    void setCapacity(double capacityBytesPerSecond) {
        if (!(capacityBytesPerSecond > 0) || Double.isInfinite(capacityBytesPerSecond)) {
            throw new IllegalArgumentException("resource " + name + " needs a finite positive capacity, got "
                    + capacityBytesPerSecond);
        }
        this.capacity = capacityBytesPerSecond;
    }

    /** Current load in bytes per second (sum of the rates of the flows crossing it). */
    public double load() {
        return lazyGroup != null ? lazyFactor * lazyGroup.level() : load;
    }

    public double peakLoad() {
        return lazyGroup != null ? Math.max(peakLoad, lazyFactor * lazyGroup.maxLevelSince(lazyPeakFrom)) : peakLoad;
    }

    public int activeFlows() {
        return flows.size() - pseudoCount + memberCount;
    }

    /** Bytes carried up to {@code now}. */
    public double bytesCarried(double now) {
        if (lazyGroup != null) {
            return lazyBytes0 + lazyFactor * (lazyGroup.virtualTimeAt(now) - lazyV0);
        }
        return bytesCarried + load * (now - loadSince);
    }

    /** Starts following {@code member}'s group (this resource carries that member only). */
    void beginLazy(Flow member, double factor, double now) {
        beginShared(member.group, factor, 1, now);
        lazyMember = member;
    }

    /** Starts following {@code group}, {@code count} of whose members (and nothing else) cross this resource. */
    void beginShared(FlowGroup group, double factor, int count, double now) {
        setLoad(now, load);
        lazyBytes0 = bytesCarried;
        lazyV0 = group.virtualTimeAt(now);
        lazyPeakFrom = group.levelRecord();
        lazyFactor = factor;
        lazyGroup = group;
        lazyCount = count;
    }

    /** The followed members' summed usage changes now: bytes and peak so far are kept at the old factor. */
    void refactor(double factor, double now) {
        double carried = bytesCarried(now);
        peakLoad = peakLoad();
        lazyBytes0 = carried;
        lazyV0 = lazyGroup.virtualTimeAt(now);
        lazyPeakFrom = lazyGroup.levelRecord();
        lazyFactor = factor;
    }

    /** Level of the followed group at which this resource would be full. */
    double lazyLimit() {
        return capacity / lazyFactor;
    }

    /** Stops following the group: bytes, peak and load become stored values again, as of {@code now}. */
    void endLazy(double now) {
        double carried = bytesCarried(now);
        double peak = peakLoad();
        double current = load();
        lazyMember = null;
        lazyGroup = null;
        lazyCount = 0;
        bytesCarried = carried;
        loadSince = now;
        load = current;
        peakLoad = peak;
    }

    /** The load its flows (and a followed group) carry at their current rates, summed flow by flow. */
    double summedLoad() {
        double sum = lazyGroup != null ? lazyFactor * lazyGroup.level() : 0;
        for (Flow f : flows) {
            sum += f.rate * f.usageOf(this);
        }
        return sum;
    }

    void setLoad(double now, double newLoad) {
        if (lazyGroup != null) {
            throw new IllegalStateException(name + " follows a group; its load is not set directly");
        }
        bytesCarried += load * (now - loadSince);
        loadSince = now;
        load = newLoad;
        if (newLoad > peakLoad) {
            peakLoad = newLoad;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
