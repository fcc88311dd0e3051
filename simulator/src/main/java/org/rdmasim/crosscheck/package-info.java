/**
 * Fixtures shared by {@code bench} and the SimGrid cross-check: a rail-optimised fan-out built from a
 * real cluster ({@link org.rdmasim.crosscheck.RailFanout}) and the SimGrid peer process that solves
 * the same flow problem ({@link org.rdmasim.crosscheck.SimgridPeer}).
 */
package org.rdmasim.crosscheck;
