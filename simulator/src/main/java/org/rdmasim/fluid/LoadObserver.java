package org.rdmasim.fluid;

/** Notified when the load on a resource changes (bytes per second, at simulated time {@code now}). */
@FunctionalInterface
public interface LoadObserver {
    void loadChanged(Resource resource, double now, double load);
}
