package org.rdmasim.fluid;

import java.util.function.Consumer;

/** The one event of a {@link FlowGroup}: its member with the smallest tag finishes now. */
final class GroupCompletion implements Runnable {
    private final Consumer<FlowGroup> due;
    private final FlowGroup group;

    GroupCompletion(Consumer<FlowGroup> due, FlowGroup group) {
        this.due = due;
        this.group = group;
    }

    @Override
    public void run() {
        due.accept(group);
    }
}
