package org.rdmasim.importers.nccl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.importers.HostFiles;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.SocketDefaults;
import org.rdmasim.importers.SwitchUplinks;

/**
 * Reads an NCCL topology file (what {@code NCCL_TOPO_DUMP_FILE} writes, or what clouds publish for
 * {@code NCCL_TOPO_FILE}) into a {@link HostSpec}.
 *
 * <ul>
 *   <li>each {@code <cpu>} is a socket (NUMA node {@code numaid}, CPUs from the {@code affinity} mask);</li>
 *   <li>a {@code <pci>} bridge (class 0x0604xx) is a PCIe switch whose uplink is the bridge's own
 *       {@code link_speed}/{@code link_width}; a device whose {@code <pci>} parent is the {@code <cpu>}
 *       hangs directly off the socket (NCCL skips root ports, so its files cannot tell PHB from NODE);</li>
 *   <li>a GPU (class 0x03xxxx) takes its model from {@code <gpu sm>}, its NVLink count from the sum of
 *       its {@code <nvlink count>}, and an NVLink-C2C link from {@code <c2c bw count>} (MB/s per link);</li>
 *   <li>a NIC (class 0x02xxxx, or a {@code <nic>} right under {@code <cpu>}) becomes one port per
 *       {@code <net>}: name, {@code speed} in Mb/s as line rate, ConnectX generation from that speed.</li>
 * </ul>
 *
 * Files written by hand or for VMs leave things out; the gaps are filled as NCCL fills them where it
 * has a rule (no class: judged by the children, as the GB10 dumps need; width 0 means x16) and
 * otherwise from the slot's PCIe generation, documented in {@link NcclVocabulary}. Elements and
 * attributes not used here are ignored; a value that is needed and cannot be read is an error naming
 * the line.
 */
public final class NcclTopologyReader {
    private final String source;
    private final ImportOptions options;
    private final Set<String> takenNames = new HashSet<>();
    private final Set<String> namedNics = new HashSet<>();
    private int gpuCount;

    private NcclTopologyReader(String source, ImportOptions options) {
        this.source = source;
        this.options = options;
    }

    public static HostSpec read(Path file, ImportOptions options) {
        String text = HostFiles.readText(file, "a readable NCCL topology XML file");
        return read(text, file.toString(), options);
    }

    public static HostSpec read(String text, String source, ImportOptions options) {
        XmlElement root = XmlLoader.load(text, source);
        return new NcclTopologyReader(source, options).host(root);
    }

    /** Four times the fastest port shipping (ConnectX-8, 800 Gb/s): a larger speed is a damaged file. */
    private static final double MAX_PORT_GBPS = 3200;

    private HostSpec host(XmlElement root) {
        if (!root.tag().equals("system")) {
            throw error(root, "the document starts with <" + root.tag() + ">", "<system version=\"1\">");
        }
        List<XmlElement> cpus = root.children("cpu");
        if (cpus.isEmpty()) {
            throw error(root, "<system> holds no <cpu>", "one <cpu numaid=...> per NUMA node holding its PCI tree");
        }
        for (XmlElement c : root.children()) {
            if (Set.of("pci", "nic", "net", "gpu").contains(c.tag())) {
                // NCCL attaches devices to the <cpu> that holds their PCI tree; anything else here would be dropped.
                throw error(c, "<" + c.tag() + "> directly under <system>", "<" + c.tag() + "> inside a <cpu>'s PCI tree");
            }
        }
        collectNicNames(root);
        CpuFamily family = options.cpuFamily();
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        Set<Integer> numaIds = new HashSet<>();
        for (int i = 0; i < cpus.size(); i++) {
            XmlElement cpu = cpus.get(i);
            int numa = cpu.has("numaid") ? integer(cpu, "numaid") : i;
            if (!numaIds.add(numa)) {
                throw error(cpu, "a second <cpu> with numaid " + numa, "one <cpu> per NUMA node");
            }
            String affinity = "";
            if (cpu.has("affinity")) {
                try {
                    affinity = NcclVocabulary.cpuList(cpu.attr("affinity"));
                } catch (IllegalArgumentException e) {
                    throw error(cpu, e.getMessage(), "a cpumask such as \"ffffffff,ffff0000,00000000\"");
                }
            }
            if (family == null) {
                family = NcclVocabulary.cpuFamily(cpu.attr("arch"), cpu.attr("vendor"), cpu.attr("familyid"),
                        cpu.attr("modelid"));
            }
            SocketDefaults d = SocketDefaults.of(family);
            sockets.add(new HostSpec.SocketSpec(numa, d.memoryBandwidth(), d.memoryBytes(), affinity, devices(cpu)));
        }
        SocketDefaults d = SocketDefaults.of(family);
        Path name = Path.of(source).getFileName();
        return new HostSpec("imported from " + (name == null ? source : name), family, d.interSocket(), sockets,
                source);
    }

