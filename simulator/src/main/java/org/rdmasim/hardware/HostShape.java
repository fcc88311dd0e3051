package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tree one host spec builds, shared by every host built from that spec: each device's place
 * (kind, name, parent, uplink, socket, depth), the sockets, GPUs and NICs in build order, the names,
 * and the calibration profile. It holds no host's name and nothing that changes during a run, so the
 * 131,072 receivers of a counted group hold one shape between them; each {@link Host} adds only its
 * name and a small {@link TopologyNode} per place, and the {@link Cluster} keys what carries load by
 * host and place.
 */
public final class HostShape {
    /**
     * One device's place in the tree.
     *
     * @param ordinal  position in build order (sockets and devices as the spec lists them), from 0
     * @param parent   the parent's ordinal, -1 for a socket
     * @param uplink   link to the parent; null for a socket and a host bridge (part of the socket's root complex)
     * @param spec     the device as the spec describes it; null for a socket
     * @param socket   index of the socket (NUMA node position) the place hangs under
     * @param children the children's ordinals, in build order
     */
    public record Place(int ordinal, TopologyNode.Kind kind, String name, int parent, LinkSpec uplink,
            HostSpec.DeviceSpec spec, int socket, int depth, List<Integer> children) {
        public Place {
            children = List.copyOf(children);
        }
    }

    private final HostSpec spec;
    private final CalibrationProfile profile;
    private final List<Place> places;
    private final int[] sockets;
    private final int[] gpus;
    private final int[] nics;
    private final int[] computeNics;
    private final Map<String, Integer> ordinalByName;

    /** Builds the tree of {@code spec}; an IllegalArgumentException when two devices share a name. */
    public HostShape(HostSpec spec) {
        this(spec, spec.model());
    }

    /** The tree of {@code spec}, built for the host named {@code host} (which a bad spec's message names). */
    HostShape(HostSpec spec, String host) {
        this.spec = spec;
        this.profile = CalibrationProfile.forHost(spec);
        Tree tree = new Tree(host);
        for (int s = 0; s < spec.sockets().size(); s++) {
            int socket = tree.add(TopologyNode.Kind.SOCKET, "CPU" + s, -1, null, null, s);
            tree.sockets.add(socket);
            for (HostSpec.DeviceSpec d : spec.sockets().get(s).devices()) {
                tree.addDevice(d, socket, s);
            }
        }
        List<Place> built = new ArrayList<>(tree.names.size());
        for (int i = 0; i < tree.names.size(); i++) {
            built.add(new Place(i, tree.kinds.get(i), tree.names.get(i), tree.parents.get(i), tree.uplinks.get(i),
                    tree.specs.get(i), tree.socketOf.get(i), tree.depths.get(i), tree.children.get(i)));
        }
        this.places = List.copyOf(built);
        this.sockets = ints(tree.sockets);
        this.gpus = ints(tree.gpus);
        this.nics = ints(tree.nics);
        this.computeNics = tree.nics.stream().filter(k -> ((HostSpec.NicSpec) places.get(k).spec()).compute())
                .mapToInt(Integer::intValue).toArray();
        this.ordinalByName = Map.copyOf(tree.ordinalByName);
    }

    /** The tree while it is built, one list per field of a place. */
    private static final class Tree {
        final List<TopologyNode.Kind> kinds = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final List<Integer> parents = new ArrayList<>();
        final List<LinkSpec> uplinks = new ArrayList<>();
        final List<HostSpec.DeviceSpec> specs = new ArrayList<>();
        final List<Integer> socketOf = new ArrayList<>();
        final List<Integer> depths = new ArrayList<>();
        final List<List<Integer>> children = new ArrayList<>();
        final List<Integer> sockets = new ArrayList<>();
        final List<Integer> gpus = new ArrayList<>();
        final List<Integer> nics = new ArrayList<>();
        final Map<String, Integer> ordinalByName = new HashMap<>();
        final String host;

        Tree(String host) {
            this.host = host;
        }

        int add(TopologyNode.Kind kind, String name, int parent, LinkSpec uplink, HostSpec.DeviceSpec spec, int socket) {
            int ordinal = names.size();
            if (ordinalByName.putIfAbsent(name, ordinal) != null) {
                throw new IllegalArgumentException("host " + host + " has two devices named " + name);
            }
            kinds.add(kind);
            names.add(name);
            parents.add(parent);
            uplinks.add(uplink);
            specs.add(spec);
            socketOf.add(socket);
            depths.add(parent < 0 ? 0 : depths.get(parent) + 1);
            children.add(new ArrayList<>());
            if (parent >= 0) {
                children.get(parent).add(ordinal);
            }
            return ordinal;
        }

        void addDevice(HostSpec.DeviceSpec d, int parent, int socket) {
            if (d instanceof HostSpec.HostBridgeSpec b) {
                int node = add(TopologyNode.Kind.HOST_BRIDGE, b.name(), parent, null, b, socket);
                b.devices().forEach(c -> addDevice(c, node, socket));
            } else if (d instanceof HostSpec.SwitchSpec sw) {
                int node = add(TopologyNode.Kind.SWITCH, sw.name(), parent, sw.uplink(), sw, socket);
                sw.devices().forEach(c -> addDevice(c, node, socket));
            } else if (d instanceof HostSpec.GpuSpec g) {
                gpus.add(add(TopologyNode.Kind.GPU, g.name(), parent, g.link(), g, socket));
            } else if (d instanceof HostSpec.NicSpec n) {
                nics.add(add(TopologyNode.Kind.NIC, n.name(), parent, n.link(), n, socket));
            }
        }
    }

    private static int[] ints(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    public HostSpec spec() {
        return spec;
    }

    /** The calibration profile the spec's platform matches. */
    public CalibrationProfile profile() {
        return profile;
    }

    /** Every place in build order (a place's ordinal is its index here). */
    public List<Place> places() {
        return places;
    }

    public Place place(int ordinal) {
        return places.get(ordinal);
    }

    /** The ordinal of the device named {@code deviceName}, or -1 when there is none. */
    public int ordinalOf(String deviceName) {
        Integer k = ordinalByName.get(deviceName);
        return k == null ? -1 : k;
    }

    int[] socketOrdinals() {
        return sockets;
    }

    int[] gpuOrdinals() {
        return gpus;
    }

    int[] nicOrdinals() {
        return nics;
    }

    int[] computeNicOrdinals() {
        return computeNics;
    }
}
