package org.rdmasim.fluid;

/**
 * Sees every flow a {@link FluidNetwork} starts or stops early and every capacity it changes, so a
 * layer above can keep the run (to pose it again to another solver) without the solver knowing why.
 */
public interface FlowTap {
    void started(Flow f);

    void aborted(Flow f);

    void capacityChanged(Resource r);
}
