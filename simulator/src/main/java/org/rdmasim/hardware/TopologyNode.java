package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A built element of a host's tree: socket, host bridge, PCIe switch, GPU or NIC. */
public final class TopologyNode {
    public enum Kind { SOCKET, HOST_BRIDGE, SWITCH, GPU, NIC }

    private final Kind kind;
    private final String name;
    private final TopologyNode parent;
    private final LinkSpec uplink;
    private final HostSpec.DeviceSpec spec;
    private final int socket;
    private final int depth;
    private final int ordinal;
    private final List<TopologyNode> children = new ArrayList<>();

    TopologyNode(Kind kind, String name, TopologyNode parent, LinkSpec uplink, HostSpec.DeviceSpec spec, int socket,
            int ordinal) {
        this.ordinal = ordinal;
        this.kind = kind;
        this.name = name;
        this.parent = parent;
        this.uplink = uplink;
        this.spec = spec;
        this.socket = socket;
        this.depth = parent == null ? 0 : parent.depth + 1;
        if (parent != null) {
            parent.children.add(this);
        }
    }

    public Kind kind() {
        return kind;
    }

    public String name() {
        return name;
    }

    public TopologyNode parent() {
        return parent;
    }

    /** Link to the parent, or null for a socket and for a host bridge (part of the socket's root complex). */
    public LinkSpec uplink() {
        return uplink;
    }

    public HostSpec.DeviceSpec spec() {
        return spec;
    }

    public HostSpec.GpuSpec gpu() {
        return (HostSpec.GpuSpec) spec;
    }

    public HostSpec.NicSpec nic() {
        return (HostSpec.NicSpec) spec;
    }

    /** Index of the socket (NUMA node position) this node hangs under. */
    public int socket() {
        return socket;
    }

    public int depth() {
        return depth;
    }

    /** Position in its host's build order (sockets and devices as the spec lists them), from 0. */
    public int ordinal() {
        return ordinal;
    }

    public List<TopologyNode> children() {
        return Collections.unmodifiableList(children);
    }

    @Override
    public String toString() {
        return name;
    }
}
