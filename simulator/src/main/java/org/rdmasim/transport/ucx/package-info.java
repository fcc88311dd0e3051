/**
 * UCX's own model of the machine, used to choose and weight lanes: paths per port and their
 * READ path ratio ({@link org.rdmasim.transport.ucx.UcxPaths}), per-HCA bandwidth estimates (wire
 * rate, PCIe, the FP8-packed topology distance from the buffer's device), the multi-lane ratio
 * filter, the greedy pick by avail_bw up to the rail limit, lanes skipped where the buffer is not
 * registered, and the static split ({@link org.rdmasim.transport.ucx.UcxLaneSelection}). These are UCX's estimates, deliberately
 * separate from the capacities the fluid model delivers.
 */
package org.rdmasim.transport.ucx;
