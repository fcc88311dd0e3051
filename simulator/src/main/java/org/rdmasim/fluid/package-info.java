/**
 * The fluid network: {@link org.rdmasim.fluid.Resource}s with a capacity in bytes per second (each
 * one direction of a full-duplex link, a NIC's transmit or receive side, a memory system), and
 * {@link org.rdmasim.fluid.Flow}s that cross a list of them at weighted max-min fair rates. A flow can
 * be stopped before it is done and a capacity changed mid-run (the faults of a scenario).
 *
 * <p>The parts follow SimGrid's split between its constraint system and solver (src/kernel/lmm) and
 * the models above that advance time and fire completions (src/kernel/resource). Each part uses only
 * parts listed after it, and the data model ({@link org.rdmasim.fluid.Flow},
 * {@link org.rdmasim.fluid.Resource}, {@code FlowGroup}, {@link org.rdmasim.fluid.FlowListener}) that
 * all share; {@code FluidClassCycleTest} keeps it so.
 *
 * <p>The network (time, bytes, events, groups):
 * <ul>
 *   <li>{@link org.rdmasim.fluid.FluidNetwork}: the public face (resources, starting, stopping and
 *       re-rating flows, load observers, work counters) and the wiring of the parts below.</li>
 *   <li>{@code CompletionEvents}: what happens when a completion is due, including the batching of the
 *       flows due at one instant into one event and one re-solve.</li>
 *   <li>{@code RegionUpdate}: after an event, the solve of the region around it, then the flows' bytes
 *       settled at their old rates, completion events moved, loads recorded and groups formed; a group
 *       that no longer holds is dissolved and the region solved again.</li>
 *   <li>{@code FlowGroups} and {@code FlowGroup}: flows frozen together at one resource run as one
 *       pseudo-flow with one event (on with {@link org.rdmasim.fluid.FluidNetwork#grouping}).</li>
 *   <li>{@code CompletionSchedule} ({@code FlowCompletion}, {@code GroupCompletion}): each flow's or
 *       group's completion event on the clock, moved when its rate changes.</li>
 *   <li>{@code MaxMinOracle}: a solve from scratch and the max-min conditions, checked after every
 *       event in verifying mode and by tests.</li>
 *   <li>{@code ResourceTable}, {@code RunningFlows} and {@code FlowNumbers}: resources by index, the
 *       flows on each resource, and the dense numbers by which scratch arrays hold flows.</li>
 * </ul>
 *
 * <p>The solver (no clock, no events, no completions; a group is one pseudo-flow to it):
 * <ul>
 *   <li>{@code RegionSolve}: the selective update; from the resources an event touched, the region of
 *       flows and resources whose rates can change, solved, grown where the new rates saturate a
 *       resource, and solved again; it returns what moved as {@code RateChanges}.</li>
 *   <li>{@link org.rdmasim.fluid.MaxMinSolver}: weighted max-min rates of a set of flows by progressive
 *       filling, with its per-resource and per-flow scratch in arrays of its own.</li>
 * </ul>
 *
 * <p>{@link org.rdmasim.fluid.FlowTap} shows a layer above what a run did, to pose it again to another
 * solver (crosscheck's FlowLog and FlowProblem).
 *
 * <p>A resource carries an opaque {@link org.rdmasim.fluid.Limit} that the layer building it chose; the
 * solver records which limit held each flow without knowing what it stands for.
 */
package org.rdmasim.fluid;
