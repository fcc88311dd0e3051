package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;

/**
 * Hosts and fabric turned into fluid resources: each link direction, each NIC side, each socket's
 * memory, each inter-socket direction, each leaf's uplink direction is one {@link Resource}. Answers
 * "which resources does a byte cross" for every piece of a data path.
 *
 * <p>Why one class of this size: every resource of every host and of the fabric is numbered here, lazily
 * but in one fixed order, which is what keeps solver tie-breaks and reports byte-identical; the lookups
 * that answer "which resources does a byte cross" need that numbering.
 */
public final class Cluster implements Hosts {
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final FabricSpec fabric;
    private final FluidNetwork network;
    private final Map<String, Resource[]> leafUp = new HashMap<>();
    private final Map<String, Resource[]> leafDown = new HashMap<>();
    private final ToDoubleBiFunction<Host, TopologyNode> nicRateFactor;
    private final boolean nominalNicRates;
    /** Each host's place in the cluster and block of resource indices (a node finds it through its host). */
    private final Map<Host, HostBlock> blocks = new IdentityHashMap<>();
    /** The same blocks in the hosts' order, for walks over every host that need no lookup per host. */
    private final List<HostBlock> blocksInOrder = new ArrayList<>();
    private final Map<HostSpec, Layout> layouts = new IdentityHashMap<>();
    /** The block {@link #blockOf} found last (one immutable value, so a reader on another thread sees a whole one). */
    private HostBlock lastBlock;
    /** The block found before {@link #lastBlock} (a lane's path alternates between its two hosts). */
    private HostBlock otherBlock;

    public Cluster(List<Host> hostList, FabricSpec fabric, FluidNetwork network) {
        this(hostList, fabric, network, null);
    }

    /**
     * A cluster whose NIC ports run at {@code nicRateFactor} times their nominal wire rate (both
     * directions of a port scale together), for replications with per-port rate spread; null for
     * nominal rates.
     */
    public Cluster(List<Host> hostList, FabricSpec fabric, FluidNetwork network,
            ToDoubleBiFunction<Host, TopologyNode> nicRateFactor) {
        this.fabric = fabric;
        this.network = network;
        this.nominalNicRates = nicRateFactor == null;
        this.nicRateFactor = nicRateFactor == null ? (h, nic) -> 1.0 : nicRateFactor;
        for (Host h : hostList) {
            if (hosts.putIfAbsent(h.name(), h) != null) {
                throw new IllegalArgumentException("two hosts are named " + h.name());
            }
            build(h, hosts.size() - 1);
        }
        buildFabric();
    }

    /**
     * Where one host shape's resources sit in a host's block of indices, in the order a host's
     * resources have always been numbered: socket memories, inter-socket directions, each link's up and
     * down (depth first), each NIC's tx, rx, calibrated READ and strict-order write route. Per slot: what it stands for given the
     * host's name, kind, nominal capacity and, for a NIC's slots, which of the host's NIC rate factors scales it.
     */
    private static final class Layout {
        final List<Function<String, Bottleneck>> limit = new ArrayList<>();
        final List<ResourceKind> kind = new ArrayList<>();
        final List<Double> capacity = new ArrayList<>();
        final List<Integer> factor = new ArrayList<>();
        final int[] up;
        final int[] down;
        final int[] tx;
        final int[] rx;
        final int[] read;
        /** Whether the calibrated READ rate holds the NIC answering a READ rather than the one issuing it. */
        final boolean readAtResponder;
        final int[] strictWrite;
        final int[] memory;
        final int[][] interSocket;
        /** Routes traced so far, by source and destination ordinal (and socket), with and without ACS. */
        final Route[] within;
        final Route[] toSocket;
        final Route[] fromSocket;

