package org.rdmasim.workload;

/** A scheduled fault starts or ends (a port goes down or comes back, a rate drops or recovers, a host leaves). */
final class FaultEvent implements Runnable {
    private final Runnable action;

    FaultEvent(Runnable action) {
        this.action = action;
    }

    @Override
    public void run() {
        action.run();
    }
}