    private void collectNicNames(XmlElement e) {
        if (e.tag().equals("net") && e.has("name")) {
            if (!namedNics.add(e.attr("name"))) {
                throw error(e, "a second <net> named " + e.attr("name"), "each NIC port to have its own name");
            }
        }
        e.children().forEach(this::collectNicNames);
    }

    private List<HostSpec.DeviceSpec> devices(XmlElement parent) {
        List<HostSpec.DeviceSpec> out = new ArrayList<>();
        for (XmlElement c : parent.children()) {
            if (c.tag().equals("pci")) {
                out.addAll(pci(c));
            } else if (c.tag().equals("nic")) {
                out.addAll(nics(c, Optional.empty()));
            }
        }
        return out;
    }

    private List<HostSpec.DeviceSpec> pci(XmlElement e) {
        NcclVocabulary.PciRole role;
        if (e.has("class")) {
            role = NcclVocabulary.role(e.attr("class"));
        } else if (!e.children("gpu").isEmpty()) {
            role = NcclVocabulary.PciRole.GPU;
        } else if (!e.children("nic").isEmpty()) {
            role = NcclVocabulary.PciRole.NIC;
        } else {
            role = NcclVocabulary.PciRole.OTHER;
        }
        Optional<LinkSpec> link = link(e);
        switch (role) {
            case GPU:
                return List.of(gpu(e, link));
            case NIC:
                List<XmlElement> nic = e.children("nic");
                return nic.isEmpty() ? List.of(nic(null, e, link)) : nics(nic.get(0), link);
            case HOST_BRIDGE: {
                List<HostSpec.DeviceSpec> below = devices(e);
                return below.isEmpty() ? List.of() : List.of(new HostSpec.HostBridgeSpec(name("host-bridge", e), below));
            }
            case NVSWITCH:
                return List.of();
            default: {
                // Bridges, and like NCCL any other class that has children: a PCIe switch.
                List<HostSpec.DeviceSpec> below = devices(e);
                if (below.isEmpty()) {
                    return List.of();
                }
                LinkSpec uplink = link.or(() -> Optional.ofNullable(options.switchUplink()))
                        .orElseGet(() -> SwitchUplinks.fastestBelow(below));
                return List.of(new HostSpec.SwitchSpec(name("pcie-switch", e), uplink, below));
            }
        }
    }

    private HostSpec.GpuSpec gpu(XmlElement pci, Optional<LinkSpec> pciLink) {
        List<XmlElement> gpus = pci.children("gpu");
        XmlElement g = gpus.isEmpty() ? null : gpus.get(0);
        GpuModel model = options.gpuModel();
        if (model == null && g != null && g.has("sm")) {
            int sm = integer(g, "sm");
            model = NcclVocabulary.gpuModel(sm, pci.attr("device"))
                    .orElseThrow(() -> error(g, "GPU with sm " + sm + " is not modelled",
                            "sm 75 (T4), 80 (A100), 90 (H100/H200), 100 (B200) or 103 (B300)"));
        }
        if (model == null) {
            model = NcclVocabulary.gpuModel(pci.attr("device"))
                    .orElse(pciLink.map(l -> NcclVocabulary.gpuModel(l.gen())).orElse(GpuModel.H100));
        }
        int nvlinks = 0;
        LinkSpec c2c = null;
        if (g != null) {
            for (XmlElement nv : g.children("nvlink")) {
                nvlinks += nv.has("count") ? integer(nv, "count") : 1;
            }
            for (XmlElement c : g.children("c2c")) {
                double perLink = number(c, "bw");
                int count = c.has("count") ? integer(c, "count") : 1;
                if (!(perLink > 0) || count < 1) {
                    throw error(c, "<c2c bw=\"" + c.attr("bw") + "\" count=\"" + c.attr("count") + "\">",
                            "a positive bandwidth in MB/s per link and a count of at least 1");
                }
                c2c = LinkSpec.c2c(perLink * count * 1e6);
            }
        }
        LinkSpec link = c2c != null ? c2c : pciLink.orElse(model.hostLink());
        String name = "GPU" + gpuCount++;
        takenNames.add(name);
        return new HostSpec.GpuSpec(name, model, link, model.hbmBytes(), model.bar1Bytes(), nvlinks);
    }

