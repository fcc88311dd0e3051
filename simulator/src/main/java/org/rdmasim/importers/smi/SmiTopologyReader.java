package org.rdmasim.importers.smi;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.HostFiles;
import org.rdmasim.importers.HostIdentity;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.ImportedHost;

/**
 * Turns the text of {@code nvidia-smi topo -m} into a {@link HostSpec} whose matrix, rendered by
 * {@link org.rdmasim.hardware.TopoMatrix}, has the same cells. The text gives relations, not
 * hardware: the GPU model comes from {@link ImportOptions}, else from a product name printed around the
 * matrix, else H100; the NIC model from the options, else ConnectX-7; each default is an
 * {@link ImportWarning}. NUMA nodes and CPU lists come from the affinity columns.
 */
public final class SmiTopologyReader {
    private SmiTopologyReader() {
    }

    public static HostSpec read(Path file, ImportOptions options) {
        return importFile(file, options).single().spec();
    }

    public static HostSpec read(String text, String source, ImportOptions options) {
        return importText(text, source, options).single().spec();
    }

    public static ImportResult importFile(Path file, ImportOptions options) {
        String text = HostFiles.readText(file, "a readable text file with the output of nvidia-smi topo -m");
        return importText(text, file.toString(), options);
    }

    public static ImportResult importText(String text, String source, ImportOptions options) {
        List<ImportWarning> warnings = new ArrayList<>();
        ParsedMatrix matrix = MatrixTextParser.parse(text, source, warnings);
        HostSpec spec = options.nics().apply(PcieTreeInference.infer(matrix, options, warnings), source,
                matrix.headerLine(), warnings);
        return new ImportResult(source, List.of(new ImportedHost(spec, HostIdentity.none())), warnings);
    }
}
