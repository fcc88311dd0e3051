package org.rdmasim.fluid;

/** The one event of a {@link FlowGroup}: its member with the smallest tag finishes now. */
final class GroupCompletion implements Runnable {
    private final FluidNetwork network;
    private final Flow pseudo;

    GroupCompletion(FluidNetwork network, Flow pseudo) {
        this.network = network;
        this.pseudo = pseudo;
    }

    @Override
    public void run() {
        network.onCompletionEvent(pseudo);
    }
}