        Layout(Host h) {
            HostSpec spec = h.spec();
            int nodes = 0;
            for (TopologyNode socket : h.sockets()) {
                nodes = Math.max(nodes, maxOrdinal(socket) + 1);
            }
            up = filled(nodes);
            down = filled(nodes);
            tx = filled(nodes);
            rx = filled(nodes);
            read = filled(nodes);
            readAtResponder = h.profile().parameter(ProfileKey.NIC_READ_AT_RESPONDER).map(p -> p.value() == 1)
                    .orElse(false);
            strictWrite = filled(nodes);
            memory = new int[spec.sockets().size()];
            for (int s = 0; s < memory.length; s++) {
                int cpu = s;
                memory[s] = slot(host -> new Bottleneck.HostMemory(host, cpu), ResourceKind.HOST_MEMORY,
                        spec.sockets().get(s).memoryBandwidth(), -1);
            }
            within = new Route[2 * nodes * nodes];
            toSocket = new Route[nodes * memory.length];
            fromSocket = new Route[memory.length * nodes];
            interSocket = new int[memory.length][memory.length];
            // a preset's Grace-Grace or AWS inter-socket figure is a profile's parameter: its limit says which
            String linkProfile = spec.interSocketProfile(h.profile()).orElse(null);
            ProfileKey linkKey = spec.interSocketKey().orElse(null);
            for (int a = 0; a < memory.length; a++) {
                for (int b = 0; b < memory.length; b++) {
                    int from = a;
                    int to = b;
                    interSocket[a][b] = a == b ? -1 : slot(host -> new Bottleneck.SocketLink(host, from, to, linkProfile, linkKey),
                            ResourceKind.CPU_INTERCONNECT, spec.interSocket(h.profile()), -1);
                }
            }
            for (TopologyNode socket : h.sockets()) {
                addLinks(socket);
            }
            CalibrationProfile profile = h.profile();
            CalibrationProfile.Parameter readRate = profile.nicReadRate().orElse(null);
            CalibrationProfile.Parameter strictRate = profile.strictOrderGpuWriteRate().orElse(null);
            int k = 0;
            for (TopologyNode nic : h.nics()) {
                HostSpec.NicSpec n = nic.nic();
                // a wire rate that rests on an assumed framing efficiency says so wherever it limits a transfer
                String assumed = n.linkLayer().efficiencyAssumedIn(profile).orElse(null);
                tx[nic.ordinal()] = slot(host -> new Bottleneck.NicWire(host, n.name(), Bottleneck.Side.TX, assumed),
                        ResourceKind.NIC_TX, n.payloadBytesPerSecond(profile), 2 * k);
                rx[nic.ordinal()] = slot(host -> new Bottleneck.NicWire(host, n.name(), Bottleneck.Side.RX, assumed),
                        ResourceKind.NIC_RX, n.payloadBytesPerSecond(profile), 2 * k);
                if (readRate != null) {
                    read[nic.ordinal()] = slot(host -> new Bottleneck.NicReadCalibrated(host, n.name(), profile.name()),
                            ResourceKind.NIC_READ_CALIBRATED, readRate.bytesPerSecond(), 2 * k + 1);
                }
                if (strictRate != null) {
                    strictWrite[nic.ordinal()] = slot(host -> new Bottleneck.StrictOrderWrite(host, n.name(), profile.name()),
                            ResourceKind.STRICT_ORDER_WRITE, strictRate.bytesPerSecond(), -1);
                }
                k++;
            }
        }

        private void addLinks(TopologyNode node) {
            for (TopologyNode child : node.children()) {
                LinkSpec link = child.uplink();
                if (link != null) {
                    ResourceKind kind = link.type() == LinkSpec.LinkType.C2C ? ResourceKind.C2C_LINK : ResourceKind.PCIE_LINK;
                    String device = child.name();
                    up[child.ordinal()] = slot(host -> new Bottleneck.Link(host, device, link.type(), Bottleneck.Direction.UP),
                            kind, link.bytesPerSecond(), -1);
                    down[child.ordinal()] = slot(host -> new Bottleneck.Link(host, device, link.type(), Bottleneck.Direction.DOWN),
                            kind, link.bytesPerSecond(), -1);
                }
                addLinks(child);
            }
        }

