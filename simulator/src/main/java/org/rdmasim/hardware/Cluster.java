package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;
import org.rdmasim.fluid.FluidNetwork;
import org.rdmasim.fluid.Resource;
import org.rdmasim.fluid.ResourceKind;

/**
 * Hosts and fabric turned into fluid resources: each link direction, each NIC side, each socket's
 * memory, each inter-socket direction, each leaf's uplink direction is one {@link Resource}. Answers
 * "which resources does a byte cross" for every piece of a data path.
 */
public final class Cluster implements Hosts {
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final FabricSpec fabric;
    private final FluidNetwork network;
    private final Map<TopologyNode, Resource> up = new HashMap<>();
    private final Map<TopologyNode, Resource> down = new HashMap<>();
    private final Map<TopologyNode, Resource> nicTx = new HashMap<>();
    private final Map<TopologyNode, Resource> nicRx = new HashMap<>();
    private final Map<String, Resource[]> memory = new HashMap<>();
    private final Map<String, Resource[][]> interSocket = new HashMap<>();
    private final Map<String, Resource[]> leafUp = new HashMap<>();
    private final Map<String, Resource[]> leafDown = new HashMap<>();
    private final Map<String, Integer> hostIndex = new HashMap<>();
    private final ToDoubleBiFunction<Host, TopologyNode> nicRateFactor;
    private final Map<TopologyNode, Resource> nicRead = new HashMap<>();

    public Cluster(List<Host> hostList, FabricSpec fabric, FluidNetwork network) {
        this(hostList, fabric, network, (h, nic) -> 1.0);
    }

    /**
     * A cluster whose NIC ports run at {@code nicRateFactor} times their nominal wire rate (both
     * directions of a port scale together), for replications with per-port rate spread.
     */
    public Cluster(List<Host> hostList, FabricSpec fabric, FluidNetwork network,
            ToDoubleBiFunction<Host, TopologyNode> nicRateFactor) {
        this.fabric = fabric;
        this.network = network;
        this.nicRateFactor = nicRateFactor;
        for (Host h : hostList) {
            if (hosts.putIfAbsent(h.name(), h) != null) {
                throw new IllegalArgumentException("two hosts are named " + h.name());
            }
            hostIndex.put(h.name(), hostIndex.size());
            build(h);
        }
        buildFabric();
    }

    private void build(Host h) {
        HostSpec spec = h.spec();
        Resource[] mem = new Resource[spec.sockets().size()];
        for (int s = 0; s < mem.length; s++) {
            mem[s] = network.addResource(h.name() + ":CPU" + s + " memory", ResourceKind.HOST_MEMORY,
                    spec.sockets().get(s).memoryBandwidth());
        }
        memory.put(h.name(), mem);
        Resource[][] x = new Resource[mem.length][mem.length];
        for (int a = 0; a < mem.length; a++) {
            for (int b = 0; b < mem.length; b++) {
                if (a != b) {
                    x[a][b] = network.addResource(h.name() + ":CPU" + a + "->CPU" + b, ResourceKind.CPU_INTERCONNECT,
                            spec.interSocket());
                }
            }
        }
        interSocket.put(h.name(), x);
        for (TopologyNode socket : h.sockets()) {
            addLinks(h, socket);
        }
        CalibrationProfile profile = h.profile();
        CalibrationProfile.Parameter readRate = profile.nicReadRate().orElse(null);
        for (TopologyNode nic : h.nics()) {
            HostSpec.NicSpec n = nic.nic();
            double wire = n.payloadBytesPerSecond() * nicRateFactor.applyAsDouble(h, nic);
            // a wire rate that rests on an assumed framing efficiency says so wherever it limits a transfer
            String assumed = n.linkLayer().efficiencyAssumedIn().map(p -> ", SRD efficiency assumed in " + p).orElse("");
            nicTx.put(nic, network.addResource(h.name() + ":" + n.name() + " tx" + assumed, ResourceKind.NIC_TX, wire));
            nicRx.put(nic, network.addResource(h.name() + ":" + n.name() + " rx" + assumed, ResourceKind.NIC_RX, wire));
            if (readRate != null) {
                nicRead.put(nic, network.addResource(h.name() + ":" + n.name() + " READ, calibrated to "
                        + profile.name(), ResourceKind.NIC_READ_CALIBRATED,
                        Units.gbpsToBytesPerSecond(readRate.value()) * nicRateFactor.applyAsDouble(h, nic)));
            }
        }
    }

    private void addLinks(Host h, TopologyNode node) {
        for (TopologyNode child : node.children()) {
            LinkSpec link = child.uplink();
            if (link != null) {
                ResourceKind kind = link.type() == LinkSpec.LinkType.C2C ? ResourceKind.C2C_LINK : ResourceKind.PCIE_LINK;
                String base = h.name() + ":" + child.name() + " " + (link.type() == LinkSpec.LinkType.C2C ? "C2C" : "PCIe");
                up.put(child, network.addResource(base + " up", kind, link.bytesPerSecond()));
                down.put(child, network.addResource(base + " down", kind, link.bytesPerSecond()));
            }
            addLinks(h, child);
        }
    }

