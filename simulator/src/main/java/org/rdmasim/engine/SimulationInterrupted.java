package org.rdmasim.engine;

/**
 * The simulating thread was interrupted (Ctrl-C, or a sweep stopping its workers) and the event loop
 * stopped: the run's state is abandoned, not a result. The thread keeps its interrupt flag, so the
 * caller that sees this can tell a stop from a failure.
 */
public final class SimulationInterrupted extends RuntimeException {
    SimulationInterrupted(double atSeconds, long eventsFired) {
        super("simulation interrupted at " + atSeconds + " s of simulated time, after " + eventsFired + " events");
    }
}
