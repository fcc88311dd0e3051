package org.rdmasim.workload;

/**
 * The end of an instant in which receivers finished their pulls: their sources are freed (and, in a
 * tree, they are published as sources) in receiver order, then waiting receivers are served.
 */
final class ReceiversEnded implements Runnable {
    private final FanoutRun run;

    ReceiversEnded(FanoutRun run) {
        this.run = run;
    }

    @Override
    public void run() {
        run.endInstant();
    }
}
