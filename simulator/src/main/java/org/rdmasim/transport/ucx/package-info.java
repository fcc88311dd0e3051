/**
 * UCX's own model of the machine, used to choose and weight lanes: per-HCA bandwidth estimates
 * (wire rate, PCIe, topology distance from the buffer's device), the multi-lane ratio filter, the
 * greedy pick up to the rail limit, and the static split. These are UCX's estimates, deliberately
 * separate from the capacities the fluid model delivers.
 */
package org.rdmasim.transport.ucx;
