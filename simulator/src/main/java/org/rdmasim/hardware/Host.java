package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A built host: its tree of sockets, bridges, switches, GPUs and NICs, and their relations. */
public final class Host {
    private final String name;
    private final CalibrationProfile profile;
    private final HostSpec spec;
    private final List<TopologyNode> sockets = new ArrayList<>();
    private final List<TopologyNode> gpus = new ArrayList<>();
    private final List<TopologyNode> nics = new ArrayList<>();
    private List<TopologyNode> computeNics;
    /** Every node in build order (a node's ordinal is its place here). */
    private final List<TopologyNode> nodes = new ArrayList<>();
    /**
     * Device name to ordinal. It depends on the spec only, so hosts built {@link #like} another share it:
     * at 128k hosts a map per host was ~80 MB.
     */
    private final Map<String, Integer> ordinalByName;
    private final boolean sharedIndex;

    public Host(String name, HostSpec spec) {
        this(name, spec, new HashMap<>(), false);
    }

    /** A host of the same spec as {@code shape} (its own nodes, the same name index). */
    public static Host like(String name, Host shape) {
        return new Host(name, shape.spec, shape.ordinalByName, true);
    }

    private Host(String name, HostSpec spec, Map<String, Integer> ordinalByName, boolean sharedIndex) {
        this.name = name;
        this.spec = spec;
        this.ordinalByName = ordinalByName;
        this.sharedIndex = sharedIndex;
        this.profile = CalibrationProfile.forHost(spec);
        for (int s = 0; s < spec.sockets().size(); s++) {
            HostSpec.SocketSpec socket = spec.sockets().get(s);
            TopologyNode node = new TopologyNode(TopologyNode.Kind.SOCKET, "CPU" + s, null, null, null, s, nodes.size());
            sockets.add(node);
            register(node);
            for (HostSpec.DeviceSpec d : socket.devices()) {
                add(d, node, s);
            }
        }
    }

    private void add(HostSpec.DeviceSpec d, TopologyNode parent, int socket) {
        if (d instanceof HostSpec.HostBridgeSpec b) {
            TopologyNode node = new TopologyNode(TopologyNode.Kind.HOST_BRIDGE, b.name(), parent, null, b, socket, nodes.size());
            register(node);
            b.devices().forEach(c -> add(c, node, socket));
        } else if (d instanceof HostSpec.SwitchSpec sw) {
            TopologyNode node = new TopologyNode(TopologyNode.Kind.SWITCH, sw.name(), parent, sw.uplink(), sw, socket, nodes.size());
            register(node);
            sw.devices().forEach(c -> add(c, node, socket));
        } else if (d instanceof HostSpec.GpuSpec g) {
            TopologyNode node = new TopologyNode(TopologyNode.Kind.GPU, g.name(), parent, g.link(), g, socket, nodes.size());
            register(node);
            gpus.add(node);
        } else if (d instanceof HostSpec.NicSpec n) {
            TopologyNode node = new TopologyNode(TopologyNode.Kind.NIC, n.name(), parent, n.link(), n, socket, nodes.size());
            register(node);
            nics.add(node);
        }
    }

    private void register(TopologyNode node) {
        nodes.add(node);
        if (sharedIndex) {
            if (!Integer.valueOf(node.ordinal()).equals(ordinalByName.get(node.name()))) {
                throw new IllegalStateException("host " + name + " is not built like the host whose index it shares");
            }
            return;
        }
        if (ordinalByName.putIfAbsent(node.name(), node.ordinal()) != null) {
            throw new IllegalArgumentException("host " + name + " has two devices named " + node.name());
        }
    }

    private TopologyNode named(String deviceName) {
        Integer k = ordinalByName.get(deviceName);
        return k == null ? null : nodes.get(k);
    }

    public String name() {
        return name;
    }

    public HostSpec spec() {
        return spec;
    }

    /** The calibration profile the host's platform matches. */
    public CalibrationProfile profile() {
        return profile;
    }

    public List<TopologyNode> sockets() {
        return Collections.unmodifiableList(sockets);
    }

    public List<TopologyNode> gpus() {
        return Collections.unmodifiableList(gpus);
    }

    public List<TopologyNode> nics() {
        return Collections.unmodifiableList(nics);
    }

    /**
     * The ports that carry GPU traffic unless a user names another ({@link NicRole}), in PCI order. A
     * rail index (rail-optimized fabrics, rails in NCCL's sense) counts these.
     */
    public List<TopologyNode> computeNics() {
        if (computeNics == null) {
            computeNics = nics.stream().filter(n -> n.nic().compute()).toList();
        }
        return computeNics;
    }

    /** Names of the ports that are not compute ports: lane candidates only where listed by name. */
    public java.util.Set<String> listedOnlyNics() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        nics.stream().filter(n -> !n.nic().compute()).forEach(n -> out.add(n.name()));
        return out;
    }

    public Optional<TopologyNode> find(String deviceName) {
        return Optional.ofNullable(named(deviceName));
    }

    public TopologyNode gpu(String deviceName) {
        TopologyNode n = named(deviceName);
        if (n == null || n.kind() != TopologyNode.Kind.GPU) {
            throw new IllegalArgumentException("host " + name + " has no GPU named " + deviceName
                    + " (GPUs: " + names(gpus) + ")");
        }
        return n;
    }

    public TopologyNode nic(String deviceName) {
        TopologyNode n = named(deviceName);
        if (n == null || n.kind() != TopologyNode.Kind.NIC) {
            throw new IllegalArgumentException("host " + name + " has no NIC named " + deviceName
                    + " (NICs: " + names(nics) + ")");
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
