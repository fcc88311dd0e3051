package org.rdmasim.hardware;

/**
 * What a host's builder wired a network port for. Only compute ports carry GPU traffic unless a user
 * names another port: the storage and in-band management ports of a DGX sit on a separate network
 * (NVIDIA DGX BasePOD deployment guide, "DGX H200/H100 System Network Ports": the eight OSFP ports form
 * the InfiniBand compute fabric, the dual-port ConnectX-7 cards in slots 1 and 2 carry storage and
 * in-band management). rdmasim models the compute fabric only, so a peer is reachable through a
 * storage port only when the user lists it ({@code UCX_NET_DEVICES=mlx5_1:1}, an explicit lane).
 */
public enum NicRole {
    /** A port on the compute fabric: a lane candidate under {@code UCX_NET_DEVICES=all}. */
    COMPUTE,
    /** A storage or in-band management port: used only where listed by name. */
    STORAGE;

    public static NicRole parse(String text) {
        for (NicRole r : values()) {
            if (r.name().equalsIgnoreCase(text.strip())) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown NIC role '" + text + "' (expected compute or storage)");
    }
}