        /**
         * The route climbing from {@code from} (null: none) up to {@code fromTop} or its socket, across
         * {@code inter} (-1: none), then down to {@code to} (null: none) from {@code toTop} or its socket.
         */
        Route route(TopologyNode from, TopologyNode fromTop, int inter, TopologyNode to, TopologyNode toTop) {
            List<Integer> walk = new ArrayList<>();
            for (TopologyNode n = from; n != null && n != fromTop && n.kind() != TopologyNode.Kind.SOCKET; n = n.parent()) {
                addIfSet(walk, up[n.ordinal()]);
            }
            addIfSet(walk, inter);
            int crossed = walk.size();
            for (TopologyNode n = to; n != null && n != toTop && n.kind() != TopologyNode.Kind.SOCKET; n = n.parent()) {
                addIfSet(walk, down[n.ordinal()]);
            }
            int[] w = walk.stream().mapToInt(Integer::intValue).toArray();
            int[] path = new int[w.length];
            System.arraycopy(w, 0, path, 0, crossed);
            for (int i = crossed; i < w.length; i++) {
                path[i] = w[w.length - 1 - (i - crossed)];
            }
            return new Route(w, path);
        }

        private static void addIfSet(List<Integer> out, int slot) {
            if (slot >= 0) {
                out.add(slot);
            }
        }

        private int slot(Function<String, Bottleneck> stands, ResourceKind k, double c, int nicFactor) {
            limit.add(stands);
            kind.add(k);
            capacity.add(c);
            factor.add(nicFactor);
            return limit.size() - 1;
        }

        int size() {
            return limit.size();
        }

        private static int maxOrdinal(TopologyNode n) {
            int m = n.ordinal();
            for (TopologyNode c : n.children()) {
                m = Math.max(m, maxOrdinal(c));
            }
            return m;
        }

        private static int[] filled(int n) {
            int[] a = new int[n];
            Arrays.fill(a, -1);
            return a;
        }
    }

    /**
     * A route inside one host as slots of its layout, the same for every host of the shape: {@code walk}
     * in the order the route is traced (climbing from the source, the inter-socket link, climbing from
     * the destination), which is the order its resources are built in on first use, and {@code path}
     * in the order a byte crosses them (the destination's climb reversed).
     */
    private record Route(int[] walk, int[] path) {
        List<Resource> resources(Cluster c, HostBlock b) {
            List<Resource> out = new ArrayList<>(path.length);
            addTo(c, b, out);
            return out;
        }

        /** Appends the route's resources to {@code out}, in the order a byte crosses them. */
        void addTo(Cluster c, HostBlock b, List<Resource> out) {
            for (int slot : walk) {
                c.resource(b, slot);
            }
            for (int slot : path) {
                out.add(c.network.resourceAt(b.base() + slot));
            }
        }
    }

    /**
     * The host at {@code index} in the cluster's order, and its resources: {@code layout.size()} indices
     * from {@code base}, each built on first use. {@code factors} holds the NIC rate factors (wire, then
     * READ, per NIC), drawn when the cluster is built in the order they always were; null at nominal rates.
     */
    private record HostBlock(Host host, int index, int base, Layout layout, double[] factors) {
    }

    private void build(Host h, int index) {
        Layout layout = layouts.computeIfAbsent(h.spec(), s -> new Layout(h));
        double[] factors = null;
        if (!nominalNicRates) {
            // Drawn now, wire then READ per NIC, as the eager build drew them (the factor may be random).
            boolean read = h.profile().nicReadRate().isPresent();
            factors = new double[2 * h.nics().size()];
            int k = 0;
            for (TopologyNode nic : h.nics()) {
                factors[2 * k] = nicRateFactor.applyAsDouble(h, nic);
                if (read) {
                    factors[2 * k + 1] = nicRateFactor.applyAsDouble(h, nic);
                }
                k++;
            }
        }
        HostBlock b = new HostBlock(h, index, network.reserve(layout.size()), layout, factors);
        blocks.put(h, b);
        h.clusterIndex = blocksInOrder.size();
        blocksInOrder.add(b);
    }

