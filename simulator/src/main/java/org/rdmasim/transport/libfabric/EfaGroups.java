package org.rdmasim.transport.libfabric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;

/**
 * Which network devices belong to which GPU, by NIXL's topology-aware grouping
 * ({@code nixlLibfabricTopology::groupNicsWithAccel}, ai-dynamo/nixl v1.4.0
 * {@code src/utils/libfabric/libfabric_topology.cpp} L1162-1300; the same algorithm since 0.9.0, and
 * the one aws-ofi-nccl uses to give each GPU its EFA rails: aws/aws-ofi-nccl v1.21.1
 * {@code src/nccl_ofi_topo.cpp} {@code propagate_accel_group_counts} L967-991 and
 * {@code create_groups_from_info_list} L1092-1120):
 * <ol>
 *   <li>mark every node with a NIC in its subtree (L1169-1181);</li>
 *   <li>each GPU walks up to its nearest marked node and counts there (L1183-1198);</li>
 *   <li>each NIC walks up to its nearest node with a count and joins it (L1200-1228);</li>
 *   <li>at each such node the NICs, sorted by PCI bus (L1239), are cut into as many contiguous groups
 *       as GPUs counted there, the first {@code nics % gpus} groups one larger (L1262-1270); when there
 *       are fewer NICs than GPUs every GPU gets all of them (L1258-1261, since 0.9.0; see
 *       {@link ScarceDevices}).</li>
 * </ol>
 * A GPU without a group is given every device ({@code getEfaDevicesForPci}, L176-196). Bus order here
 * is the host's NIC order, which follows the PCI tree.
 */
public final class EfaGroups {
    /** One GPU's group: its rails, and the node at which the grouping was made. */
    public record Group(String gpu, List<String> rails, String commonAncestor, int gpusSharing, boolean fallback) {
        public Group {
            rails = List.copyOf(rails);
        }
    }

    /** What a GPU gets when its node has fewer devices than GPUs. */
    public enum ScarceDevices {
        /** Every GPU there shares all of them (0.9.0 and later, libfabric_topology.cpp at tag 0.9.0 L715-719). */
        SHARED,
        /**
         * The first GPUs get one each, the rest no group, hence every device of the host
         * ({@code groupNicsWithGpus} and {@code getEfaDevicesForGpu}, 0.7.0 and 0.8.x; tag 0.8.0 L138-145, L680-700).
         */
        UNASSIGNED;

        /** The rule of a NIXL release; the latest when none is named. */
        public static ScarceDevices of(java.util.Optional<org.rdmasim.transport.config.StackVersion> nixl) {
            return nixl.isPresent() && !nixl.get().atLeast(new org.rdmasim.transport.config.StackVersion(0, 9, 0))
                    ? UNASSIGNED : SHARED;
        }
    }

    private final Map<String, Group> byGpu;
    private final boolean empty;

    private EfaGroups(Map<String, Group> byGpu, boolean empty) {
        this.byGpu = byGpu;
        this.empty = empty;
    }

    /** Whether the host has no visible network device at all. */
    public boolean isEmpty() {
        return empty;
    }

    /**
     * The groups of {@code host}'s GPUs over the network devices in {@code visible} (all when empty):
     * libfabric lists only the devices the process can open.
     */
    public static EfaGroups of(Host host, List<String> visible) {
        return of(host, visible, ScarceDevices.SHARED);
    }

    /** As {@link #of(Host, List)}, with the rule of a given release for scarce devices. */
    public static EfaGroups of(Host host, List<String> visible, ScarceDevices scarce) {
        List<TopologyNode> devices = host.nics().stream()
                .filter(n -> visible.isEmpty() || visible.contains(n.name())).toList();
        // the machine is the root above the sockets (hwloc's Machine object)
        Set<TopologyNode> marked = new HashSet<>();
        for (TopologyNode nic : devices) {
            for (TopologyNode n = nic; n != null; n = n.parent()) {
                marked.add(n);
            }
        }
        Map<TopologyNode, List<TopologyNode>> gpusAt = new LinkedHashMap<>();
        boolean machineMarked = !devices.isEmpty();
        List<TopologyNode> gpusAtMachine = new ArrayList<>();
        for (TopologyNode gpu : host.gpus()) {
            TopologyNode n = gpu;
            while (n != null && !marked.contains(n)) {
                n = n.parent();
            }
            if (n != null) {
                gpusAt.computeIfAbsent(n, k -> new ArrayList<>()).add(gpu);
            } else if (machineMarked) {
                gpusAtMachine.add(gpu);
            }
        }
        Map<TopologyNode, List<TopologyNode>> nicsAt = new LinkedHashMap<>();
        List<TopologyNode> nicsAtMachine = new ArrayList<>();
        for (TopologyNode nic : devices) {
            TopologyNode n = nic;
            while (n != null && !gpusAt.containsKey(n)) {
                n = n.parent();
            }
            if (n != null) {
                nicsAt.computeIfAbsent(n, k -> new ArrayList<>()).add(nic);
            } else if (!gpusAtMachine.isEmpty()) {
                nicsAtMachine.add(nic);
            }
        }
        Map<String, Group> out = new HashMap<>();
        for (Map.Entry<TopologyNode, List<TopologyNode>> e : gpusAt.entrySet()) {
            split(e.getKey().name(), e.getValue(), nicsAt.getOrDefault(e.getKey(), List.of()), scarce, out);
        }
        split("machine", gpusAtMachine, nicsAtMachine, scarce, out);
        List<String> all = devices.stream().map(TopologyNode::name).toList();
        for (TopologyNode gpu : host.gpus()) {
            out.computeIfAbsent(gpu.name(), g -> new Group(g, all, "none (all devices)", 0, true));
        }
        return new EfaGroups(out, devices.isEmpty());
    }

    private static void split(String where, List<TopologyNode> gpus, List<TopologyNode> nics, ScarceDevices scarce,
            Map<String, Group> out) {
        if (gpus.isEmpty() || nics.isEmpty()) {
            return;
        }
        List<String> names = nics.stream().map(TopologyNode::name).toList();
        int groups = gpus.size();
        if (names.size() < groups && scarce == ScarceDevices.SHARED) {
            gpus.forEach(g -> out.put(g.name(), new Group(g.name(), names, where, groups, false)));
            return;
        }
        int per = names.size() / groups;
        int extra = names.size() % groups;
        int next = 0;
        for (int g = 0; g < groups; g++) {
            int size = per + (g < extra ? 1 : 0);
            if (size == 0) {
                continue; // an empty group is not kept: the GPU falls back to every device
            }
            String gpu = gpus.get(g).name();
            out.put(gpu, new Group(gpu, names.subList(next, next + size), where, groups, false));
            next += size;
        }
    }

    /** The group of {@code gpu} (a GPU of the host). */
    public Group of(String gpu) {
        Group g = byGpu.get(gpu);
        if (g == null) {
            throw new IllegalArgumentException("no GPU named '" + gpu + "'");
        }
        return g;
    }
}
