/**
 * Fixtures shared by {@code bench} and the SimGrid cross-check: a self-contained flow problem solved
 * here or by a peer ({@link org.rdmasim.crosscheck.FlowProblem}), a run logged to pose it as one
 * ({@link org.rdmasim.crosscheck.FlowLog}, a fluid {@code FlowTap}), a rail-optimised fan-out built
 * from a real cluster ({@link org.rdmasim.crosscheck.RailFanout}) and the SimGrid peer process that
 * solves the same flow problem ({@link org.rdmasim.crosscheck.SimgridPeer}).
 */
package org.rdmasim.crosscheck;
