package org.rdmasim.fluid;

/** Told when a flow has delivered all its bytes. */
@FunctionalInterface
public interface FlowListener {
    void finished(Flow flow);
}
