package org.rdmasim.hardware;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.fluid.Limit;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;

/**
 * The routes between GPUs of one host: over NVLink when both GPUs have it, else through the host's PCIe
 * ({@link Cluster#within}). Each GPU's NVLink ports are one fluid resource per direction at the GPU's
 * NVLink rate ({@link HostSpec.GpuSpec#nvlinkBytesPerSecond}), made on first use, so a network gains them
 * in the order the routes first cross them (which keeps solver tie-breaks and reports byte-identical).
 * The NVLink domain is all-to-all: any two NVLink GPUs of a host meet through the two GPUs' own ports only.
 */
public final class GpuPeerRoutes {
    private final Cluster cluster;
    private final Map<TopologyNode, Resource[]> ports = new IdentityHashMap<>();

    public GpuPeerRoutes(Cluster cluster) {
        this.cluster = cluster;
    }

    /**
     * One direction of the bytes a GPU exchanges with its peers, bytes per second: its NVLink ports, or,
     * without NVLink, its own host link (the bytes then cross PCIe).
     */
    public static double peerBytesPerSecond(TopologyNode gpu) {
        double rate = gpu.gpu().nvlinkBytesPerSecond();
        if (rate <= 0) {
            rate = gpu.uplink().bytesPerSecond();
        }
        return rate;
    }

    /**
     * Appends, each at usage 1, the resources a byte crosses from GPU {@code a} to GPU {@code b} of host
     * {@code h}: {@code a}'s NVLink out and {@code b}'s NVLink in when both have NVLink, else the PCIe path.
     */
    public void addWithin(Host h, TopologyNode a, TopologyNode b, List<Resource> path, List<Double> usage) {
        if (a.gpu().nvlinks() > 0 && b.gpu().nvlinks() > 0) {
            path.add(port(h, a, 0));
            usage.add(1.0);
            path.add(port(h, b, 1));
            usage.add(1.0);
        } else {
            for (Resource r : cluster.within(h, a, b, false)) {
                path.add(r);
                usage.add(1.0);
            }
        }
    }

    /**
     * NCCL's PXN hand-over: data bound off the host leaves from {@code exit}, the GPU beside the NIC, when
     * {@code from} is another GPU and both have NVLink; then {@code from}'s NVLink out and {@code exit}'s
     * NVLink in are appended (usage 1) and the answer is true. Otherwise nothing is appended and the data
     * leaves from {@code from} itself (false).
     */
    public boolean addHandOver(Host h, TopologyNode from, TopologyNode exit, List<Resource> path, List<Double> usage) {
        if (exit == from || from.gpu().nvlinks() <= 0 || exit.gpu().nvlinks() <= 0) {
            return false;
        }
        path.add(port(h, from, 0));
        usage.add(1.0);
        path.add(port(h, exit, 1));
        usage.add(1.0);
        return true;
    }

    /** One direction (0 out, 1 in) of GPU {@code g}'s NVLink ports on host {@code h}, made on first use. */
    private Resource port(Host h, TopologyNode g, int direction) {
        Resource[] pair = ports.computeIfAbsent(g, k -> new Resource[2]);
        if (pair[direction] == null) {
            pair[direction] = cluster.network().addResource(Limit.named(h.name() + ":" + g.name() + " nvlink "
                    + (direction == 0 ? "tx" : "rx")), ResourceKind.OTHER, g.gpu().nvlinkBytesPerSecond());
        }
        return pair[direction];
    }
}
