package org.rdmasim.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
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
import org.rdmasim.importers.nccl.NcclXmlWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim topo PRESET|FILE}: a host's GPU/NIC matrix as nvidia-smi topo -m prints it, or its tree as NCCL XML or dot. */
@Command(name = "topo", mixinStandardHelpOptions = true,
        description = {"Print a host's GPU/NIC relations as 'nvidia-smi topo -m', NCCL topology XML or a graph.",
                "",
                "The host is a preset or a file: FILE.xml is read as NCCL topology XML (NCCL_TOPO_DUMP_FILE, or a "
                        + "cloud's published topology); any other file as the text of 'nvidia-smi topo -m', from which "
                        + "a PCIe tree reproducing every cell is inferred. --format dot prints a Graphviz graph.",
                "Examples:",
                "  rdmasim topo dgx-h100 --format nccl-xml > dgx.xml",
                "  rdmasim topo node7-topo.txt --format dot",
                "",
                "Exit codes: 0 printed, 2 bad input (the message names the file and line), " + Main.INTERNAL_ERROR_WORDS + "."})
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

    @picocli.CommandLine.Mixin
    HostFileOptions hostFile = new HostFileOptions();

    @Option(names = "--host", paramLabel = "N",
            description = "for a file that holds several hosts (two trays in one dump), the one to print, from 0; default: all")
    Integer hostIndex;


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
            hostFile.refuseWithPreset(host);
            if (hostIndex != null) {
                throw new BadInputException("--host picks one host of a file that holds several; preset '" + host
                        + "' is one host: leave --host out");
            }
            return java.util.List.of(new ImportedHost(Presets.get(host), HostIdentity.none()));
        }
        Path file = Path.of(host);
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("'" + host + "' is neither a preset (" + String.join(", ", Presets.names())
                    + ") nor a readable file" + org.rdmasim.scenario.YamlTree.suggestion(host, Presets.names()));
        }
        ImportOptions options = hostFile.options();
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