    private void buildFabric() {
        if (fabric.kind() == FabricSpec.Kind.NON_BLOCKING) {
            return;
        }
        Map<String, Double> leafCapacity = new LinkedHashMap<>();
        for (Host h : hosts.values()) {
            for (TopologyNode nic : h.nics()) {
                leafCapacity.merge(leafOf(h, nic), nicTx.get(nic).capacity(), Double::sum);
            }
        }
        for (Map.Entry<String, Double> e : leafCapacity.entrySet()) {
            double c = e.getValue() / fabric.oversubscription();
            leafUp.put(e.getKey(), new Resource[] {network.addResource(e.getKey() + " uplink", ResourceKind.FABRIC_LINK, c)});
            leafDown.put(e.getKey(), new Resource[] {network.addResource(e.getKey() + " downlink", ResourceKind.FABRIC_LINK, c)});
        }
    }

    /** The leaf switch a NIC plugs into. */
    public String leafOf(Host h, TopologyNode nic) {
        int group = hostIndex.get(h.name()) / fabric.hostsPerLeaf();
        return switch (fabric.kind()) {
            case NON_BLOCKING -> "switch";
            case LEAF_SPINE -> "leaf" + group;
            case RAIL_OPTIMIZED -> "rail" + h.nics().indexOf(nic) + "-leaf" + group;
        };
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

    public boolean hasHost(String name) {
        return hosts.containsKey(name);
    }

    public Resource nicTx(TopologyNode nic) {
        return nicTx.get(nic);
    }

    public Resource nicRx(TopologyNode nic) {
        return nicRx.get(nic);
    }

    /**
     * The calibrated RDMA READ rate of a NIC, as a resource every READ lane initiated through it
     * crosses, or null when the host's profile calibrates none (see {@link CalibrationProfile}).
     */
    public Resource nicReadCalibrated(TopologyNode nic) {
        return nicRead.get(nic);
    }

    public Resource hostMemory(Host h, int socket) {
        return memory.get(h.name())[socket];
    }

    /**
     * Resources a byte crosses moving from device {@code from} to device {@code to} inside host
     * {@code h}: up to their common ancestor, across the inter-socket link if needed, and down.
     * With {@code throughRootComplex} (PCIe ACS redirecting peer traffic) the byte climbs to the
     * socket even when a switch is shared.
     */
    public List<Resource> within(Host h, TopologyNode from, TopologyNode to, boolean throughRootComplex) {
        List<Resource> out = new ArrayList<>();
        TopologyNode top = from.socket() == to.socket() ? h.commonAncestor(from, to) : null;
        if (throughRootComplex && top != null) {
            top = h.sockets().get(from.socket());
        }
        for (TopologyNode n = from; n != null && n != top && n.kind() != TopologyNode.Kind.SOCKET; n = n.parent()) {
            addIfPresent(out, up.get(n));
        }
        if (from.socket() != to.socket()) {
            out.add(interSocket.get(h.name())[from.socket()][to.socket()]);
        }
        List<Resource> descent = new ArrayList<>();
        for (TopologyNode n = to; n != null && n != top && n.kind() != TopologyNode.Kind.SOCKET; n = n.parent()) {
            addIfPresent(descent, down.get(n));
        }
        for (int i = descent.size() - 1; i >= 0; i--) {
            out.add(descent.get(i));
        }
        return out;
    }

    /** Resources from device {@code from} into the memory of socket {@code socket} (not counting the memory itself). */
    public List<Resource> toSocket(Host h, TopologyNode from, int socket) {
        List<Resource> out = new ArrayList<>();
        for (TopologyNode n = from; n.kind() != TopologyNode.Kind.SOCKET; n = n.parent()) {
            addIfPresent(out, up.get(n));
        }
        if (from.socket() != socket) {
            out.add(interSocket.get(h.name())[from.socket()][socket]);
        }
        return out;
    }

    /** Resources from the memory of socket {@code socket} down to device {@code to}. */
    public List<Resource> fromSocket(Host h, int socket, TopologyNode to) {
        List<Resource> out = new ArrayList<>();
        if (to.socket() != socket) {
            out.add(interSocket.get(h.name())[socket][to.socket()]);
        }
        List<Resource> descent = new ArrayList<>();
        for (TopologyNode n = to; n.kind() != TopologyNode.Kind.SOCKET; n = n.parent()) {
            addIfPresent(descent, down.get(n));
        }
        for (int i = descent.size() - 1; i >= 0; i--) {
            out.add(descent.get(i));
        }
        return out;
    }

    /** NIC to NIC across the fabric: sender TX, leaf uplinks if the leaves differ, receiver RX. */
    public List<Resource> across(Host a, TopologyNode nicA, Host b, TopologyNode nicB) {
        List<Resource> out = new ArrayList<>();
        out.add(nicTx.get(nicA));
        String la = leafOf(a, nicA);
        String lb = leafOf(b, nicB);
        if (!la.equals(lb) && fabric.kind() != FabricSpec.Kind.NON_BLOCKING) {
            out.add(leafUp.get(la)[0]);
            out.add(leafDown.get(lb)[0]);
        }
        out.add(nicRx.get(nicB));
        return out;
    }

    /** Switch hops between two NICs (1 on the same leaf, 3 through a spine). */
    public int switchHops(Host a, TopologyNode nicA, Host b, TopologyNode nicB) {
        if (fabric.kind() == FabricSpec.Kind.NON_BLOCKING || leafOf(a, nicA).equals(leafOf(b, nicB))) {
            return 1;
        }
        return 3;
    }

    private static void addIfPresent(List<Resource> out, Resource r) {
        if (r != null) {
            out.add(r);
        }
    }
}
