package org.rdmasim.importers.nccl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.importers.DeviceIdentity;
import org.rdmasim.importers.HostFiles;
import org.rdmasim.importers.HostIdentity;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.ImportedHost;
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
 * otherwise from the slot's PCIe generation, documented in {@link NcclVocabulary}; every such gap
 * filled is an {@link ImportWarning} naming its line. Elements and attributes not used here are
 * ignored, but the identity of each device (its {@code <pci>} and {@code <gpu>}/{@code <net>}
 * attributes) and CPU is kept in a {@link HostIdentity} for {@link NcclXmlWriter}. A value that is
 * needed and cannot be read is an error naming the line.
 *
 * <p>A dump may cover several hosts (the dumps of two GB300 trays put side by side): several
 * {@code <system>} roots, or a {@code <cpu>} whose {@code numaid} was already seen, start another host.
 *
 * <p>Why one class of this size: it is the grammar of one file format, element by element, with a warning
 * for every default it assumes; split by element, the rules that tie a {@code <pci>} to the {@code
 * <gpu>} or {@code <nic>} under it would be scattered.
 */
public final class NcclTopologyReader {
    private final String source;
    private final ImportOptions options;
    private final List<ImportWarning> warnings;
    private final Set<String> takenNames = new HashSet<>();
    private final Set<String> namedNics = new HashSet<>();
    private final Map<String, DeviceIdentity> identities = new LinkedHashMap<>();
    private final Map<Integer, Map<String, String>> cpuIdentities = new LinkedHashMap<>();
    private int gpuCount;
    private int nicCount;

    private NcclTopologyReader(String source, ImportOptions options, List<ImportWarning> warnings) {
        this.source = source;
        this.options = options;
        this.warnings = warnings;
    }

    /** The one host of a file (an error naming the count if it holds several); warnings are dropped. */
    public static HostSpec read(Path file, ImportOptions options) {
        return importFile(file, options).single().spec();
    }

    /** The one host of a text (an error naming the count if it holds several); warnings are dropped. */
    public static HostSpec read(String text, String source, ImportOptions options) {
        return importText(text, source, options).single().spec();
    }

    public static ImportResult importFile(Path file, ImportOptions options) {
        String text = HostFiles.readText(file, "a readable NCCL topology XML file");
        return importText(text, file.toString(), options);
    }

    private static final Pattern SYSTEM_START = Pattern.compile("<system[\\s>/]");
    private static final Pattern XML_DECLARATION = Pattern.compile("<\\?xml[^?]*\\?>");
    /** The element that holds several {@code <system>} roots put side by side; never in a real file. */
    private static final String DUMPS = "rdmasim-dumps";

    public static ImportResult importText(String text, String source, ImportOptions options) {
        List<ImportWarning> warnings = new ArrayList<>();
        XmlElement root = XmlLoader.load(sideBySide(text), source);
        List<XmlElement> systems = root.tag().equals(DUMPS) ? root.children() : List.of(root);
        if (systems.isEmpty()) {
            throw new ImportException(source, 1, "no <system> element found", "<system version=\"1\">");
        }
        List<ImportedHost> hosts = new ArrayList<>();
        for (XmlElement system : systems) {
            if (!system.tag().equals("system")) {
                throw new ImportException(source, system.line(), "the document starts with <" + system.tag() + ">",
                        "<system version=\"1\">");
            }
            for (List<XmlElement> cpus : hostsOf(system, source)) {
                NcclTopologyReader r = new NcclTopologyReader(source, options, warnings);
                ImportedHost h = r.host(system, cpus);
                hosts.add(new ImportedHost(options.nics().apply(h.spec(), source, system.line(), warnings), h.identity()));
            }
        }
        warnings.sort(java.util.Comparator.comparingInt(ImportWarning::line)); // file order; a switch's note follows its children
        if (hosts.size() > 1) {
            warnings.add(0, new ImportWarning(source, 1, "the file holds " + hosts.size()
                    + " hosts (a <system>, or a <cpu> whose numaid was already seen, starts the next one)"));
        }
        return new ImportResult(source, hosts, warnings);
    }

    /** Text whose several {@code <system>} roots are wrapped in one element, keeping every line number. */
    private static String sideBySide(String text) {
        Matcher m = SYSTEM_START.matcher(text);
        int roots = 0;
        while (m.find() && roots < 2) {
            roots++;
        }
        if (roots < 2) {
            return text;
        }
        // Declarations may only open a document: blank them (same length, same lines) and wrap the rest.
        StringBuilder out = new StringBuilder();
        Matcher d = XML_DECLARATION.matcher(text);
        int at = 0;
        while (d.find()) {
            out.append(text, at, d.start()).append(" ".repeat(d.end() - d.start()));
            at = d.end();
        }
        out.append(text.substring(at));
        return "<" + DUMPS + ">" + out + "</" + DUMPS + ">";
    }

