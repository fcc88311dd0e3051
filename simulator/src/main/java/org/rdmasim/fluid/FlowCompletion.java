package org.rdmasim.fluid;

/** The event of a flow running on its own: its last byte is delivered now (with any flow due at the same instant). */
final class FlowCompletion implements Runnable {
    private final CompletionEvents events;
    private final Flow flow;

    FlowCompletion(CompletionEvents events, Flow flow) {
        this.events = events;
        this.flow = flow;
    }

    @Override
    public void run() {
        events.fire(flow);
    }
}
