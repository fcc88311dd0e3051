package org.rdmasim.importers.nccl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.importers.DeviceIdentity;
import org.rdmasim.importers.HostIdentity;

/**
 * Writes a {@link HostSpec} as an NCCL topology file in the shape {@code NCCL_TOPO_DUMP_FILE} produces
 * (NVIDIA/nccl src/graph/xml.cc), so it can be fed to NCCL as {@code NCCL_TOPO_FILE} or read back by
 * {@link NcclTopologyReader}. A host read from such a file keeps what the file said of each device and
 * CPU ({@link HostIdentity}: bus ids, class, vendor and device ids, GUIDs, {@code dev} numbers, CPU
 * family and model); what no file said is made up: one bus per element in tree order, the class of the
 * NIC's link layer (0x020700 InfiniBand, 0x020000 Ethernet), the vendor and device id of its model,
 * NICs numbered {@code dev} 0, 1, ... in tree order as NCCL numbers them. Two things NCCL's own dumps
 * never contain are written so that a round trip keeps them: a host bridge becomes a {@code <pci>} of
 * class 0x060000 (NCCL treats unknown classes as plain PCI nodes), and an NVLink-C2C link becomes
 * {@code <c2c bw count="1">} with the whole bandwidth in MB/s. What the format has no place for (link
 * layer, memory sizes, relaxed ordering) is not written.
 */
public final class NcclXmlWriter {
    /** Attribute order of NCCL's dumps (xml.cc); attributes it does not know follow in name order. */
    private static final List<String> CPU_ORDER = List.of("host_hash", "numaid", "affinity", "arch", "vendor", "familyid",
            "modelid");
    private static final List<String> PCI_ORDER = List.of("busid", "class", "vendor", "device", "subsystem_vendor",
            "subsystem_device", "link_speed", "link_width");
    private static final List<String> GPU_ORDER = List.of("dev", "sm", "gcn", "arch", "rank", "gdr");
    private static final List<String> NET_ORDER = List.of("name", "dev", "speed", "port", "latency", "guid", "maxconn",
            "gdr");

    private final HostIdentity identity;
    private final StringBuilder out = new StringBuilder();
    private int bus;
    private int gpuIndex;
    private int nicIndex;

    private NcclXmlWriter(HostIdentity identity) {
        this.identity = identity;
    }

    public static String write(HostSpec host) {
        return write(host, HostIdentity.none());
    }

    /** The host, with the identity its file gave its devices and CPUs where there is one. */
    public static String write(HostSpec host, HostIdentity identity) {
        NcclXmlWriter w = new NcclXmlWriter(identity);
        w.out.append("<system version=\"1\">\n");
        for (HostSpec.SocketSpec s : host.sockets()) {
            w.socket(s, host.cpuFamily());
        }
        w.out.append("</system>\n");
        return w.out.toString();
    }