    /** The resource in {@code slot} of a host's block, built now if nothing used it before; null for slot -1. */
    private Resource resource(HostBlock b, int slot) {
        if (slot < 0) {
            return null;
        }
        Resource r = network.resourceAt(b.base() + slot);
        if (r == null) {
            r = network.addResourceAt(b.base() + slot, b.layout().limit.get(slot).apply(b.host().name()),
                    b.layout().kind.get(slot), capacity(b, slot));
        }
        return r;
    }

    private static double capacity(HostBlock b, int slot) {
        double c = b.layout().capacity.get(slot);
        int f = b.layout().factor.get(slot);
        return f < 0 ? c : c * (b.factors() == null ? 1.0 : b.factors()[f]);
    }

    private HostBlock blockOf(Host h) {
        // A lane's path asks for one host's resources several times in a row.
        HostBlock last = lastBlock;
        if (last != null && last.host() == h) {
            return last;
        }
        HostBlock other = otherBlock;
        HostBlock b;
        if (other != null && other.host() == h) {
            b = other;
        } else {
            // The host's hint is checked: another cluster built with the same host may have set it.
            int k = h.clusterIndex;
            HostBlock hinted = k >= 0 && k < blocksInOrder.size() ? blocksInOrder.get(k) : null;
            b = hinted != null && hinted.host() == h ? hinted : blocks.get(h);
        }
        otherBlock = last;
        lastBlock = b;
        return b;
    }

    private HostBlock blockOf(TopologyNode n) {
        return blockOf(n.host());
    }

    /** The resource a node's slot table names for it, built now if needed; null where the table has none. */
    private Resource atNode(TopologyNode n, Function<Layout, int[]> table) {
        HostBlock b = blockOf(n);
        return resource(b, table.apply(b.layout())[n.ordinal()]);
    }

    /** Builds every resource of every host now (a fault names a resource nothing may have crossed yet). */
    public List<Resource> allResources() {
        for (HostBlock b : blocks.values()) {
            for (int slot = 0; slot < b.layout().size(); slot++) {
                resource(b, slot);
            }
        }
        return network.resources();
    }

    private void buildFabric() {
        if (fabric.kind() == FabricSpec.Kind.NON_BLOCKING) {
            return;
        }
        Map<String, Double> leafCapacity = new LinkedHashMap<>();
        for (Host h : hosts.values()) {
            HostBlock b = blockOf(h);
            for (TopologyNode nic : h.nics()) {
                leafCapacity.merge(leafOf(h, nic), capacity(b, b.layout().tx[nic.ordinal()]), Double::sum);
            }
        }
        for (Map.Entry<String, Double> e : leafCapacity.entrySet()) {
            double c = e.getValue() / fabric.oversubscription();
            leafUp.put(e.getKey(), new Resource[] {network.addResource(
                    new Bottleneck.FabricLeaf(e.getKey(), Bottleneck.Direction.UP), ResourceKind.FABRIC_LINK, c)});
            leafDown.put(e.getKey(), new Resource[] {network.addResource(
                    new Bottleneck.FabricLeaf(e.getKey(), Bottleneck.Direction.DOWN), ResourceKind.FABRIC_LINK, c)});
        }
    }

    /** The leaf switch a NIC plugs into. */
    public String leafOf(Host h, TopologyNode nic) {
        return switch (fabric.kind()) {
            case NON_BLOCKING -> "switch";
            case LEAF_SPINE -> "leaf" + leafGroup(h);
            // rails count compute ports; a storage port listed by a user joins a rail past them
            case RAIL_OPTIMIZED -> "rail" + (nic.nic().compute() ? h.computeNics().indexOf(nic)
                    : h.computeNics().size() + h.nics().indexOf(nic)) + "-leaf" + leafGroup(h);
        };
    }

