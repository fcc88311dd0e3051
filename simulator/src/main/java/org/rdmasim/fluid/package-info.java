/**
 * The fluid network: {@link org.rdmasim.fluid.Resource}s with a capacity in bytes per second (each
 * one direction of a full-duplex link, a NIC's transmit or receive side, a memory system), and
 * {@link org.rdmasim.fluid.Flow}s that cross a list of them at weighted max-min fair rates. A flow can
 * be stopped before it is done and a capacity changed mid-run (the faults of a scenario).
 *
 * <p>The parts follow SimGrid's split between its constraint system and solver (src/kernel/lmm) and
 * the models above that advance time and fire completions (src/kernel/resource). Each part uses only
 * parts listed after it and the data model below, and no class of the package depends on itself through
 * others; {@code FluidClassCycleTest} keeps it so.
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
 *   <li>{@code MaxMinOracle}: a solve from scratch and the max-min conditions, checked after every
 *       event in verifying mode and by tests.</li>
 *   <li>{@code FlowGroups}: flows frozen together at one resource run as one {@code FlowGroup}, a
 *       pseudo-flow with one event (on with {@link org.rdmasim.fluid.FluidNetwork#grouping}); it keeps
 *       which flows and resources belong to which group.</li>
 *   <li>{@code CompletionSchedule} ({@code FlowCompletion}, {@code GroupCompletion}): each flow's or
 *       group's completion event on the clock, moved when its rate changes.</li>
 *   <li>{@code RunningFlows} and {@code FlowNumbers}: flows entering and leaving the crossings of their
 *       path, their listeners, and the dense numbers by which arrays hold flows.</li>
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
 * <p>The data model, each class knowing only those listed after it:
 * <ul>
 *   <li>{@code FlowGroup}: flows frozen together at one resource, its pseudo-flow and members' order by
 *       tag, and the bounds on its level (members' thresholds, lazily followed resources).</li>
 *   <li>{@code MembersByTag}: a group's members in finish order (tag, then id), a sorted ring of arrays.</li>
 *   <li>{@code Blend}: the summed load several groups put on a resource only their members cross (the
 *       lanes of one striped receiver, each in the group of its source NIC, on the receiver's memory),
 *       which follows it lazily, and the budgets that keep each group's level below where it would fill.</li>
 *   <li>{@code ResourceTable} and {@code Crossing}: resources by index, and by
 *       {@link org.rdmasim.fluid.Resource}'s dense number the flows crossing each one (with where the
 *       resource sits on each flow's path), the incidence both solver and network walk; SimGrid's lmm
 *       keeps it in its Element.</li>
 *   <li>{@link org.rdmasim.fluid.FlowListener}: told which flow finished; the network keeps each running
 *       flow's listener by the flow's dense number ({@code RunningFlows}), not on the flow.</li>
 *   <li>{@link org.rdmasim.fluid.Flow}: a path of resources with usage factors, a weight, a cap, and its
 *       rate and bytes. A member of a group reads its rate from the group's {@code Level}; which group it
 *       is in, and which group a pseudo-flow stands for, {@code FlowGroups} keeps by flow number.</li>
 *   <li>{@link org.rdmasim.fluid.Resource}: capacity, limit, kind and load accounting, nothing of
 *       flows. A resource followed lazily reads its load from the group's {@code Level}; the group at a
 *       resource and the group it follows, {@code FlowGroups} keeps by resource number.</li>
 *   <li>{@code Level}: a group's (or blend's) rate per unit weight and its history, as flows and
 *       resources read it; {@code LevelHistory}: the suffix maxima of a level's records, for peaks.</li>
 *   <li>{@code PathPositions}: where each resource sits on a long group pseudo-path, by resource
 *       number.</li>
 *   <li>{@code Bounds}: a multiset of values of which the lowest is read, for a group's cap and a blend's
 *       smallest capacity.</li>
 * </ul>
 *
 * <p>{@link org.rdmasim.fluid.FlowTap} shows a layer above what a run did, to pose it again to another
 * solver (crosscheck's FlowLog and FlowProblem).
 *
 * <p>A resource carries an opaque {@link org.rdmasim.fluid.Limit} that the layer building it chose; the
 * solver records which limit held each flow without knowing what it stands for.
 */
package org.rdmasim.fluid;
