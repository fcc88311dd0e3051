package org.rdmasim.hardware;

/**
 * The InfiniBand path MTU a RoCE port runs and what it leaves of the wire for payload. Nothing in a host file
 * sets it yet: {@link LinkLayer#ROCE} is the efficiency at 4096, and validation rows whose sources do not state
 * the MTU give their answer at each value from here.
 */
public final class RocePathMtu {

    /** The InfiniBand MTUs a port can run, smallest first. */
    private static final int[] IB_MTUS = {256, 512, 1024, 2048, 4096};

    /**
     * What the kernel takes off the netdev MTU before rounding down to an InfiniBand MTU (torvalds/linux
     * include/rdma/ib_addr.h, iboe_get_mtu(): GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28 and ICRC 4 B, sizes in
     * include/rdma/ib_pack.h): the biggest header a RoCE packet can carry, so every packet fits the Ethernet frame.
     */
    static final int KERNEL_HEADROOM_BYTES = 40 + 8 + 12 + 4 + 28 + 4;

    /**
     * Bytes a RoCE v2 packet adds to its payload on the wire, for the middle packets of a message (RETH rides on a
     * WRITE's first packet only, 16 B in a message of at least 16 packets at the sizes modelled here): IEEE 802.3's
     * preamble and start delimiter (8 B) and inter-frame gap (12 B), which hold the MAC's time at the line rate,
     * the Ethernet header (14 B) and FCS (4 B), an IPv4 header (20 B, RFC 791) and UDP (8 B, RFC 768), BTH (12 B)
     * and ICRC (4 B) (sizes as openucx/ucx v1.20.0 src/uct/ib/base/ib_device.h:28-41 defines them). IPv4 is the
     * GID family UCX and NCCL pick first (openucx/ucx v1.20.0 src/uct/ib/base/ib_device.c:1077-1082 ranks RoCE v2
     * over AF_INET first; NVIDIA/nccl v2.29.7-1 src/transport/net_ib/connect.cc:92 defaults NCCL_IB_ADDR_FAMILY to
     * AF_INET; an IPv6 GID's 40 B header makes it 102 B, 0.9757 at 4096). ASSUMPTION: no VLAN tag (4 B more a
     * packet when the fabric tags). UCX's own bandwidth estimate
     * counts 90 B instead (a GRH, VCRC and delimiter, no preamble, gap or FCS: openucx/ucx v1.20.0
     * src/uct/ib/base/ib_iface.c:1987-1998); that is a figure for ranking lanes, not the wire.
     */
    static final int PACKET_OVERHEAD_BYTES = 8 + 12 + 14 + 4 + 20 + 8 + 12 + 4;

    private RocePathMtu() {
    }

    /**
     * The active path MTU of a RoCE port whose netdev MTU is {@code netdevMtu} (1500 gives 1024, 9000 gives
     * 4096), which perftest (linux-rdma/perftest 00b55b6 src/perftest_parameters.c:2678-2718, set_mtu()) and
     * UCX (openucx/ucx v1.20.0 src/uct/ib/base/ib_iface.c:1603-1625 uct_ib_iface_set_path_mtu,
     * UCX_IB_PATH_MTU=default) run unless told less.
     */
    public static int ofNetdevMtu(int netdevMtu) {
        int room = netdevMtu - KERNEL_HEADROOM_BYTES;
        for (int i = IB_MTUS.length - 1; i >= 0; i--) {
            if (room >= IB_MTUS[i]) {
                return IB_MTUS[i];
            }
        }
        throw new IllegalArgumentException("a netdev MTU of " + netdevMtu + " B leaves no InfiniBand MTU for RoCE "
                + "(the kernel needs at least " + (IB_MTUS[0] + KERNEL_HEADROOM_BYTES) + " B)");
    }

    /** Payload over bytes on the wire at InfiniBand path MTU {@code pathMtu} (IPv4 GID, {@link #PACKET_OVERHEAD_BYTES}). */
    public static double payloadEfficiency(int pathMtu) {
        boolean known = false;
        for (int mtu : IB_MTUS) {
            known |= mtu == pathMtu;
        }
        if (!known) {
            throw new IllegalArgumentException("path MTU " + pathMtu + " is not an InfiniBand MTU (256, 512, 1024, "
                    + "2048 or 4096)");
        }
        return pathMtu / (double) (pathMtu + PACKET_OVERHEAD_BYTES);
    }
}
