package org.rdmasim.fluid;

/** The event of a flow running on its own: its last byte is delivered now (with any flow due at the same instant). */
final class FlowCompletion implements Runnable {
    private final FluidNetwork network;
    private final Flow flow;

    FlowCompletion(FluidNetwork network, Flow flow) {
        this.network = network;
        this.flow = flow;
    }

    @Override
    public void run() {
        network.onCompletionEvent(flow);
    }
}
