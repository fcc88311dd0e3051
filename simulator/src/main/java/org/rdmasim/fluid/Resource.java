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
    private final String name;
    private final ResourceKind kind;
    private final double capacity;

    final List<Flow> flows = new ArrayList<>();

    // Solver scratch, valid only during one solve.
    /** An observer reports this resource's load changes, so groups never follow it lazily. */
    boolean watched;
    double frozenLoad;
    double outsideLoad;
    double solvedLoad;
    double regionLoad;
    int regionFlows;
    double activeWeight;
    int stamp;
    int componentMark;
    /** This resource's entry in the solver's heap during one solve. */
    int solverHandle;

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
    double lazyFactor;
    private double lazyV0;
    private double lazyBytes0;
    private long lazyPeakFrom;
    // Scratch for grouping candidates.
    int candidateMark;
    List<Flow> candidates;

    // Load accounting.
    private double load;
    private double loadSince;
    private double bytesCarried;
    private double peakLoad;

    Resource(int index, String name, ResourceKind kind, double capacityBytesPerSecond) {
        if (!(capacityBytesPerSecond > 0) || Double.isInfinite(capacityBytesPerSecond)) {
            throw new IllegalArgumentException("resource " + name + " needs a finite positive capacity, got "
                    + capacityBytesPerSecond);
        }
        this.index = index;
        this.name = name;
        this.kind = kind;
        this.capacity = capacityBytesPerSecond;
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public ResourceKind kind() {
        return kind;
    }

    /** Bytes per second. */
    public double capacity() {
        return capacity;
    }

    /** Current load in bytes per second (sum of the rates of the flows crossing it). */
    public double load() {
        return lazyMember != null ? lazyFactor * lazyMember.group.level() : load;
    }

    public double peakLoad() {
        return lazyMember != null ? Math.max(peakLoad, lazyFactor * lazyMember.group.maxLevelSince(lazyPeakFrom)) : peakLoad;
    }

    public int activeFlows() {
        return flows.size() - pseudoCount + memberCount;
    }

    /** Bytes carried up to {@code now}. */
    public double bytesCarried(double now) {
        if (lazyMember != null) {
            return lazyBytes0 + lazyFactor * (lazyMember.group.virtualTimeAt(now) - lazyV0);
        }
        return bytesCarried + load * (now - loadSince);
    }

    /** Starts following {@code member}'s group (this resource carries that member only). */
    void beginLazy(Flow member, double factor, double now) {
        setLoad(now, load);
        lazyBytes0 = bytesCarried;
        lazyV0 = member.group.virtualTimeAt(now);
        lazyPeakFrom = member.group.levelRecord();
        lazyFactor = factor;
        lazyMember = member;
    }

    /** Stops following the group: bytes, peak and load become stored values again, as of {@code now}. */
    void endLazy(double now) {
        double carried = bytesCarried(now);
        double peak = peakLoad();
        double current = load();
        lazyMember = null;
        bytesCarried = carried;
        loadSince = now;
        load = current;
        peakLoad = peak;
    }

    void setLoad(double now, double newLoad) {
        if (lazyMember != null) {
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
