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
     * UCX's per-packet RoCE overhead in its bandwidth estimate ([ucx-src] src/uct/ib/base/ib_iface.c:1931-1953
     * at 9466d104a3, uct_ib_iface_get_bandwidth: BTH 12, RETH 16, ICRC 4, VCRC 2, delimiter 2, GRH 40 and
     * Ethernet 14 B, sizes at src/uct/ib/base/ib_device.h:29-42).
     */
    static final int UCX_PACKET_OVERHEAD_BYTES = 12 + 16 + 4 + 2 + 2 + 40 + 14;

    private RocePathMtu() {
    }

    /**
     * The active path MTU of a RoCE port whose netdev MTU is {@code netdevMtu} (1500 gives 1024, 9000 gives
     * 4096), which perftest (linux-rdma/perftest 00b55b6 src/perftest_parameters.c:2678-2718, set_mtu()) and
     * UCX ([ucx-src] src/uct/ib/base/ib_iface.c:1616-1638, UCX_IB_PATH_MTU=default) run unless told less.
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

    /** Payload over bytes on the wire at InfiniBand path MTU {@code pathMtu}, as UCX estimates it. */
    public static double payloadEfficiency(int pathMtu) {
        boolean known = false;
        for (int mtu : IB_MTUS) {
            known |= mtu == pathMtu;
        }
        if (!known) {
            throw new IllegalArgumentException("path MTU " + pathMtu + " is not an InfiniBand MTU (256, 512, 1024, "
                    + "2048 or 4096)");
        }
        return pathMtu / (double) (pathMtu + UCX_PACKET_OVERHEAD_BYTES);
    }
}
