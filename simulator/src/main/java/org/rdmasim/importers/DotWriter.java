package org.rdmasim.importers;

import java.util.Locale;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Units;

/**
 * A host's tree as a Graphviz {@code dot} graph: sockets, host bridges, PCIe switches, GPUs and NICs as
 * nodes, each edge labelled with the link it stands for ("PCIe Gen5 x16", "C2C 3600 Gbps (450 GB/s)"), and the
 * link between sockets drawn dashed. Render with {@code dot -Tsvg}.
 */
public final class DotWriter {
    private final StringBuilder out = new StringBuilder();

    private DotWriter() {
    }

    public static String write(HostSpec host) {
        DotWriter w = new DotWriter();
        w.out.append("graph ").append(quote(host.model())).append(" {\n");
        w.out.append("  node [fontname=\"Helvetica\", fontsize=10];\n");
        w.out.append("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        for (int s = 0; s < host.sockets().size(); s++) {
            HostSpec.SocketSpec socket = host.sockets().get(s);
            String id = "CPU" + s;
            String label = id + "\\nNUMA " + socket.numaNode()
                    + (socket.cpuAffinity().isEmpty() ? "" : "\\nCPUs " + socket.cpuAffinity());
            w.node(id, label, "box3d", "#dddddd");
            for (HostSpec.DeviceSpec d : socket.devices()) {
                w.device(id, d);
            }
        }
        // the bandwidth the host runs with: its profile's figure where the preset took it from one
        double interSocket = host.interSocket(CalibrationProfile.forHost(host));
        for (int a = 0; a < host.sockets().size(); a++) {
            for (int b = a + 1; b < host.sockets().size(); b++) {
                w.out.append("  ").append(quote("CPU" + a)).append(" -- ").append(quote("CPU" + b))
                        .append(" [style=dashed, label=")
                        .append(quote(String.format(Locale.ROOT, "inter-socket %.0f Gbps (%.0f GB/s)",
                                Units.bytesPerSecondToGbps(interSocket), interSocket / 1e9)))
                        .append("];\n");
            }
        }
        w.out.append("}\n");
        return w.out.toString();
    }

    private void device(String parent, HostSpec.DeviceSpec d) {
        if (d instanceof HostSpec.HostBridgeSpec b) {
            node(b.name(), b.name(), "box", "#eeeeee");
            edge(parent, b.name(), "root complex");
            b.devices().forEach(c -> device(b.name(), c));
        } else if (d instanceof HostSpec.SwitchSpec s) {
            node(s.name(), s.name(), "diamond", "#ffffff");
            edge(parent, s.name(), s.uplink().describe());
            s.devices().forEach(c -> device(s.name(), c));
        } else if (d instanceof HostSpec.GpuSpec g) {
            String label = g.name() + "\\n" + g.model().product() + (g.nvlinks() > 0 ? "\\nNV" + g.nvlinks() : "");
            node(g.name(), label, "box", "#c6e5b3");
            edge(parent, g.name(), g.link().describe());
        } else if (d instanceof HostSpec.NicSpec n) {
            String label = String.format(Locale.ROOT, "%s\\n%s %.0f Gbps %s", n.name(), n.model().product(),
                    n.lineRateGbps(), n.linkLayer() == org.rdmasim.hardware.LinkLayer.INFINIBAND ? "IB" : "RoCE")
                    + (n.compute() ? "" : "\\nstorage");
            node(n.name(), label, "ellipse", "#b3cde5");
            edge(parent, n.name(), n.link().describe());
        }
    }

    private void node(String id, String label, String shape, String fill) {
        out.append("  ").append(quote(id)).append(" [label=").append(quote(label)).append(", shape=").append(shape)
                .append(", style=filled, fillcolor=").append(quote(fill)).append("];\n");
    }

    private void edge(String from, String to, String label) {
        out.append("  ").append(quote(from)).append(" -- ").append(quote(to)).append(" [label=").append(quote(label))
                .append("];\n");
    }

    /** A dot string literal; labels carry their own {@code \n} escapes, so only quotes are escaped. */
    private static String quote(String s) {
        return "\"" + s.replace("\"", "\\\"") + "\"";
    }
}
