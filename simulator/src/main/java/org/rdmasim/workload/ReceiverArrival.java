package org.rdmasim.workload;

/** A fan-out receiver arrives and asks for a source. */
final class ReceiverArrival implements Runnable {
    private final FanoutRun fanout;
    private final int receiver;

    ReceiverArrival(FanoutRun fanout, int receiver) {
        this.fanout = fanout;
        this.receiver = receiver;
    }

    @Override
    public void run() {
        fanout.arrive(receiver);
    }
}
