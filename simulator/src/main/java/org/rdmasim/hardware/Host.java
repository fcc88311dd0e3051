package org.rdmasim.hardware;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A built host: its name, the {@link HostShape} its spec builds (shared with every host of the same
 * spec), and one {@link TopologyNode} per place of that shape.
 */
public final class Host {
    private final String name;
    private final HostShape shape;
    /** Every node in build order (a node's ordinal is its place here), made with the host so each stays one object. */
    private final TopologyNode[] nodes;
    /**
     * This host's place in the order of the cluster last built with it, a hint {@link Cluster} checks
     * before use (a host may be in several clusters, one per replication): a lane's path finds its hosts'
     * resource blocks by it instead of an identity-hash lookup per host change (~2% of a 65,536-receiver
     * fan-out's simulate).
     */
    int clusterIndex = -1;

    public Host(String name, HostSpec spec) {
        this(name, new HostShape(spec, name));
    }

    /** A host of the given shape: its own nodes, the shape's places and names. */
    public Host(String name, HostShape shape) {
        this.name = name;
        this.shape = shape;
        this.nodes = new TopologyNode[shape.places().size()];
        for (int k = 0; k < nodes.length; k++) {
            nodes[k] = new TopologyNode(this, shape.place(k));
        }
    }

    /**
     * A host of the same spec as {@code other}, sharing its shape: at 131,072 hosts a tree per host (nodes,
     * their child lists, the host's lists) held over 100 MB of the live heap.
     */
    public static Host like(String name, Host other) {
        return new Host(name, other.shape);
    }

    /**
     * The hosts these specs describe, in the map's order; hosts whose spec is one instance (a counted
     * group) share one shape, built once.
     */
    public static List<Host> all(Map<String, HostSpec> specs) {
        List<Host> hosts = new ArrayList<>(specs.size());
        Map<HostSpec, HostShape> shapes = new IdentityHashMap<>();
        for (Map.Entry<String, HostSpec> e : specs.entrySet()) {
            HostShape shape = shapes.get(e.getValue());
            if (shape == null) {
                shape = new HostShape(e.getValue(), e.getKey());
                shapes.put(e.getValue(), shape);
            }
            hosts.add(new Host(e.getKey(), shape));
        }
        return hosts;
    }

    /** The node at {@code ordinal} in build order. */
    TopologyNode node(int ordinal) {
        return nodes[ordinal];
    }

    private TopologyNode named(String deviceName) {
        int k = shape.ordinalOf(deviceName);
        return k < 0 ? null : nodes[k];
    }

    /** The nodes at these ordinals, as an unmodifiable list. */
    private List<TopologyNode> at(int[] ordinals) {
        return new AbstractList<>() {
            @Override
            public TopologyNode get(int k) {
                return nodes[ordinals[k]];
            }

            @Override
            public int size() {
                return ordinals.length;
            }
        };
    }

    public String name() {
        return name;
    }

    public HostSpec spec() {
        return shape.spec();
    }

    /** The tree this host shares with every host of its spec. */
    public HostShape shape() {
        return shape;
    }

    /** The calibration profile the host's platform matches. */
    public CalibrationProfile profile() {
        return shape.profile();
    }

    public List<TopologyNode> sockets() {
        return at(shape.socketOrdinals());
    }

    public List<TopologyNode> gpus() {
        return at(shape.gpuOrdinals());
    }

    public List<TopologyNode> nics() {
        return at(shape.nicOrdinals());
    }

    /**
     * The ports that carry GPU traffic unless a user names another ({@link NicRole}), in PCI order. A
     * rail index (rail-optimized fabrics, rails in NCCL's sense) counts these.
     */
    public List<TopologyNode> computeNics() {
        return at(shape.computeNicOrdinals());
    }

    /** Names of the ports that are not compute ports: lane candidates only where listed by name. */
    public java.util.Set<String> listedOnlyNics() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        nics().stream().filter(n -> !n.nic().compute()).forEach(n -> out.add(n.name()));
        return out;
    }

    public Optional<TopologyNode> find(String deviceName) {
        return Optional.ofNullable(named(deviceName));
    }

    /** The device named {@code deviceName}, or null: {@link #find} without its Optional, for a lane's path. */
    public TopologyNode device(String deviceName) {
        return named(deviceName);
    }

    public TopologyNode gpu(String deviceName) {
        TopologyNode n = named(deviceName);
        if (n == null || n.kind() != TopologyNode.Kind.GPU) {
            throw new IllegalArgumentException("host " + name + " has no GPU named " + deviceName
                    + " (GPUs: " + names(gpus()) + ")");
        }
        return n;
    }

    public TopologyNode nic(String deviceName) {
        TopologyNode n = named(deviceName);
        if (n == null || n.kind() != TopologyNode.Kind.NIC) {
            throw new IllegalArgumentException("host " + name + " has no NIC named " + deviceName
                    + " (NICs: " + names(nics()) + ")");
        }
        return n;
    }

    private static String names(List<TopologyNode> nodes) {
        return String.join(", ", nodes.stream().map(TopologyNode::name).toList());
    }

    /** The relation between two devices as {@code nvidia-smi topo -m} names it. */
    public PathType relation(TopologyNode a, TopologyNode b) {
        if (a == b) {
            return PathType.X;
        }
        if (a.kind() == TopologyNode.Kind.GPU && b.kind() == TopologyNode.Kind.GPU
                && a.gpu().nvlinks() > 0 && b.gpu().nvlinks() > 0) {
            return PathType.NV;
        }
        if (a.socket() != b.socket()) {
            return PathType.SYS;
        }
        TopologyNode lca = commonAncestor(a, b);
        return switch (lca.kind()) {
            case SOCKET -> PathType.NODE;
            case HOST_BRIDGE -> PathType.PHB;
            case SWITCH -> (a.parent() == lca && b.parent() == lca) ? PathType.PIX : PathType.PXB;
            default -> PathType.PIX; // a device under another device does not occur in our trees
        };
    }

    /** NVLink count shown as NV# between two GPUs (the smaller of the two). */
    public int nvlinkCount(TopologyNode a, TopologyNode b) {
        return Math.min(a.gpu().nvlinks(), b.gpu().nvlinks());
    }

    public TopologyNode commonAncestor(TopologyNode a, TopologyNode b) {
        TopologyNode x = a;
        TopologyNode y = b;
        while (x.depth() > y.depth()) {
            x = x.parent();
        }
        while (y.depth() > x.depth()) {
            y = y.parent();
        }
        while (x != y) {
            if (x.parent() == null || y.parent() == null) {
                return null;
            }
            x = x.parent();
            y = y.parent();
        }
        return x;
    }

    /**
     * The compute ports ranked by relation to {@code gpu}, ties in PCI order (not by name: on a DGX H100
     * mlx5_10 follows mlx5_9). Storage ports are left out: nothing picks one for a GPU unasked.
     */
    public List<TopologyNode> nicsByDistance(TopologyNode gpu) {
        List<TopologyNode> sorted = new ArrayList<>(computeNics());
        sorted.sort((p, q) -> relation(gpu, p).compareTo(relation(gpu, q)));
        return sorted;
    }

    /** The single NIC nearest to {@code gpu} (what ModelExpress' NIC pin picks). */
    public TopologyNode nearestNic(TopologyNode gpu) {
        List<TopologyNode> ranked = nicsByDistance(gpu);
        if (ranked.isEmpty()) {
            throw new IllegalArgumentException("host " + name + " has no compute NIC");
        }
        return ranked.get(0);
    }
}
