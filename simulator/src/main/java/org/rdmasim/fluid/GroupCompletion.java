package org.rdmasim.fluid;

/** The one event of a {@link FlowGroup}: its member with the smallest tag finishes now. */
final class GroupCompletion implements Runnable {
    private final CompletionEvents events;
    private final Flow pseudo;

    GroupCompletion(CompletionEvents events, Flow pseudo) {
        this.events = events;
        this.pseudo = pseudo;
    }

    @Override
    public void run() {
        events.fire(pseudo);
    }
}
