package org.rdmasim.workload;

/** A listed transfer is posted at its {@code at:} time. */
final class TransferPost implements Runnable {
    private final WorkloadRun run;
    private final TransferItem item;

    TransferPost(WorkloadRun run, TransferItem item) {
        this.run = run;
        this.item = item;
    }

    @Override
    public void run() {
        run.postListed(item);
    }
}
