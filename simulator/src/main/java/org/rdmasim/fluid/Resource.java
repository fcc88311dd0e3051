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
        return load;
    }

    public double peakLoad() {
        return peakLoad;
    }

    public int activeFlows() {
        return flows.size();
    }

    /** Bytes carried up to {@code now}. */
    public double bytesCarried(double now) {
        return bytesCarried + load * (now - loadSince);
    }

    void setLoad(double now, double newLoad) {
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
