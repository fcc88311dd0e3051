package org.rdmasim.transport.ucx;

import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;

/**
 * UCX's estimate of the distance between a buffer's device and an HCA, from the relation the
 * hardware model gives them.
 *
 * <p>Source: openucx/ucx {@code src/ucs/sys/topo/base/topo.c}, {@code ucs_topo_update_distance_sysfs}
 * (FACTS.md section 2). UCX compares the two devices' sysfs paths: when their common parent is a PCIe
 * switch port (our PIX and PXB) the distance is the default, 0 ns and no bandwidth limit; when it is a
 * PCI root ({@code /sys/devices/pciDDDD:BB}, our PHB) it is 300 ns and
 * {@code min(3500 MB/s, 19200 MB/s / path_distance)}; when it is {@code /sys/devices} itself, 300 ns and
 * 17000 MB/s on the same NUMA node (our NODE) and 500 ns and 220 MB/s across nodes (our SYS). UCX's MB
 * is {@code UCS_MBYTE} = 2^20 bytes. The latencies are the defaults of {@code UCX_DIST_PHB},
 * {@code UCX_DIST_NODE} and {@code UCX_DIST_SYS} per FACTS.md.
 *
 * <p>These are the figures UCX ranks HCAs with for {@code UCX_MAX_HCA_PER_GPU}, not real throughput.
 * Note that UCX's PHB bandwidth (at most 3500 MB/s) is below its NODE bandwidth, so at equal latency a
 * NIC on another root port of the same NUMA node ranks closer than one behind the same host bridge.
 */
public final class UcxTopoDistance {

    /** {@code UCS_MBYTE}. */
    public static final double UCS_MBYTE = 1 << 20;

    /** Same PCIe switch, or an unknown device (host memory): {@code ucs_topo_default_distance}. */
    public static final HcaDistance NEAR = new HcaDistance(0.0, Double.POSITIVE_INFINITY);
    /** Different root complexes, same NUMA node. */
    public static final HcaDistance SAME_NUMA_NODE = new HcaDistance(300e-9, 17000 * UCS_MBYTE);
    /** Different NUMA nodes. */
    public static final HcaDistance OTHER_NUMA_NODE = new HcaDistance(500e-9, 220 * UCS_MBYTE);

    static final double PHB_LATENCY_SECONDS = 300e-9;
    static final double PHB_BANDWIDTH_CAP = 3500 * UCS_MBYTE;
    static final double PHB_BANDWIDTH_PER_HOP = 19200 * UCS_MBYTE;

    private UcxTopoDistance() {
    }

    /**
     * Distance from {@code device} (a GPU, or a CPU socket for host memory) to {@code nic} on
     * {@code host}. Host memory has no system device in UCX, so it is always {@link #NEAR}.
     */
    public static HcaDistance between(Host host, TopologyNode device, TopologyNode nic) {
        if (device.kind() == TopologyNode.Kind.SOCKET) {
            return NEAR;
        }
        PathType relation = host.relation(device, nic);
        return switch (relation) {
            case X, NV, PIX, PXB -> NEAR;
            case PHB -> new HcaDistance(PHB_LATENCY_SECONDS,
                    Math.min(PHB_BANDWIDTH_CAP, PHB_BANDWIDTH_PER_HOP / treeHops(host, device, nic)));
            case NODE -> SAME_NUMA_NODE;
            case SYS -> OTHER_NUMA_NODE;
        };
    }

    /**
     * Edges between two devices in the host tree: our stand-in for UCX's {@code ucs_path_calc_distance}
     * over sysfs paths. ASSUMPTION: one tree edge per sysfs path component; with the 3500 MB/s cap the
     * bandwidth only changes at 6 hops or more, so the approximation rarely matters.
     */
    static int treeHops(Host host, TopologyNode a, TopologyNode b) {
        TopologyNode common = host.commonAncestor(a, b);
        int depth = common == null ? 0 : common.depth();
        return Math.max(1, (a.depth() - depth) + (b.depth() - depth));
    }
}
