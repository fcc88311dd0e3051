package org.rdmasim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.QuantityText;
import org.rdmasim.hardware.Units;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.smi.SmiTopologyReader;

/** Reads one entry of {@code hosts:}: a preset (optionally adjusted), an imported topology file, or an inline description. */
final class HostReader {
    private HostReader() {
    }

    static HostSpec read(YamlTree v) {
        return read(v, new ArrayList<>());
    }

    /** The host, adding to {@code warnings} what an importer assumed or could not honour (file:line: ...). */
    static HostSpec read(YamlTree v, List<String> warnings) {
        HostSpec spec = readHost(v.has("profile") ? v.without(Set.of("profile")) : v, warnings);
        if (!v.has("profile")) {
            return spec;
        }
        YamlTree p = v.get("profile");
        if (!CalibrationProfile.NAMES.contains(p.text())) {
            throw p.error("unknown calibration profile '" + p.text() + "' (expected one of "
                    + String.join(", ", CalibrationProfile.NAMES) + ")"
                    + YamlTree.suggestion(p.text().trim(), CalibrationProfile.NAMES));
        }
        return spec.withProfile(p.text());
    }

    private static HostSpec readHost(YamlTree v, List<String> warnings) {
        if (v.has("nccl-topo") || v.has("nvidia-smi")) {
            return adjustNics(imported(v, warnings), v);
        }
        if (v.has("preset")) {
            // count, prefix and profile are read before (HostsSection, read above): listed so a misspelling of them is named
            v.onlyFields(Set.of("preset", "linkLayer", "nicModel", "lineRate", "nvlinks", "generic", "count", "prefix", "profile"));
            YamlTree p = v.get("preset");
            String name = p.text();
            if (!Presets.exists(name)) {
                throw p.error("unknown preset '" + name + "'" + YamlTree.suggestion(name, Presets.names())
                        + " (expected one of " + String.join(", ", Presets.names()) + ")");
            }
            HostSpec spec = name.equalsIgnoreCase("generic") && v.has("generic")
                    ? Presets.generic(generic(v.get("generic"))) : Presets.get(name);
            return withNvlinks(adjustNics(spec, v), v);
        }
        if (v.has("sockets")) {
            return inline(v);
        }
        String needs = "a host needs 'preset: NAME' (one of " + String.join(", ", Presets.names())
                + ") or an inline description with 'sockets'";
        if (v.isMap()) {
            // a misspelt kind ('prest') is named at its line, as a misspelt field of a known kind is
            for (Map.Entry<String, YamlTree> e : v.entries().entrySet()) {
                String hint = YamlTree.suggestion(e.getKey(), List.of("preset", "sockets", "nccl-topo", "nvidia-smi"));
                if (!hint.isEmpty()) {
                    throw e.getValue().error("unknown field '" + e.getKey() + "'" + hint + "; " + needs);
                }
            }
        }
        throw v.error(needs);
    }

    /**
     * {@code {nccl-topo: FILE.xml}} or {@code {nvidia-smi: FILE.txt}}, resolved against the scenario's
     * directory; {@code gpuModel} and {@code linkLayer} fill what the file does not say.
     */
    private static HostSpec imported(YamlTree v, List<String> warnings) {
        v.onlyFields(Set.of("nccl-topo", "nvidia-smi", "gpuModel", "linkLayer", "nicModel", "nics", "lineRate", "cpu", "host"));
        if (v.has("nccl-topo") && v.has("nvidia-smi")) {
            throw v.error("a host is read from one file: 'nccl-topo' or 'nvidia-smi', not both");
        }
        YamlTree f = v.has("nccl-topo") ? v.get("nccl-topo") : v.get("nvidia-smi");
        java.nio.file.Path file = FileScope.resolve(f);
        ImportOptions options = ImportOptions.defaults();
        if (v.has("gpuModel")) {
            options = options.withGpuModel(parse(v.get("gpuModel"), GpuModel::parse, GPU_WORDS));
        }
        if (v.has("linkLayer")) {
            options = options.withLinkLayer(linkLayer(v.get("linkLayer")));
        }
        if (v.has("nicModel")) {
            // Told here so the importer does not warn of a default that adjustNics replaces anyway.
            options = options.withNicModel(parse(v.get("nicModel"), NicModel::parse, NIC_WORDS));
        }
        if (v.has("cpu")) {
            options = options.withCpuFamily(parse(v.get("cpu"), CpuFamily::parse, CPU_WORDS));
        }
        if (v.has("nics")) {
            // per device: "mlx5_1=storage, mlx5_2=cx6:storage" (NicChoices)
            options = options.withNics(parse(v.get("nics"), org.rdmasim.importers.NicChoices::parse));
        }
        try {
            ImportResult result = v.has("nccl-topo") ? NcclTopologyReader.importFile(file, options)
                    : SmiTopologyReader.importFile(file, options);
            HostSpec spec = v.has("host") ? result.host(positiveInt(v.get("host"), 0)).spec() : result.single().spec();
            for (ImportWarning w : result.warnings()) {
                warnings.add(w.source() + ":" + w.line() + ": " + w.message());
            }
            return spec;
        } catch (ImportException e) {
            throw f.error("cannot import the host: " + e.getMessage());
        }
    }

