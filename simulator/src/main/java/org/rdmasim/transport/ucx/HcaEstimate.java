package org.rdmasim.transport.ucx;

import org.rdmasim.hardware.PathType;

/**
 * UCX's view of one candidate HCA for a buffer: its relation to the buffer's device, the topology
 * distance, the bandwidth UCX estimates, and what the lane selection made of it.
 *
 * @param estimate bytes per second UCX believes the lane can do
 * @param verdict  "picked", "dropped by ratio", "over rail limit"
 */
public record HcaEstimate(String nic, PathType relation, HcaDistance distance, double wireBytesPerSecond,
        double pcieBytesPerSecond, double estimate, String verdict) {
    HcaEstimate withVerdict(String v) {
        return new HcaEstimate(nic, relation, distance, wireBytesPerSecond, pcieBytesPerSecond, estimate, v);
    }
}
