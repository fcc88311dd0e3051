package org.rdmasim.hardware;

import java.util.ArrayList;
import java.util.List;

/** Renders a host's GPU/NIC relations in the layout of {@code nvidia-smi topo -m}. */
public final class TopoMatrix {
    private TopoMatrix() {
    }

    public static String render(Host host) {
        List<TopologyNode> devices = new ArrayList<>(host.gpus());
        devices.addAll(host.nics());
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < host.gpus().size(); i++) {
            labels.add("GPU" + i);
        }
        for (int i = 0; i < host.nics().size(); i++) {
            labels.add("NIC" + i);
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format("%-8s", ""));
        for (String l : labels) {
            out.append(String.format("%-8s", l));
        }
        out.append("CPU Affinity    NUMA Affinity\n");
        for (int r = 0; r < devices.size(); r++) {
            TopologyNode a = devices.get(r);
            out.append(String.format("%-8s", labels.get(r)));
            for (TopologyNode b : devices) {
                PathType t = host.relation(a, b);
                String cell = t == PathType.NV ? "NV" + host.nvlinkCount(a, b) : t.name();
                out.append(String.format("%-8s", cell));
            }
            HostSpec.SocketSpec socket = host.spec().sockets().get(a.socket());
            if (a.kind() == TopologyNode.Kind.GPU) {
                String affinity = socket.cpuAffinity().isEmpty() ? "N/A" : socket.cpuAffinity();
                out.append(String.format(java.util.Locale.ROOT, "%-16s%d", affinity, socket.numaNode()));
            }
            out.append('\n');
        }
        out.append("\nLegend:\n\n");
        out.append("  X    = the device itself\n");
        out.append("  SYS  = path crosses PCIe and the link between NUMA nodes (QPI/UPI, Grace-to-Grace)\n");
        out.append("  NODE = path crosses PCIe and the fabric between host bridges of one NUMA node\n");
        out.append("  PHB  = path crosses PCIe and one PCIe host bridge (the CPU)\n");
        out.append("  PXB  = path crosses several PCIe switches, no host bridge\n");
        out.append("  PIX  = path crosses at most one PCIe switch\n");
        out.append("  NV#  = path is a bonded set of # NVLinks\n");
        if (!host.nics().isEmpty()) {
            out.append("\nNIC Legend:\n\n");
            for (int i = 0; i < host.nics().size(); i++) {
                out.append("  NIC").append(i).append(": ").append(host.nics().get(i).name()).append('\n');
            }
        }
        return out.toString();
    }
}
