package org.rdmasim.fluid;

/** Told when a flow has delivered all its bytes. */
@FunctionalInterface
public interface FlowListener {
    /** Limiter name used when a flow's own rate cap is what holds it back. */
    String OWN_CAP = "flow-cap";

    void finished(Flow flow);
}