    private void socket(HostSpec.SocketSpec s, CpuFamily family) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("numaid", Integer.toString(s.numaNode()));
        NcclVocabulary.cpuMask(s.cpuAffinity()).ifPresent(m -> a.put("affinity", m));
        Map<String, String> known = identity.cpus().get(s.numaNode());
        if (known != null) {
            a.putAll(known);
        } else {
            String[] cpu = NcclVocabulary.cpuAttributes(family);
            String[] keys = {"arch", "vendor", "familyid", "modelid"};
            for (int i = 0; i < keys.length; i++) {
                if (cpu[i] != null) {
                    a.put(keys[i], cpu[i]);
                }
            }
        }
        out.append("  <cpu");
        attributes(a, CPU_ORDER);
        out.append(">\n");
        for (HostSpec.DeviceSpec d : s.devices()) {
            device(d, 2);
        }
        out.append("  </cpu>\n");
    }

    private void device(HostSpec.DeviceSpec d, int depth) {
        String pad = "  ".repeat(depth);
        if (d instanceof HostSpec.HostBridgeSpec b) {
            Map<String, String> a = new LinkedHashMap<>();
            a.put("busid", busOf(b.name(), "host-bridge-"));
            a.put("class", NcclVocabulary.HOST_BRIDGE_CLASS);
            out.append(pad).append("<pci");
            attributes(a, PCI_ORDER);
            out.append(">\n");
            b.devices().forEach(c -> device(c, depth + 1));
            out.append(pad).append("</pci>\n");
        } else if (d instanceof HostSpec.SwitchSpec s) {
            Map<String, String> a = new LinkedHashMap<>();
            a.put("busid", busOf(s.name(), "pcie-switch-"));
            a.put("class", NcclVocabulary.BRIDGE_CLASS);
            DeviceIdentity id = identity.devices().get(s.name());
            if (id != null) {
                a.putAll(id.pci());
            }
            pciOpen(pad, a, s.uplink());
            out.append(">\n");
            s.devices().forEach(c -> device(c, depth + 1));
            out.append(pad).append("</pci>\n");
        } else if (d instanceof HostSpec.GpuSpec g) {
            DeviceIdentity id = identity.devices().get(g.name());
            Map<String, String> a = new LinkedHashMap<>();
            a.put("busid", nextBus());
            a.put("class", NcclVocabulary.GPU_CLASS);
            if (id == null) {
                a.put("vendor", NcclVocabulary.NVIDIA_VENDOR);
                a.put("device", NcclVocabulary.deviceId(g.model()));
            } else {
                a.putAll(id.pci()); // what the file said, and nothing it did not
            }
            int dev = gpuIndex++;
            boolean c2c = g.link().type() == LinkSpec.LinkType.C2C;
            pciOpen(pad, a, g.link());
            if (id != null && id.device().isEmpty() && g.nvlinks() == 0 && !c2c) {
                out.append("/>\n"); // the file gave this GPU no <gpu> element (Azure's, AWS's files); neither do we
                return;
            }
            out.append(">\n");
            Map<String, String> ga = new LinkedHashMap<>();
            ga.put("dev", Integer.toString(dev));
            ga.put("sm", Integer.toString(NcclVocabulary.sm(g.model())));
            ga.put("rank", Integer.toString(dev));
            ga.put("gdr", "1");
            if (id != null) {
                ga.putAll(id.device());
            }
            out.append(pad).append("  <gpu");
            attributes(ga, GPU_ORDER);
            if (g.nvlinks() == 0 && !c2c) {
                out.append("/>\n");
            } else {
                out.append(">\n");
                if (g.nvlinks() > 0) {
                    out.append(pad).append("    <nvlink target=\"").append(NcclVocabulary.NVSWITCH_TARGET)
                            .append("\" count=\"").append(g.nvlinks()).append("\" tclass=\"")
                            .append(NcclVocabulary.NVSWITCH_CLASS).append("\"/>\n");
                }
                if (c2c) {
                    out.append(pad).append("    <c2c bw=\"")
                            .append(String.format(Locale.ROOT, "%.0f", g.link().bytesPerSecond() / 1e6))
                            .append("\" count=\"1\"/>\n");
                }
                out.append(pad).append("  </gpu>\n");
            }
            out.append(pad).append("</pci>\n");
        } else if (d instanceof HostSpec.NicSpec n) {
            DeviceIdentity id = identity.devices().get(n.name());
            boolean bare = id != null && id.pci().isEmpty(); // a <nic> the file put straight under <cpu>
            Map<String, String> a = new LinkedHashMap<>();
            a.put("busid", nextBus());
            // an EFA function is an Amazon Ethernet-class device (1d0f:efaN), as hwloc and NCCL dump it
            a.put("class", n.linkLayer() == LinkLayer.ROCE || n.linkLayer() == LinkLayer.EFA
                    ? NcclVocabulary.ETHERNET_NIC_CLASS : NcclVocabulary.IB_NIC_CLASS);
            if (id == null) {
                a.put("vendor", NcclVocabulary.vendorOf(n.model()));
                String device = deviceId(n.model());
                if (device != null) {
                    a.put("device", device);
                }
            } else {
                a.putAll(id.pci()); // what the file said, and nothing it did not
            }
            String inner = bare ? pad : pad + "  ";
            int dev = nicIndex++;
            if (!bare) {
                pciOpen(pad, a, n.link());
                if (id != null && id.device().isEmpty()) {
                    out.append("/>\n"); // a NIC the file listed by its slot only, with no <nic>/<net>
                    return;
                }
                out.append(">\n");
            }
            Map<String, String> na = new LinkedHashMap<>();
            na.put("name", n.name());
            na.put("dev", Integer.toString(dev));
            na.put("speed", String.format(Locale.ROOT, "%.0f", n.lineRateGbps() * 1000));
            na.put("port", Integer.toString(n.port()));
            na.put("latency", "0.000000");
            na.put("gdr", "1");
            if (id != null) {
                na.putAll(id.device());
            }
            out.append(inner).append("<nic>\n");
            out.append(inner).append("  <net");
            attributes(na, NET_ORDER);
            out.append("/>\n");
            out.append(inner).append("</nic>\n");
            if (!bare) {
                out.append(pad).append("</pci>\n");
            }
        }
    }

    /** PCI device ids of the ConnectX generations (PCI ID repository); null for models without one. */
    private static String deviceId(NicModel m) {
        if (m.isEfa()) {
            return String.format(java.util.Locale.ROOT, "0x%04x", m.efaDeviceId());
        }
        return switch (m.name()) {
            case "CX5" -> "0x1017";
            case "CX6" -> "0x101b";
            case "CX7" -> "0x1021";
            case "CX8" -> "0x1023";
            default -> null;
        };
    }

    private void pciOpen(String pad, Map<String, String> a, LinkSpec link) {
        if (link.type() == LinkSpec.LinkType.PCIE) {
            a.put("link_speed", NcclVocabulary.linkSpeed(link.gen()));
            a.put("link_width", Integer.toString(link.width()));
        }
        out.append(pad).append("<pci");
        attributes(a, PCI_ORDER);
    }

    private void attributes(Map<String, String> a, List<String> order) {
        List<String> keys = new ArrayList<>();
        for (String k : order) {
            if (a.containsKey(k)) {
                keys.add(k);
            }
        }
        new TreeMap<>(a).keySet().stream().filter(k -> !order.contains(k)).forEach(keys::add);
        for (String k : keys) {
            out.append(' ').append(k).append("=\"").append(escape(a.get(k))).append('"');
        }
    }

    /** The bus id a reader put in a switch's or bridge's name ({@code pcie-switch-0000:18:00.0}), else a new one. */
    private String busOf(String name, String prefix) {
        if (name.startsWith(prefix)) {
            String b = name.substring(prefix.length());
            if (b.matches("[0-9a-fA-F]{1,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-9a-fA-F]")) {
                return b;
            }
        }
        return nextBus();
    }

    private String nextBus() {
        bus++;
        return String.format(Locale.ROOT, "%04x:%02x:00.0", bus >> 8, bus & 0xff);
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace("\"", "&quot;");
    }
}
