package org.rdmasim.hardware;

import java.util.AbstractList;
import java.util.List;

/**
 * A built element of one host's tree: socket, host bridge, PCIe switch, GPU or NIC. What the element
 * is lives in its {@link HostShape.Place}, shared by every host of the same spec; a node only pairs that
 * place with its host, so a node still names one device of one host (two hosts' GPU0 are two nodes).
 */
public final class TopologyNode {
    public enum Kind { SOCKET, HOST_BRIDGE, SWITCH, GPU, NIC }

    private final Host host;
    private final HostShape.Place place;

    TopologyNode(Host host, HostShape.Place place) {
        this.host = host;
        this.place = place;
    }

    /** The host this node belongs to. */
    public Host host() {
        return host;
    }

    /** Its place in the host's shape (the same for this device on every host of the spec). */
    public HostShape.Place place() {
        return place;
    }

    public Kind kind() {
        return place.kind();
    }

    public String name() {
        return place.name();
    }

    public TopologyNode parent() {
        return place.parent() < 0 ? null : host.node(place.parent());
    }

    /** Link to the parent, or null for a socket and for a host bridge (part of the socket's root complex). */
    public LinkSpec uplink() {
        return place.uplink();
    }

    public HostSpec.DeviceSpec spec() {
        return place.spec();
    }

    public HostSpec.GpuSpec gpu() {
        return (HostSpec.GpuSpec) place.spec();
    }

    public HostSpec.NicSpec nic() {
        return (HostSpec.NicSpec) place.spec();
    }

    /** Index of the socket (NUMA node position) this node hangs under. */
    public int socket() {
        return place.socket();
    }

    public int depth() {
        return place.depth();
    }

    /** Position in its host's build order (sockets and devices as the spec lists them), from 0. */
    public int ordinal() {
        return place.ordinal();
    }

    public List<TopologyNode> children() {
        List<Integer> children = place.children();
        return new AbstractList<>() {
            @Override
            public TopologyNode get(int k) {
                return host.node(children.get(k));
            }

            @Override
            public int size() {
                return children.size();
            }
        };
    }

    @Override
    public String toString() {
        return place.name();
    }
}
