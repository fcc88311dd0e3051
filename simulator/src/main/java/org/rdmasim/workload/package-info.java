/**
 * What the cluster is asked to do and what came of it: transfers (pulls and pushes) placed in time,
 * their lane choice, and the results a run produces (per transfer, per NIC, per resource).
 */
package org.rdmasim.workload;
