/**
 * Studies: a base scenario with knobs turned over a grid or a seeded sample of points, each point run
 * for its replications. Runs locally on every core, or as deterministic shards (Slurm job arrays,
 * Kubernetes Indexed Jobs) merged into the same table a local run writes, byte for byte. Sits above
 * {@code run} (it runs variants) and below {@code cli} (which prints).
 */
package org.rdmasim.sweep;
