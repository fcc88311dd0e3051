package org.rdmasim.hardware;

/**
 * The network between hosts.
 *
 * <ul>
 *   <li>{@code NON_BLOCKING}: one switch with full bisection; only the NIC ports constrain.</li>
 *   <li>{@code LEAF_SPINE}: hosts in groups of {@code hostsPerLeaf} share a leaf; traffic between
 *       leaves crosses the leaf's uplinks, whose capacity is the leaf's NIC capacity divided by
 *       {@code oversubscription} (spreading over spines taken as perfect, i.e. ideal ECMP).</li>
 *   <li>{@code RAIL_OPTIMIZED}: NIC i of every host in a group plugs into rail leaf i; traffic between
 *       rails or groups crosses the spine as in leaf/spine.</li>
 * </ul>
 *
 * @param hopLatencySeconds one-way latency added per switch hop (a flow-start cost, not a resource)
 */
public record FabricSpec(Kind kind, int hostsPerLeaf, double oversubscription, double hopLatencySeconds) {
    public enum Kind { NON_BLOCKING, LEAF_SPINE, RAIL_OPTIMIZED }

    /**
     * Port-to-port latency of an NDR InfiniBand switch, ~130 ns (NVIDIA Quantum-2 QM9700 datasheet);
     * Spectrum-class Ethernet switches are in the same range.
     */
    public static final double DEFAULT_HOP_LATENCY = 130e-9;

    public FabricSpec {
        if (hostsPerLeaf < 1) {
            throw new IllegalArgumentException("hostsPerLeaf must be at least 1, got " + hostsPerLeaf);
        }
        if (!(oversubscription >= 1.0)) {
            throw new IllegalArgumentException("oversubscription must be >= 1 (1 = non-blocking), got " + oversubscription);
        }
        if (!(hopLatencySeconds >= 0)) {
            throw new IllegalArgumentException("hop latency must be >= 0");
        }
    }

    public static FabricSpec nonBlocking() {
        return new FabricSpec(Kind.NON_BLOCKING, 1, 1.0, DEFAULT_HOP_LATENCY);
    }
}
