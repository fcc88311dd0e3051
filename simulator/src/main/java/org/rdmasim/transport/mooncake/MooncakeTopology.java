package org.rdmasim.transport.mooncake;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;

/**
 * The devices Mooncake's Transfer Engine prefers for a buffer location, as its topology discovery
 * builds them (kvcache-ai/Mooncake commit 3b5a59413, {@code mooncake-transfer-engine/src/topology.cpp}):
 * <ul>
 * <li>host memory on NUMA node N ({@code cpu:N}): every HCA whose sysfs {@code numa_node} is N is
 * preferred, every other HCA is only "available" ({@code discoverCpuTopology}, L453-488);</li>
 * <li>a GPU ({@code cuda:N}): among the HCAs on the GPU's NUMA node (all HCAs when none is), those at the
 * smallest PCIe distance are preferred ({@code discoverCudaTopology}, L535-594). rdmasim ranks PCIe
 * distance by the nvidia-smi relation (PIX, PXB, PHB, NODE), which orders the hop counts
 * {@code getPciDistance} compares on the trees it models.</li>
 * </ul>
 * A first attempt picks among the preferred HCAs only; the available ones are reached only on retries
 * after a failure, or when no HCA is preferred ({@code Topology::selectDevice}, L761-792).
 */
public final class MooncakeTopology {
    private MooncakeTopology() {
    }

    /**
     * The preferred HCAs for a buffer on {@code device} (a CPU socket or a GPU) of {@code host}, in PCI order,
     * among the HCAs the engine opened: {@code visible} when not empty ({@code MC_TE_FILTERS}, a whitelist of
     * device names, {@code topology.cpp} L161-190, L216-220), else every HCA.
     */
    public static List<TopologyNode> preferred(Host host, TopologyNode device, List<String> visible) {
        List<TopologyNode> all = opened(host, visible);
        List<TopologyNode> sameNode = new ArrayList<>();
        for (TopologyNode nic : all) {
            if (nic.socket() == device.socket()) {
                sameNode.add(nic);
            }
        }
        if (device.kind() == TopologyNode.Kind.SOCKET) {
            // a socket with no HCA of its own has an empty preferred list: selectDevice then draws from
            // the available list, every HCA of the host
            return sameNode.isEmpty() ? List.copyOf(all) : List.copyOf(sameNode);
        }
        List<TopologyNode> candidates = sameNode.isEmpty() ? all : sameNode;
        PathType best = null;
        for (TopologyNode nic : candidates) {
            PathType r = host.relation(device, nic);
            if (best == null || r.compareTo(best) < 0) {
                best = r;
            }
        }
        List<TopologyNode> out = new ArrayList<>();
        for (TopologyNode nic : candidates) {
            if (host.relation(device, nic) == best) {
                out.add(nic);
            }
        }
        return List.copyOf(out);
    }

    /** The HCAs the engine opens on {@code host}: those {@code visible} names, or every one when it is empty. */
    public static List<TopologyNode> opened(Host host, List<String> visible) {
        if (visible.isEmpty()) {
            return host.nics();
        }
        return host.nics().stream().filter(n -> visible.contains(n.name())).toList();
    }
}
