/**
 * Executing a scenario's variants. For each variant: build the cluster, register the buffers the way
 * each process's UCX would (a failure stops the variant with the stack's message), choose lanes, run
 * the workload on the clock, replications in parallel, and, for a variant with faults, the same run
 * without them for their cost. {@code run --check} verifies every event and result
 * ({@link org.rdmasim.run.RunChecks}).
 */
package org.rdmasim.run;
