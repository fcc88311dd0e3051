package org.rdmasim.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopoMatrix;
import org.rdmasim.importers.DotWriter;
import org.rdmasim.importers.HostFiles;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.ImportedHost;
import org.rdmasim.importers.HostIdentity;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.importers.nccl.NcclXmlWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim topo PRESET|FILE}: a host's GPU/NIC matrix as nvidia-smi topo -m prints it, or its tree as NCCL XML or dot. */
@Command(name = "topo", mixinStandardHelpOptions = true,
        description = {"Print a host's GPU/NIC relations in the form of 'nvidia-smi topo -m', or the host as an NCCL "
                + "topology file or a Graphviz graph.",
                "The host is a preset or a file: FILE.xml is read as NCCL topology XML (NCCL_TOPO_DUMP_FILE, or a "
                        + "cloud's published topology); any other file as the text of 'nvidia-smi topo -m', from which "
                        + "a PCIe tree reproducing every cell is inferred.",
                "Examples: rdmasim topo dgx-h100 --format nccl-xml > dgx.xml;  rdmasim topo node7-topo.txt --format dot"})
public final class TopoCommand implements Callable<Integer> {
    /** Output formats. */
    enum Format { matrix, nccl_xml, dot }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PRESET|FILE",
            description = "a preset (${COMPLETION-CANDIDATES}) or a topology file (.xml: NCCL; otherwise nvidia-smi topo -m text)",
            completionCandidates = PresetNames.class)
    String host;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "matrix",
            description = "matrix (nvidia-smi topo -m layout, the default), nccl-xml (NCCL_TOPO_FILE format) or dot (Graphviz)")
    String format;

    @Option(names = {"--gpu", "--gpu-model"}, paramLabel = "MODEL",
            description = "GPU model for an imported file that does not say (t4, a100, h100, h200, b200, gb300); default: from the file, else h100 with a warning")
    String gpu;

    @Option(names = {"--nic", "--nic-model"}, paramLabel = "MODEL",
            description = "NIC model for an imported file (cx5, cx6, cx7, cx8, efa2, efa3, efa4); default: from the file's device ids or port speed, else cx7 with a warning")
    String nic;

    @Option(names = "--cpu", paramLabel = "FAMILY",
            description = "CPU family for an imported file that does not say (e.g. intel_sapphire_rapids, amd_zen, nvidia_grace); default: from the file, else Sapphire Rapids with a warning")
    String cpu;

    @Option(names = "--host", paramLabel = "N",
            description = "for a file that holds several hosts (two trays in one dump), the one to print, from 0; default: all")
    Integer hostIndex;

    @Option(names = "--link-layer", paramLabel = "LAYER", description = "ib, roce or efa for an imported file's NICs; default ib")
    String linkLayer;

    @Override
    public Integer call() {
        Format f = switch (format.toLowerCase(java.util.Locale.ROOT)) {
            case "matrix" -> Format.matrix;
            case "nccl-xml", "nccl", "xml" -> Format.nccl_xml;
            case "dot" -> Format.dot;
            default -> throw new BadInputException("unknown --format '" + format + "' (expected matrix, nccl-xml or dot)");
        };
        java.util.List<ImportedHost> hosts = load();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < hosts.size(); i++) {
            HostSpec hostSpec = hosts.get(i).spec();
            if (hosts.size() > 1 && f != Format.nccl_xml) {
                text.append(i == 0 ? "" : "\n").append("host ").append(i).append(" of ").append(hosts.size()).append(":\n");
            }
            text.append(switch (f) {
                case matrix -> TopoMatrix.render(new Host(host, hostSpec));
                case nccl_xml -> NcclXmlWriter.write(hostSpec, hosts.get(i).identity());
                case dot -> DotWriter.write(hostSpec);
            });
        }
        spec.commandLine().getOut().print(text);
        spec.commandLine().getOut().flush();
        return Main.OK;
    }

    private java.util.List<ImportedHost> load() {
        if (Presets.exists(host)) {
            return java.util.List.of(new ImportedHost(Presets.get(host), HostIdentity.none()));
        }
        Path file = Path.of(host);
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("'" + host + "' is neither a preset (" + String.join(", ", Presets.names())
                    + ") nor a readable file");
        }
        ImportOptions options = ImportOptions.defaults();
        try {
            if (gpu != null) {
                options = options.withGpuModel(GpuModel.parse(gpu));
            }
            if (nic != null) {
                options = options.withNicModel(NicModel.parse(nic));
            }
            if (cpu != null) {
                options = options.withCpuFamily(CpuFamily.parse(cpu));
            }
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        if (linkLayer != null) {
            options = options.withLinkLayer(switch (linkLayer.toLowerCase(java.util.Locale.ROOT)) {
                case "ib", "infiniband" -> LinkLayer.INFINIBAND;
                case "roce", "ethernet" -> LinkLayer.ROCE;
                case "efa", "srd" -> LinkLayer.EFA;
                default -> throw new BadInputException("unknown --link-layer '" + linkLayer + "' (expected ib, roce or efa)");
            });
        }
        try {
            ImportResult result = org.rdmasim.importers.host.HostFileReader.importFile(file, options);
            java.util.List<ImportedHost> hosts = hostIndex == null ? result.hosts() : java.util.List.of(result.host(hostIndex));
            for (ImportWarning w : result.warnings()) {
                spec.commandLine().getErr().println("rdmasim: " + w.text());
            }
            spec.commandLine().getErr().flush();
            return hosts;
        } catch (ImportException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    /** Preset names for help and completion. */
    static final class PresetNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Presets.names().iterator();
        }
    }
}
