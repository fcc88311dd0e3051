/**
 * The fluid network: {@link org.rdmasim.fluid.Resource}s with a capacity in bytes per second (each
 * one direction of a full-duplex link, a NIC's transmit or receive side, a memory system), and
 * {@link org.rdmasim.fluid.Flow}s that cross a list of them. Rates come from weighted max-min
 * fairness ({@link org.rdmasim.fluid.MaxMinSolver}); {@link org.rdmasim.fluid.FluidNetwork} keeps
 * them current as flows arrive and finish, recomputing only the flows an event can affect. A flow can be
 * stopped before it is done and a capacity changed mid-run (the faults of a scenario). A resource
 * carries an opaque {@link org.rdmasim.fluid.Limit} that the layer building it chose; the solver
 * records which limit held each flow without knowing what it stands for.
 */
package org.rdmasim.fluid;