    private List<HostSpec.DeviceSpec> nics(XmlElement nic, Optional<LinkSpec> pciLink) {
        List<XmlElement> nets = nic.children("net");
        if (nets.isEmpty()) {
            return List.of(nic(null, nic, pciLink));
        }
        List<HostSpec.DeviceSpec> out = new ArrayList<>();
        for (XmlElement net : nets) {
            out.add(nic(net, nic, pciLink));
        }
        return out;
    }

    private HostSpec.NicSpec nic(XmlElement net, XmlElement at, Optional<LinkSpec> pciLink) {
        NicModel model = options.nicModel();
        double gbps = 0;
        if (net != null && net.has("speed")) {
            // NCCL writes the port speed in Mb/s (ibv port attributes: NDR = 400000).
            gbps = number(net, "speed") / 1000.0;
            if (!(gbps > 0) || gbps > MAX_PORT_GBPS) {
                throw error(net, "speed " + net.attr("speed"), "a port speed in Mb/s from 1 to " + (long) (MAX_PORT_GBPS * 1000)
                        + ", e.g. 400000");
            }
            if (model == null) {
                model = NcclVocabulary.nicModel(gbps);
            }
        }
        if (model == null) {
            model = pciLink.map(l -> NcclVocabulary.nicModel(l.gen())).orElse(NicModel.CX7);
        }
        if (gbps == 0) {
            gbps = model.lineRateGbps();
        }
        int port = net != null && net.has("port") ? integer(net, "port") : 1;
        String name = net != null && net.has("name") ? net.attr("name") : nextNicName();
        takenNames.add(name);
        return new HostSpec.NicSpec(name, model, options.linkLayer(), pciLink.orElse(model.hostLink()), port, gbps, true);
    }

    /** mlx5_N for NICs the file does not name, skipping names the file uses. */
    private String nextNicName() {
        for (int k = 0;; k++) {
            String n = "mlx5_" + k;
            if (!namedNics.contains(n) && !takenNames.contains(n)) {
                return n;
            }
        }
    }

    private Optional<LinkSpec> link(XmlElement e) {
        if (!e.has("link_speed")) {
            return Optional.empty();
        }
        Optional<PcieGen> gen;
        try {
            gen = NcclVocabulary.generation(e.attr("link_speed"));
        } catch (IllegalArgumentException ex) {
            throw error(e, ex.getMessage(), "a PCIe speed such as \"32.0 GT/s PCIe\" or \"16 GT/s\"");
        }
        int width = e.has("link_width") ? integer(e, "link_width") : 0;
        if (width < 0 || width > 32) {
            throw error(e, "link_width " + width, "a lane count from 0 (unknown) to 32");
        }
        // NCCL: "if (width == 0) width = 16" (src/graph/topo.cc); VMs often report 0.
        int lanes = width == 0 ? 16 : width;
        return gen.map(g -> LinkSpec.pcie(g, lanes));
    }

    private String name(String prefix, XmlElement e) {
        String base = e.has("busid") ? prefix + "-" + e.attr("busid") : prefix;
        String n = base;
        for (int k = 1; !takenNames.add(n); k++) {
            n = base + "-" + k;
        }
        return n;
    }

    private int integer(XmlElement e, String attr) {
        String v = e.attr(attr);
        try {
            return Integer.decode(v.trim());
        } catch (NumberFormatException | NullPointerException ex) {
            throw error(e, "<" + e.tag() + " " + attr + "=\"" + v + "\">", "a whole number for " + attr);
        }
    }

    private double number(XmlElement e, String attr) {
        String v = e.attr(attr);
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException | NullPointerException ex) {
            throw error(e, "<" + e.tag() + " " + attr + "=\"" + v + "\">", "a number for " + attr);
        }
    }

    private ImportException error(XmlElement e, String problem, String expected) {
        return new ImportException(source, e.line(), problem, expected);
    }
}