    private static Presets.GenericHost generic(YamlTree g) {
        g.onlyFields(Set.of("sockets", "gpusPerSocket", "nicsPerGpu", "gpu", "nic", "linkLayer", "relation", "cpu"));
        Presets.GenericHost d = Presets.GenericHost.defaults();
        int sockets = g.has("sockets") ? positiveInt(g.get("sockets"), 1) : d.sockets();
        int gps = g.has("gpusPerSocket") ? positiveInt(g.get("gpusPerSocket"), 0) : d.gpusPerSocket();
        int npg = g.has("nicsPerGpu") ? positiveInt(g.get("nicsPerGpu"), 0) : d.nicsPerGpu();
        GpuModel gpu = g.has("gpu") ? parse(g.get("gpu"), GpuModel::parse, GPU_WORDS) : d.gpu();
        NicModel nic = g.has("nic") ? parse(g.get("nic"), NicModel::parse, NIC_WORDS) : d.nic();
        LinkLayer layer = g.has("linkLayer") ? linkLayer(g.get("linkLayer")) : d.linkLayer();
        PathType relation = d.gpuNicRelation();
        if (g.has("relation")) {
            YamlTree r = g.get("relation");
            try {
                relation = PathType.valueOf(r.text().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw r.notOneOf("PIX, PXB, PHB or NODE", RELATIONS);
            }
            if (relation == PathType.X || relation == PathType.NV || relation == PathType.SYS) {
                throw r.notOneOf("PIX, PXB, PHB or NODE", RELATIONS);
            }
        }
        CpuFamily cpu = g.has("cpu") ? parse(g.get("cpu"), CpuFamily::parse, CPU_WORDS) : d.cpu();
        return new Presets.GenericHost(sockets, gps, npg, gpu, nic, layer, relation, cpu, d.memoryBandwidth(), d.interSocket());
    }

    private static int positiveInt(YamlTree v, int min) {
        long n = v.integer();
        if (n < min || n > 4096) {
            throw v.error("expected a whole number from " + min + " to 4096, got " + n);
        }
        return (int) n;
    }

    private static <T> T parse(YamlTree v, java.util.function.Function<String, T> parser) {
        return parse(v, parser, List.of());
    }

    /** As {@link #parse(YamlTree, java.util.function.Function)}, a refusal naming the nearest of {@code words}. */
    private static <T> T parse(YamlTree v, java.util.function.Function<String, T> parser, List<String> words) {
        try {
            return parser.apply(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error(e.getMessage() + YamlTree.suggestion(v.text().trim(), words));
        }
    }

    /** The words a GPU model, NIC model and CPU family are written as, for "did you mean". */
    private static final List<String> GPU_WORDS = words(GpuModel.values());
    private static final List<String> NIC_WORDS = words(NicModel.values());
    private static final List<String> CPU_WORDS = words(CpuFamily.values());

    private static List<String> words(Enum<?>[] values) {
        return java.util.Arrays.stream(values).map(m -> m.name().toLowerCase(java.util.Locale.ROOT)).toList();
    }

    /** The GPU-NIC relations a generic host may name (nvidia-smi topo's words). */
    private static final List<String> RELATIONS = List.of("PIX", "PXB", "PHB", "NODE");

    private static LinkLayer linkLayer(YamlTree v) {
        return switch (v.text().toLowerCase(java.util.Locale.ROOT)) {
            case "ib", "infiniband" -> LinkLayer.INFINIBAND;
            case "roce", "ethernet" -> LinkLayer.ROCE;
            case "efa", "srd" -> LinkLayer.EFA;
            default -> throw v.notOneOf("infiniband, roce or efa", List.of("infiniband", "roce", "efa"));
        };
    }

    /** Applies host-wide NIC adjustments (link layer, model, line rate) to every compute NIC of a preset. */
    private static HostSpec adjustNics(HostSpec spec, YamlTree v) {
        if (!v.has("linkLayer") && !v.has("nicModel") && !v.has("lineRate")) {
            return spec;
        }
        LinkLayer layer = v.has("linkLayer") ? linkLayer(v.get("linkLayer")) : null;
        NicModel model = v.has("nicModel") ? parse(v.get("nicModel"), NicModel::parse, NIC_WORDS) : null;
        Double rate = v.has("lineRate") ? Parameters.LINE_RATE.fromYaml(v.get("lineRate")) * 8 / 1e9 : null;
        // the spec as it is (its inter-socket figure keeps the profile key it came from), NICs adjusted
        return spec.withDevices(d -> adjusted(d, layer, model, rate, v));
    }

    /**
     * A preset's GPUs with {@code nvlinks} NVLinks each, when the host says so: an H800 or A800 host is its
     * H100 or A100 preset with 8 links a GPU (NVLink is all that differs that rdmasim models).
     */
    private static HostSpec withNvlinks(HostSpec spec, YamlTree v) {
        if (!v.has("nvlinks")) {
            return spec;
        }
        int links = Parameters.NVLINKS.fromYaml(v.get("nvlinks")).intValue();
        return spec.withModel(spec.model() + ", " + links + " NVLinks a GPU").withDevices(d -> d instanceof HostSpec.GpuSpec g
                ? new HostSpec.GpuSpec(g.name(), g.model(), g.link(), g.hbmBytes(), g.bar1Bytes(),
                        nvlinksFit(v.get("nvlinks"), g.model(), links)) : d);
    }

    /** {@code links} NVLinks on a GPU of {@code model}: refused at {@code at} when the part has fewer ports. */
    private static int nvlinksFit(YamlTree at, GpuModel model, int links) {
        if (links > model.nvlinkPorts()) {
            throw at.error(model.nvlinkPorts() == 0 ? "a " + model.product() + " has no NVLink (nvlinks: 0)"
                    : "a " + model.product() + " has " + model.nvlinkPorts() + " NVLinks at most, got " + links);
        }
        return links;
    }

    private static HostSpec.DeviceSpec adjusted(HostSpec.DeviceSpec d, LinkLayer layer, NicModel model, Double rate,
            YamlTree host) {
        if (!(d instanceof HostSpec.NicSpec n) || !n.compute()) {
            return d; // the adjustments describe the compute fabric; storage ports keep their own
        }
        NicModel m = model != null ? model : n.model();
        LinkSpec link = model != null ? m.hostLink() : n.link();
        double r = rate != null ? lineRateFits(host.get("lineRate"), m, link, rate)
                : (model != null ? m.lineRateGbps() : n.lineRateGbps());
        return new HostSpec.NicSpec(n.name(), m, layer != null ? layer : n.linkLayer(), link, n.port(), r,
                n.relaxedOrdering());
    }

    /**
     * {@code gbps}, the line rate written at {@code at}, for a NIC of {@code model} behind {@code link}:
     * refused above what such a port carries ({@link NicModel#portCeiling}), where a rate written in bytes
     * a second ("400 GBps", 3200 Gbps) that is a valid rate once read as bits gets "did you mean". A lower
     * rate stays: a port trained at 200G on a 400G NIC is a real setup.
     */
    private static double lineRateFits(YamlTree at, NicModel model, LinkSpec link, double gbps) {
        NicModel.PortCeiling ceiling = model.portCeiling(link);
        // relative slack of 1e-9: "400 Gbps" read back through bytes a second must not trip a 400 Gbps port
        if (gbps <= ceiling.gbps() * (1 + 1e-9)) {
            return gbps;
        }
        String written = at.text().strip();
        String hint = QuantityText.countsBytes(written) && gbps / 8 <= ceiling.gbps()
                ? "; did you mean " + Units.number(gbps / 8) + " Gbps? ('" + written + "' counts bytes a second, "
                        + "8 bits each)"
                : "";
        throw at.error(Units.number(gbps) + " Gbps ('" + written + "') is more than " + ceiling.why() + hint
                + " (a lower rate, such as a port trained at 200G, is allowed)");
    }

    private static HostSpec inline(YamlTree v) {
        v.onlyFields(Set.of("model", "cpu", "interSocket", "sockets"));
        CpuFamily cpu = v.has("cpu") ? parse(v.get("cpu"), CpuFamily::parse, CPU_WORDS) : CpuFamily.OTHER;
        List<YamlTree> socketItems = v.get("sockets").items();
        if (socketItems.isEmpty()) {
            throw v.get("sockets").error("a host needs at least one socket");
        }
        double inter = 0;
        if (v.has("interSocket")) {
            inter = Parameters.INTER_SOCKET.fromYaml(v.get("interSocket"));
        } else if (socketItems.size() > 1) {
            throw v.error("a host with several sockets needs 'interSocket' (per-direction bandwidth, e.g. '128 GB/s')");
        }
        List<HostSpec.SocketSpec> sockets = new ArrayList<>();
        for (int i = 0; i < socketItems.size(); i++) {
            YamlTree s = socketItems.get(i);
            s.onlyFields(Set.of("memoryBandwidth", "memory", "cpuAffinity", "devices"));
            double bw = Parameters.MEMORY_BANDWIDTH.fromYamlOrDefault(s);
            long mem = s.has("memory") ? Quantities.bytes(s.get("memory")) : 1L << 40;
            List<HostSpec.DeviceSpec> devices = s.has("devices") ? devices(s.get("devices")) : List.of();
            sockets.add(new HostSpec.SocketSpec(i, bw, mem, s.string("cpuAffinity", ""), devices));
        }
        return new HostSpec(v.string("model", "inline host"), cpu, inter, sockets, v.file() + ":" + v.line());
    }

    private static List<HostSpec.DeviceSpec> devices(YamlTree list) {
        List<HostSpec.DeviceSpec> out = new ArrayList<>();
        for (YamlTree d : list.items()) {
            if (d.has("switch")) {
                d.onlyFields(Set.of("switch", "uplink", "devices"));
                LinkSpec up = d.has("uplink") ? link(d.get("uplink")) : LinkSpec.pcie(PcieGen.GEN5, 16);
                out.add(new HostSpec.SwitchSpec(d.get("switch").text(), up,
                        d.has("devices") ? devices(d.get("devices")) : List.of()));
            } else if (d.has("hostBridge")) {
                d.onlyFields(Set.of("hostBridge", "devices"));
                out.add(new HostSpec.HostBridgeSpec(d.get("hostBridge").text(),
                        d.has("devices") ? devices(d.get("devices")) : List.of()));
            } else if (d.has("gpu")) {
                d.onlyFields(Set.of("gpu", "model", "link", "hbm", "bar1", "nvlinks"));
                GpuModel m = d.has("model") ? parse(d.get("model"), GpuModel::parse, GPU_WORDS) : GpuModel.H100;
                LinkSpec link = d.has("link") ? link(d.get("link")) : m.hostLink();
                long hbm = d.has("hbm") ? Quantities.bytes(d.get("hbm")) : m.hbmBytes();
                long bar1 = d.has("bar1") ? Quantities.bytes(d.get("bar1")) : m.bar1Bytes();
                int nv = d.has("nvlinks") ? nvlinksFit(d.get("nvlinks"), m, Parameters.NVLINKS.fromYaml(d.get("nvlinks")).intValue()) : 0;
                out.add(new HostSpec.GpuSpec(d.get("gpu").text(), m, link, hbm, bar1, nv));
            } else if (d.has("nic")) {
                d.onlyFields(Set.of("nic", "model", "linkLayer", "lineRate", "link", "port", "relaxedOrdering"));
                NicModel m = d.has("model") ? parse(d.get("model"), NicModel::parse, NIC_WORDS) : NicModel.CX7;
                LinkLayer layer = d.has("linkLayer") ? linkLayer(d.get("linkLayer")) : LinkLayer.INFINIBAND;
                LinkSpec link = d.has("link") ? link(d.get("link")) : m.hostLink();
                double rate = d.has("lineRate")
                        ? lineRateFits(d.get("lineRate"), m, link, Parameters.LINE_RATE.fromYaml(d.get("lineRate")) * 8 / 1e9)
                        : m.lineRateGbps();
                int port = d.has("port") ? positiveInt(d.get("port"), 1) : 1;
                boolean ro = !d.has("relaxedOrdering") || d.get("relaxedOrdering").bool();
                out.add(new HostSpec.NicSpec(d.get("nic").text(), m, layer, link, port, rate, ro));
            } else {
                throw d.error("a device needs one of 'switch', 'hostBridge', 'gpu' or 'nic'");
            }
        }
        return out;
    }

    private static LinkSpec link(YamlTree v) {
        if (v.has("c2c")) {
            v.onlyFields(Set.of("c2c"));
            return LinkSpec.c2c(Parameters.C2C.fromYaml(v.get("c2c")));
        }
        v.onlyFields(Set.of("gen", "width"));
        YamlTree g = v.get("gen");
        PcieGen gen = parse(g, t -> PcieGen.fromNumber(Integer.parseInt(t.trim())));
        YamlTree w = v.get("width");
        long width = w.integer();
        if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16 && width != 32) {
            throw w.error("PCIe width must be 1, 2, 4, 8, 16 or 32 lanes, got " + width);
        }
        return LinkSpec.pcie(gen, (int) width);
    }
}
