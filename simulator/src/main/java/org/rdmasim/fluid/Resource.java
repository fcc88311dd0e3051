package org.rdmasim.fluid;

/**
 * A capacity shared by flows: one direction of one link, or one side of a device. Capacity is in
 * bytes per second. A resource also keeps its own load history (bytes carried, busy integral) so
 * reports need not replay the run. It knows nothing of the flows crossing it (the {@link ResourceTable}
 * keeps those, as a {@link Crossing}) nor of groups: a group it follows is only a {@link Level} to it.
 */
public final class Resource {
    private final int index;
    private final Limit limit;
    /**
     * Dense number in build order (reserved-but-unbuilt indices take none): where the solver, the
     * region re-solve and grouping keep this resource's scratch in their arrays.
     */
    final int number;
    // No name field: its limit's id is built when a message or table asks (at 128k receivers the stored
    // names were ~60 MB, and nothing on the simulation's path reads them).
    private final ResourceKind kind;
    // Not final: a fault may degrade a link or NIC to a fraction of its rate mid-run.
    private double capacity;
    /** Null, or while a fault degrades it, the limit its flows are credited to instead of {@link #limit}. */
    private Limit heldAs;

    /** An observer reports this resource's load changes, so groups never follow it lazily. */
    boolean watched;

    /** Running flows crossing it, grouped members included (kept by {@link RunningFlows}). */
    int activeFlows;

    /**
     * Non-null while this resource carries only members of one group (see {@link FlowGroups}): its load
     * is then {@code lazyFactor} times that level, and bytes and peak follow the level's virtual clock
     * and history instead of being updated on every level change.
     */
    private Level followed;
    private double lazyFactor;
    private long lazyPeakFrom;

    // Load accounting. Bytes carried up to {@code since}: the last load change, in simulated time, or
    // while a level is followed, the level's virtual time when its factor was last set (its own load and
    // time stand still then and are not read). One pair for both, as each resource of a large run is
    // kept to its end (~850,000 at 65,536 transfers): two more doubles were ~14 MB of its live set.
    private double load;
    private double since;
    private double bytesCarried;
    private double peakLoad;

    Resource(int index, int number, Limit limit, ResourceKind kind, double capacityBytesPerSecond) {
        if (!(capacityBytesPerSecond > 0) || Double.isInfinite(capacityBytesPerSecond)) {
            throw new IllegalArgumentException("resource " + limit.id() + " needs a finite positive capacity, got "
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
        return limit.id();
    }

    /** What a flow this resource holds is credited to now: its limit, or what a fault made of it. */
    public Limit heldAs() {
        return heldAs == null ? limit : heldAs;
    }

    /** From now on flows it holds are credited to {@code as} (the caller settles them first). */
    void holdAs(Limit as) {
        heldAs = as == limit ? null : as;
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
            throw new IllegalArgumentException("resource " + name() + " needs a finite positive capacity, got "
                    + capacityBytesPerSecond);
        }
        this.capacity = capacityBytesPerSecond;
    }

    /** Current load in bytes per second (sum of the rates of the flows crossing it). */
    public double load() {
        return followed != null ? lazyFactor * followed.level() : load;
    }

    public double peakLoad() {
        return followed != null ? Math.max(peakLoad, lazyFactor * followed.maxLevelSince(lazyPeakFrom)) : peakLoad;
    }

    /** Running flows crossing this resource, those running in a group included. */
    public int activeFlows() {
        return activeFlows;
    }

    /** Bytes carried up to {@code now}. */
    public double bytesCarried(double now) {
        if (followed != null) {
            return bytesCarried + lazyFactor * (followed.virtualTimeAt(now) - since);
        }
        return bytesCarried + load * (now - since);
    }

    /** Starts following {@code level}, at {@code factor} bytes per second per unit of it. */
    void follow(Level level, double factor, double now) {
        setLoad(now, load);
        since = level.virtualTimeAt(now);
        lazyPeakFrom = level.levelRecord();
        lazyFactor = factor;
        followed = level;
    }

    /** Whether this resource follows a group's level rather than carrying a load of its own. */
    boolean follows() {
        return followed != null;
    }

    /** Bytes per second per unit of the followed level. */
    double lazyFactor() {
        return lazyFactor;
    }

    /** The followed members' summed usage changes now: bytes and peak so far are kept at the old factor. */
    void refactor(double factor, double now) {
        double carried = bytesCarried(now);
        peakLoad = peakLoad();
        bytesCarried = carried;
        since = followed.virtualTimeAt(now);
        lazyPeakFrom = followed.levelRecord();
        lazyFactor = factor;
    }

    /** Level of the followed group at which this resource would be full. */
    double lazyLimit() {
        return capacity / lazyFactor;
    }

    /** Stops following the group: bytes, peak and load become stored values again, as of {@code now}. */
    void unfollow(double now) {
        double carried = bytesCarried(now);
        double peak = peakLoad();
        double current = load();
        followed = null;
        bytesCarried = carried;
        since = now;
        load = current;
        peakLoad = peak;
    }

    /** The load the followed level puts on this resource, 0 when it follows none. */
    double followedLoad() {
        return followed != null ? lazyFactor * followed.level() : 0;
    }

    void setLoad(double now, double newLoad) {
        if (followed != null) {
            throw new IllegalStateException(name() + " follows a group; its load is not set directly");
        }
        bytesCarried += load * (now - since);
        since = now;
        load = newLoad;
        if (newLoad > peakLoad) {
            peakLoad = newLoad;
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