    /** Which group of {@code hostsPerLeaf} consecutive hosts {@code h} belongs to. */
    private int leafGroup(Host h) {
        return blockOf(h).index() / fabric.hostsPerLeaf();
    }

    public FluidNetwork network() {
        return network;
    }

    public FabricSpec fabric() {
        return fabric;
    }

    public List<Host> hosts() {
        return new ArrayList<>(hosts.values());
    }

    @Override
    public Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host named " + name + " (hosts: " + hosts.keySet() + ")");
        }
        return h;
    }

    public Resource nicTx(TopologyNode nic) {
        return atNode(nic, l -> l.tx);
    }

    public Resource nicRx(TopologyNode nic) {
        return atNode(nic, l -> l.rx);
    }

    /** A NIC's transmit side if anything ever crossed it (or asked for it), else null. */
    public Resource nicTxIfBuilt(TopologyNode nic) {
        HostBlock b = blockOf(nic);
        return network.resourceAt(b.base() + b.layout().tx[nic.ordinal()]);
    }

    /** One NIC port as {@link #forEachNic} shows it. */
    @FunctionalInterface
    public interface NicVisitor {
        /**
         * @param tx its transmit side, null when nothing ever crossed it (or asked for it)
         * @param rx its receive side, likewise
         */
        void visit(Host host, TopologyNode nic, Resource tx, Resource rx);
    }

    /**
     * Shows every NIC port of every host, hosts in the cluster's order and each host's ports in its
     * order, with the sides built so far (none is built here). A report's per-port tables walk every
     * port of the cluster: by host through its block, not port by port through a map lookup (at 65,536
     * hosts the lookups were most of the time it took to gather the tables).
     */
    public void forEachNic(NicVisitor visitor) {
        for (int i = 0; i < blocksInOrder.size(); i++) {
            HostBlock b = blocksInOrder.get(i);
            Host h = b.host();
            Layout l = b.layout();
            List<TopologyNode> nics = h.nics();
            for (int k = 0, n = nics.size(); k < n; k++) {
                TopologyNode nic = nics.get(k);
                visitor.visit(h, nic, network.resourceAt(b.base() + l.tx[nic.ordinal()]),
                        network.resourceAt(b.base() + l.rx[nic.ordinal()]));
            }
        }
    }

    /**
     * The calibrated RDMA READ rate of a NIC, as a resource every READ lane initiated through it
     * crosses, or null when the host's profile calibrates none (see {@link CalibrationProfile}).
     */
    public Resource nicReadCalibrated(TopologyNode nic) {
        return atNode(nic, l -> l.read);
    }

    /**
     * Whether {@code nic}'s calibrated READ rate holds the READs it answers rather than those it issues (its
     * host's profile's {@link ProfileKey#NIC_READ_AT_RESPONDER}; issued, when the profile does not say).
     */
    public boolean nicReadCalibratedAtResponder(TopologyNode nic) {
        return blockOf(nic).layout().readAtResponder;
    }

    /**
     * The route a NIC's strict-order writes into GPU memory take, as a resource every such lane
     * crosses, or null when the host's profile has none (see {@link CalibrationProfile}).
     */
    public Resource strictOrderGpuWrites(TopologyNode nic) {
        return atNode(nic, l -> l.strictWrite);
    }

    public Resource hostMemory(Host h, int socket) {
        HostBlock b = blockOf(h);
        return resource(b, b.layout().memory[socket]);
    }

    /**
     * Resources a byte crosses moving from device {@code from} to device {@code to} inside host
     * {@code h}: up to their common ancestor, across the inter-socket link if needed, and down.
     * With {@code throughRootComplex} (PCIe ACS redirecting peer traffic) the byte climbs to the
     * socket even when a switch is shared.
     */
    public List<Resource> within(Host h, TopologyNode from, TopologyNode to, boolean throughRootComplex) {
        List<Resource> out = new ArrayList<>();
        addWithin(h, from, to, throughRootComplex, out);
        return out;
    }

    /**
     * Appends {@link #within}'s resources to {@code out}. A lane's path is built on every lane start: the
     * pieces of it appended straight to it leave no list behind per piece.
     */
    public void addWithin(Host h, TopologyNode from, TopologyNode to, boolean throughRootComplex, List<Resource> out) {
        HostBlock b = blockOf(h);
        Layout l = b.layout();
        int n = l.up.length;
        int key = ((throughRootComplex ? n : 0) + from.ordinal()) * n + to.ordinal();
        Route r = l.within[key];
        if (r == null) {
            TopologyNode top = from.socket() == to.socket() ? h.commonAncestor(from, to) : null;
            if (throughRootComplex && top != null) {
                top = h.sockets().get(from.socket());
            }
            r = l.route(from, top, from.socket() != to.socket() ? l.interSocket[from.socket()][to.socket()] : -1, to, top);
            l.within[key] = r;
        }
        r.addTo(this, b, out);
    }

    /** Resources from device {@code from} into the memory of socket {@code socket} (not counting the memory itself). */
    public List<Resource> toSocket(Host h, TopologyNode from, int socket) {
        List<Resource> out = new ArrayList<>();
        addToSocket(h, from, socket, out);
        return out;
    }

    /** Appends {@link #toSocket}'s resources to {@code out}. */
    public void addToSocket(Host h, TopologyNode from, int socket, List<Resource> out) {
        HostBlock b = blockOf(h);
        Layout l = b.layout();
        int key = from.ordinal() * l.memory.length + socket;
        Route r = l.toSocket[key];
        if (r == null) {
            r = l.route(from, null, from.socket() != socket ? l.interSocket[from.socket()][socket] : -1, null, null);
            l.toSocket[key] = r;
        }
        r.addTo(this, b, out);
    }

    /** Resources from the memory of socket {@code socket} down to device {@code to}. */
    public List<Resource> fromSocket(Host h, int socket, TopologyNode to) {
        List<Resource> out = new ArrayList<>();
        addFromSocket(h, socket, to, out);
        return out;
    }

    /** Appends {@link #fromSocket}'s resources to {@code out}. */
    public void addFromSocket(Host h, int socket, TopologyNode to, List<Resource> out) {
        HostBlock b = blockOf(h);
        Layout l = b.layout();
        int key = socket * l.up.length + to.ordinal();
        Route r = l.fromSocket[key];
        if (r == null) {
            r = l.route(null, null, to.socket() != socket ? l.interSocket[socket][to.socket()] : -1, to, null);
            l.fromSocket[key] = r;
        }
        r.addTo(this, b, out);
    }

    /** NIC to NIC across the fabric: sender TX, leaf uplinks if the leaves differ, receiver RX. */
    public List<Resource> across(Host a, TopologyNode nicA, Host b, TopologyNode nicB) {
        List<Resource> out = new ArrayList<>();
        addAcross(a, nicA, b, nicB, out);
        return out;
    }

    /** Appends {@link #across}'s resources to {@code out}. */
    public void addAcross(Host a, TopologyNode nicA, Host b, TopologyNode nicB, List<Resource> out) {
        out.add(nicTx(nicA));
        if (fabric.kind() != FabricSpec.Kind.NON_BLOCKING) {
            String la = leafOf(a, nicA);
            String lb = leafOf(b, nicB);
            if (!la.equals(lb)) {
                out.add(leafUp.get(la)[0]);
                out.add(leafDown.get(lb)[0]);
            }
        }
        out.add(nicRx(nicB));
    }

    /** Switch hops between two NICs (1 on the same leaf, 3 through a spine). */
    public int switchHops(Host a, TopologyNode nicA, Host b, TopologyNode nicB) {
        if (fabric.kind() == FabricSpec.Kind.NON_BLOCKING || leafOf(a, nicA).equals(leafOf(b, nicB))) {
            return 1;
        }
        return 3;
    }
}
