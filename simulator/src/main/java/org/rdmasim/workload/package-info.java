/**
 * What the cluster is asked to do and what came of it: transfers (pulls and pushes) placed in time,
 * their lane choice, and the results a run produces (per transfer, per NIC, per resource).
 *
 * <p>A list of {@link org.rdmasim.workload.TransferItem}s is placed on the clock up front by
 * {@link org.rdmasim.workload.WorkloadRun}. A {@link org.rdmasim.workload.FanoutPlan} (R receivers, S
 * sources, arrivals, source assignment, tree fan-out, refit cycles) is played by
 * {@link org.rdmasim.workload.FanoutRun}, which generates transfers as receivers arrive and finish and
 * posts them through the same WorkloadRun. {@link org.rdmasim.workload.ReplicationStats} summarises
 * replications of a variant. A {@link org.rdmasim.workload.FaultPlan} schedules faults (a port down or
 * degraded, a source lost, a registration failing) and names the parameters of the stack's reaction;
 * {@link org.rdmasim.workload.FaultCost} compares a run with its faults against the same run without.
 * A refit's answer ({@link org.rdmasim.workload.RefitSummary}) carries what bounded each cycle as a
 * {@link org.rdmasim.workload.CycleBound} and each number its stage costs rest on as a
 * {@link org.rdmasim.workload.StageParameter} (key, value, evidence), so readers take fields, not lines.
 */
package org.rdmasim.workload;