    /** The {@code <cpu>}s of a {@code <system>}, one list per host: a repeated numaid starts the next host. */
    private static List<List<XmlElement>> hostsOf(XmlElement system, String source) {
        List<List<XmlElement>> out = new ArrayList<>();
        List<XmlElement> current = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (XmlElement cpu : system.children("cpu")) {
            String numa = cpu.has("numaid") ? cpu.attr("numaid").trim() : "#" + current.size();
            if (!seen.add(numa)) {
                out.add(current);
                current = new ArrayList<>();
                seen.clear();
                seen.add(numa);
            }
            current.add(cpu);
        }
        out.add(current);
        return out;
    }

    /** Four times the fastest port shipping (ConnectX-8, 800 Gb/s): a larger speed is a damaged file. */
    private static final double MAX_PORT_GBPS = 3200;

    private ImportedHost host(XmlElement root, List<XmlElement> cpus) {
        if (cpus.isEmpty()) {
            throw error(root, "<system> holds no <cpu>", "one <cpu numaid=...> per NUMA node holding its PCI tree");
        }
        for (XmlElement c : root.children()) {
            if (Set.of("pci", "nic", "net", "gpu").contains(c.tag())) {
                // NCCL attaches devices to the <cpu> that holds their PCI tree; anything else here would be dropped.
                throw error(c, "<" + c.tag() + "> directly under <system>", "<" + c.tag() + "> inside a <cpu>'s PCI tree");
            }
        }
        cpus.forEach(this::collectNicNames);
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
            Map<String, String> cpuIdentity = new LinkedHashMap<>(cpu.attributes());
            cpuIdentity.remove("numaid");
            cpuIdentity.remove("affinity");
            cpuIdentities.put(numa, cpuIdentity);
            if (family == null) {
                if (!cpu.has("arch") && !cpu.has("vendor")) {
                    family = CpuFamily.INTEL_SAPPHIRE_RAPIDS;
                    warn(cpu, "<cpu> names no arch or vendor: CPU family taken as Sapphire Rapids "
                            + "(its memory and socket-link figures); pass the CPU family to choose another");
                } else {
                    family = NcclVocabulary.cpuFamily(cpu.attr("arch"), cpu.attr("vendor"), cpu.attr("familyid"),
                            cpu.attr("modelid"));
                    if (family == CpuFamily.INTEL_OTHER || family == CpuFamily.OTHER) {
                        // name only what the file states: arch="x86_64" alone has no vendor, family or model
                        StringBuilder id = new StringBuilder("CPU");
                        for (String a : new String[] {"arch", "vendor", "familyid", "modelid"}) {
                            if (cpu.has(a)) {
                                id.append(' ').append(a).append('=').append(cpu.attr(a));
                            }
                        }
                        warn(cpu, id + " is not one the simulator tells apart: its memory and "
                                + "socket-link figures are Sapphire Rapids'");
                    }
                }
            }
            SocketDefaults d = SocketDefaults.of(family);
            sockets.add(new HostSpec.SocketSpec(numa, d.memoryBandwidth(), d.memoryBytes(), affinity, devices(cpu)));
        }
        if (gpuCount == 0 && nicCount == 0) {
            throw error(cpus.get(0), "the host holds no GPU and no NIC",
                    "a <pci> tree with GPUs (class 0x03...) and NICs (class 0x02...) under its <cpu>s");
        }
        if (gpuCount == 0) {
            warn(cpus.get(0), "the host holds no GPU (a PCI skeleton, such as a cloud's NCCL_TOPO_FILE that lets "
                    + "NCCL add the GPUs it finds): only its NICs and switches are imported");
        }
        if (nicCount == 0) {
            warn(cpus.get(0), "the host holds no NIC: it cannot send or receive over the network");
        }
        SocketDefaults d = SocketDefaults.of(family);
        Path name = Path.of(source).getFileName();
        HostSpec spec = new HostSpec("imported from " + (name == null ? source : name), family, d.interSocket(), sockets,
                source);
        return new ImportedHost(spec, new HostIdentity(cpuIdentities, identities));
    }

    private void warn(XmlElement e, String message) {
        warnings.add(new ImportWarning(source, e.line(), message));
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
                out.addAll(nics(null, c, Optional.empty()));
            }
        }
        return out;
    }

    private List<HostSpec.DeviceSpec> pci(XmlElement e) {
        NcclVocabulary.PciRole role;
        if (e.has("class")) {
            role = NcclVocabulary.role(e.attr("class"), e.attr("vendor"));
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
                if (!e.children("pci").isEmpty()) {
                    // A GPU class with a PCI tree below is not a GPU NCCL would list; keep what hangs below.
                    warn(e, "a <pci> of GPU class " + e.attr("class") + " holds other <pci> elements: read as a bridge");
                    List<HostSpec.DeviceSpec> below = devices(e);
                    return below.isEmpty() ? List.of() : List.of(new HostSpec.SwitchSpec(name("pcie-switch", e),
                            link.orElseGet(() -> SwitchUplinks.fastestBelow(below)), below));
                }
                return List.of(gpu(e, link));
            case NIC:
                List<XmlElement> nic = e.children("nic");
                return nic.isEmpty() ? List.of(nic(e, null, e, link)) : nics(e, nic.get(0), link);
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
                String name = name("pcie-switch", e);
                if (link.isEmpty() && options.switchUplink() == null) {
                    warn(e, "PCIe switch " + (e.has("busid") ? e.attr("busid") + " " : "") + noLink(e)
                            + ": its uplink taken as the fastest link below it, " + describe(uplink));
                }
                identities.put(name, identity(e, null));
                return List.of(new HostSpec.SwitchSpec(name, uplink, below));
            }
        }
    }

    private HostSpec.GpuSpec gpu(XmlElement pci, Optional<LinkSpec> pciLink) {
        List<XmlElement> gpus = pci.children("gpu");
        XmlElement g = gpus.isEmpty() ? null : gpus.get(0);
        GpuModel model = options.gpuModel();
        boolean amd = NcclVocabulary.AMD_VENDOR.equalsIgnoreCase(String.valueOf(pci.attr("vendor")).trim())
                || (g != null && g.has("gcn"));
        if (model == null && amd) {
            model = GpuModel.H100;
            warn(g != null ? g : pci, "AMD GPU" + (g != null && g.has("gcn") ? " " + g.attr("gcn") : "")
                    + " (device " + pci.attr("device") + ") is not modelled: its memory and PCIe figures are "
                    + "H100's; pass --gpu-model (scenario: gpuModel) to choose");
        }
        if (model == null && g != null && g.has("sm")) {
            int sm = integer(g, "sm");
            model = NcclVocabulary.gpuModel(sm, pci.attr("device"))
                    .orElseThrow(() -> error(g, "GPU with sm " + sm + " is not modelled",
                            "sm 75 (T4), 80 (A100), 90 (H100/H200), 100 (B200) or 103 (B300), or a model given "
                                    + "with --gpu-model (scenario: gpuModel)"));
        }
        if (model == null) {
            Optional<GpuModel> byId = NcclVocabulary.gpuModel(pci.attr("device"));
            if (byId.isPresent()) {
                model = byId.get();
            } else if (pciLink.isPresent()) {
                model = NcclVocabulary.gpuModel(pciLink.get().gen());
                warn(pci, "the GPU names no sm or known device id: taken as " + model.product() + " from its "
                        + NcclVocabulary.linkSpeed(pciLink.get().gen()) + " slot");
            } else {
                model = GpuModel.H100;
                warn(pci, "the GPU names no sm, known device id or link speed: taken as " + model.product());
            }
        }
        int nvlinks = 0;
        LinkSpec c2c = null;
        if (g != null) {
            for (XmlElement nv : g.children("nvlink")) {
                if (nv.has("target") && pci.has("busid") && nv.attr("target").trim().equalsIgnoreCase(pci.attr("busid").trim())) {
                    // Azure's ncv4-topo.xml: an entry naming the GPU itself joins it to no other GPU.
                    warn(nv, "<nvlink> targets its own GPU " + pci.attr("busid") + ": not a link to another GPU, ignored");
                    continue;
                }
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
        if (c2c == null && pciLink.isEmpty()) {
            warn(pci, "the GPU " + noLink(pci) + ": its link taken as " + model.product() + "'s " + describe(link));
        }
        String name = "GPU" + gpuCount++;
        takenNames.add(name);
        identities.put(name, identity(pci, g));
        return new HostSpec.GpuSpec(name, model, link, model.hbmBytes(), model.bar1Bytes(), nvlinks);
    }

    private List<HostSpec.DeviceSpec> nics(XmlElement pci, XmlElement nic, Optional<LinkSpec> pciLink) {
        List<XmlElement> nets = nic.children("net");
        if (nets.isEmpty()) {
            return List.of(nic(pci, null, nic, pciLink));
        }
        List<HostSpec.DeviceSpec> out = new ArrayList<>();
        for (XmlElement net : nets) {
            out.add(nic(pci, net, nic, pciLink));
        }
        return out;
    }

    private HostSpec.NicSpec nic(XmlElement pci, XmlElement net, XmlElement at, Optional<LinkSpec> pciLink) {
        XmlElement where = net != null ? net : at;
        String vendor = pci != null ? pci.attr("vendor") : null;
        String device = pci != null ? pci.attr("device") : null;
        double gbps = 0;
        if (net != null && net.has("speed")) {
            // NCCL writes the port speed in Mb/s (ibv port attributes: NDR = 400000).
            gbps = number(net, "speed") / 1000.0;
            if (!(gbps > 0) || gbps > MAX_PORT_GBPS) {
                throw error(net, "speed " + net.attr("speed"), "a port speed in Mb/s from 1 to " + (long) (MAX_PORT_GBPS * 1000)
                        + ", e.g. 400000");
            }
        }
        String name = net != null && net.has("name") ? net.attr("name") : nextNicName();
        NicModel model = options.nicModel();
        if (model == null) {
            model = modelFromFile(vendor, device, gbps, name, where, pciLink);
        }
        if (gbps == 0) {
            gbps = model.lineRateGbps();
            warn(where, "NIC " + name + " gives no port speed: line rate taken as " + fmt(gbps) + " Gb/s ("
                    + model.product() + ")");
        }
        int port = net != null && net.has("port") ? integer(net, "port") : 1;
        takenNames.add(name);
        nicCount++;
        identities.put(name, identity(pci, net));
        if (pciLink.isEmpty()) {
            warn(pci != null ? pci : where, "NIC " + name + " " + (pci != null ? noLink(pci) : "has no <pci> to give its link")
                    + ": its link taken as " + model.product() + "'s " + describe(model.hostLink()));
        }
        // EFA speaks SRD over its own link layer, whatever the import's default for other NICs
        LinkLayer layer = model.isEfa() ? LinkLayer.EFA : options.linkLayer();
        return new HostSpec.NicSpec(name, model, layer, pciLink.orElse(model.hostLink()), port, gbps, true);
    }

    /** EFA device names: the kernel's efa_N, and rdmapBUSsSLOT as rdma-core's udev rules rename them on AWS AMIs. */
    private static final Pattern EFA_NAME = Pattern.compile("efa_\\d+|rdmap\\d+s\\d+f?\\d*");

    /** The NIC model the file's ids, else its port speed, else its slot point to, warning for each guess. */
    private NicModel modelFromFile(String vendor, String device, double gbps, String name, XmlElement where,
            Optional<LinkSpec> pciLink) {
        Optional<String> product = NcclVocabulary.nicProduct(vendor, device);
        if (product.isPresent()) {
            // Every product nicProduct names has a model: ConnectX-5 to -8 by name, any EFA generation by
            // its speed (or the first EFA model).
            return NcclVocabulary.nicModelFor(product.get(), gbps).orElseThrow(() -> new IllegalStateException(
                    "no NIC model for product " + product.get()));
        }
        String efaHint = (vendor == null && EFA_NAME.matcher(name).matches())
                ? " (its name is an EFA device's, but the file gives no PCI vendor to tell)" : "";
        if (gbps > 0) {
            NicModel m = NcclVocabulary.nicModel(gbps);
            warn(where, "NIC " + name + " names no known vendor and device id: taken as " + m.product() + ", the "
                    + "slowest ConnectX reaching its " + fmt(gbps) + " Gb/s" + efaHint);
            return m;
        }
        NicModel m = pciLink.map(l -> NcclVocabulary.nicModel(l.gen())).orElse(NicModel.CX7);
        warn(where, "NIC " + name + " names no known vendor and device id and no speed: taken as " + m.product()
                + (pciLink.isPresent() ? " from its " + NcclVocabulary.linkSpeed(pciLink.get().gen()) + " slot" : "")
                + efaHint);
        return m;
    }

    /** Why a {@code <pci>} gives no link to use: no link_speed, or one below Gen3 (VMs' virtual bridges) or unknown. */
    private static String noLink(XmlElement pci) {
        return pci.has("link_speed") ? "gives link_speed '" + pci.attr("link_speed") + "', below PCIe Gen3 or unknown"
                : "gives no link_speed";
    }

    private static String describe(LinkSpec l) {
        return l.type() == LinkSpec.LinkType.PCIE ? NcclVocabulary.linkSpeed(l.gen()) + " x" + l.width() : l.toString();
    }

    private static String fmt(double gbps) {
        return gbps == Math.rint(gbps) ? Long.toString((long) gbps) : Double.toString(gbps);
    }

    /** The attributes a device's elements carry, minus what the host's values already hold (links, nvlinks). */
    private static DeviceIdentity identity(XmlElement pci, XmlElement device) {
        Map<String, String> p = new LinkedHashMap<>();
        if (pci != null) {
            p.putAll(pci.attributes());
            p.remove("link_speed");
            p.remove("link_width");
        }
        Map<String, String> d = new HashMap<>();
        if (device != null) {
            d.putAll(device.attributes());
            d.remove("name");
            d.remove("speed");
            d.remove("port");
        }
        return new DeviceIdentity(p, d);
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
        if (width == 0 && gen.isPresent()) {
            warn(e, "link_width " + (e.has("link_width") ? "0" : "missing") + " read as x16, as NCCL does");
        }
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
