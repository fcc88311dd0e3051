package org.rdmasim.fluid;

import java.util.function.Consumer;

/** The event of a flow running on its own: its last byte is delivered now (with any flow due at the same instant). */
final class FlowCompletion implements Runnable {
    private final Consumer<Flow> due;
    private final Flow flow;

    FlowCompletion(Consumer<Flow> due, Flow flow) {
        this.due = due;
        this.flow = flow;
    }

    @Override
    public void run() {
        due.accept(flow);
    }
}
