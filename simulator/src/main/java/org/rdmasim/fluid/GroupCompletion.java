package org.rdmasim.fluid;

import java.util.function.Consumer;

/** The one event of a {@link FlowGroup}: its member with the smallest tag finishes now. */
final class GroupCompletion implements Runnable {
    private final Consumer<Flow> due;
    private final Flow pseudo;

    GroupCompletion(Consumer<Flow> due, Flow pseudo) {
        this.due = due;
        this.pseudo = pseudo;
    }

    @Override
    public void run() {
        due.accept(pseudo);
    }
}
