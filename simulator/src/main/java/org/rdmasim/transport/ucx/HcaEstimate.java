package org.rdmasim.transport.ucx;

import org.rdmasim.hardware.PathType;

/**
 * UCX's view of one candidate HCA for a buffer: its relation to the buffer's device, the packed
 * topology distance, the bandwidth UCX estimates, and how many paths it opens.
 *
 * @param wireBytesPerSecond the wire as UCX rates it ({@link UcxWireEstimate}: its own header count), not what
 *                  the wire carries
 * @param estimate  bytes per second UCX believes the device can do for this buffer (after distance)
 * @param paths     paths (QPs) UCX opens on its port
 * @param pathRatio the share of the interface one path is rated at for the operation
 * @param pciOrder  the device's position in the host's PCI order
 * @param wireupBandwidth bytes per second the wireup score rates the device at: the interface bandwidth (wire,
 *                  capped by PCIe) capped by the distance, neither packed to 8 bits nor lowered for the operation
 *                  ({@code ucp_wireup_iface_bw_distance}, {@link BwLanePairing})
 */
public record HcaEstimate(String nic, PathType relation, HcaDistance distance, double wireBytesPerSecond,
        double pcieBytesPerSecond, double estimate, int paths, double pathRatio, int pciOrder,
        double wireupBandwidth) {
}
