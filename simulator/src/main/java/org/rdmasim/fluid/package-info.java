/**
 * The fluid network: {@link org.rdmasim.fluid.Resource}s with a capacity in bytes per second (each
 * one direction of a full-duplex link, a NIC's transmit or receive side, a memory system), and
 * {@link org.rdmasim.fluid.Flow}s that cross a list of them at weighted max-min fair rates. A flow can
 * be stopped before it is done and a capacity changed mid-run (the faults of a scenario).
 *
 * <p>What is here today:
 * <ul>
 *   <li>{@link org.rdmasim.fluid.FluidNetwork}: the public face (resources, starting, stopping and
 *       re-rating flows, load observers, work counters) and the owner of the parts below, which reach
 *       into its state and into the flows' and resources' fields directly.</li>
 *   <li>{@link org.rdmasim.fluid.MaxMinSolver}: weighted max-min rates of a set of flows by progressive
 *       filling, with its per-resource and per-flow scratch in arrays of its own.</li>
 *   <li>{@code RegionSolve}: after an event, the region of flows and resources whose rates can change.
 *       In one pass it settles each flow's bytes up to now (the advance of time), re-solves the region,
 *       sets the new rates and loads, tells the load observers, moves the completion events and checks
 *       or forms groups; the update, the solve and the advance of time are not separate steps.</li>
 *   <li>{@code CompletionEvents} ({@code FlowCompletion}, {@code GroupCompletion}): each flow's or
 *       group's completion event on the clock, and the batching of the flows due at one instant into
 *       one event.</li>
 *   <li>{@code FlowGroups} and {@code FlowGroup}: flows frozen together at one resource run as one
 *       pseudo-flow with one event (on with {@link org.rdmasim.fluid.FluidNetwork#grouping}).</li>
 *   <li>{@code FlowNumbers}: the dense numbers by which the scratch arrays hold flows.</li>
 *   <li>{@code MaxMinOracle}: a solve from scratch and the max-min conditions, checked after every
 *       event in verifying mode and by tests.</li>
 *   <li>{@link org.rdmasim.fluid.FlowTap}: what a layer above sees of a run to pose it again to
 *       another solver (crosscheck's FlowLog and FlowProblem).</li>
 * </ul>
 *
 * <p>A resource carries an opaque {@link org.rdmasim.fluid.Limit} that the layer building it chose; the
 * solver records which limit held each flow without knowing what it stands for.
 */
package org.rdmasim.fluid;
