package org.rdmasim.importers.nccl;

import java.util.Locale;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkSpec;

/**
 * Writes a {@link HostSpec} as an NCCL topology file in the shape {@code NCCL_TOPO_DUMP_FILE} produces
 * (NVIDIA/nccl src/graph/xml.cc), so it can be fed to NCCL as {@code NCCL_TOPO_FILE} or read back by
 * {@link NcclTopologyReader}. Bus ids are made up (one bus per element, in tree order). Two things
 * NCCL's own dumps never contain are written so that a round trip keeps them: a host bridge becomes a
 * {@code <pci>} of class 0x060000 (NCCL treats unknown classes as plain PCI nodes), and an
 * NVLink-C2C link becomes {@code <c2c bw count="1">} with the whole bandwidth in MB/s. What the format
 * has no place for (link layer, memory sizes, relaxed ordering) is not written.
 */
public final class NcclXmlWriter {
    private final StringBuilder out = new StringBuilder();
    private int bus;
    private int gpuIndex;

    private NcclXmlWriter() {
    }

    public static String write(HostSpec host) {
        NcclXmlWriter w = new NcclXmlWriter();
        w.out.append("<system version=\"1\">\n");
        for (HostSpec.SocketSpec s : host.sockets()) {
            w.socket(s, host.cpuFamily());
        }
        w.out.append("</system>\n");
        return w.out.toString();
    }

    private void socket(HostSpec.SocketSpec s, CpuFamily family) {
        String[] cpu = NcclVocabulary.cpuAttributes(family);
        out.append("  <cpu numaid=\"").append(s.numaNode()).append('"');
        NcclVocabulary.cpuMask(s.cpuAffinity()).ifPresent(m -> out.append(" affinity=\"").append(m).append('"'));
        attr("arch", cpu[0]);
        attr("vendor", cpu[1]);
        attr("familyid", cpu[2]);
        attr("modelid", cpu[3]);
        out.append(">\n");
        for (HostSpec.DeviceSpec d : s.devices()) {
            device(d, 2);
        }
        out.append("  </cpu>\n");
    }

    private void device(HostSpec.DeviceSpec d, int depth) {
        String pad = "  ".repeat(depth);
        if (d instanceof HostSpec.HostBridgeSpec b) {
            out.append(pad).append("<pci busid=\"").append(nextBus()).append("\" class=\"")
                    .append(NcclVocabulary.HOST_BRIDGE_CLASS).append("\">\n");
            b.devices().forEach(c -> device(c, depth + 1));
            out.append(pad).append("</pci>\n");
        } else if (d instanceof HostSpec.SwitchSpec s) {
            pciOpen(pad, NcclVocabulary.BRIDGE_CLASS, s.uplink());
            out.append(">\n");
            s.devices().forEach(c -> device(c, depth + 1));
            out.append(pad).append("</pci>\n");
        } else if (d instanceof HostSpec.GpuSpec g) {
            pciOpen(pad, NcclVocabulary.GPU_CLASS, g.link());
            out.append(" vendor=\"0x10de\" device=\"").append(NcclVocabulary.deviceId(g.model())).append("\">\n");
            int dev = gpuIndex++;
            out.append(pad).append("  <gpu dev=\"").append(dev).append("\" sm=\"").append(NcclVocabulary.sm(g.model()))
                    .append("\" rank=\"").append(dev).append("\" gdr=\"1\"");
            boolean c2c = g.link().type() == LinkSpec.LinkType.C2C;
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
            pciOpen(pad, NcclVocabulary.IB_NIC_CLASS, n.link());
            out.append(" vendor=\"0x15b3\">\n");
            out.append(pad).append("  <nic>\n");
            out.append(pad).append("    <net name=\"").append(escape(n.name())).append("\" dev=\"").append(devIndex(n.name()))
                    .append("\" speed=\"").append(String.format(Locale.ROOT, "%.0f", n.lineRateGbps() * 1000))
                    .append("\" port=\"").append(n.port()).append("\" latency=\"0.000000\" gdr=\"1\"/>\n");
            out.append(pad).append("  </nic>\n");
            out.append(pad).append("</pci>\n");
        }
    }

    private void pciOpen(String pad, String pciClass, LinkSpec link) {
        out.append(pad).append("<pci busid=\"").append(nextBus()).append("\" class=\"").append(pciClass).append('"');
        if (link.type() == LinkSpec.LinkType.PCIE) {
            out.append(" link_speed=\"").append(NcclVocabulary.linkSpeed(link.gen())).append("\" link_width=\"")
                    .append(link.width()).append('"');
        }
    }

    private String nextBus() {
        bus++;
        return String.format(Locale.ROOT, "%04x:%02x:00.0", bus >> 8, bus & 0xff);
    }

    private static String devIndex(String nicName) {
        int u = nicName.lastIndexOf('_');
        String tail = u >= 0 ? nicName.substring(u + 1) : "";
        return tail.matches("\\d+") ? tail : "0";
    }

    private void attr(String name, String value) {
        if (value != null) {
            out.append(' ').append(name).append("=\"").append(escape(value)).append('"');
        }
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace("\"", "&quot;");
    }
}
