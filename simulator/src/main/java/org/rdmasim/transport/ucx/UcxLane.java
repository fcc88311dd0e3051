package org.rdmasim.transport.ucx;

/**
 * One (device, path) lane UCX considered for an operation, as {@code UCX_PROTO_INFO} would list it.
 *
 * @param nic        the initiator's device
 * @param path       the path index on that device (its own QP)
 * @param peerNic    the remote device the lane connects to
 * @param bandwidth  UCX's estimate for the lane: interface bandwidth capped by PCIe and by the packed
 *                   local and remote distances, bytes per second (weights the split)
 * @param pathRatio  the share of the interface one path is rated at ({@code path_ratio})
 * @param availBw    {@code avail_bw} when the lane was ranked (UCX >= 1.19), else the bandwidth
 * @param verdict    what selection made of it
 */
public record UcxLane(String nic, int path, String peerNic, double bandwidth, double pathRatio, double availBw,
        LaneVerdict verdict) {
    UcxLane with(LaneVerdict v, double avail) {
        return new UcxLane(nic, path, peerNic, bandwidth, pathRatio, avail, v);
    }
}
