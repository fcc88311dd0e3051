package org.rdmasim.importers.smi;

import java.nio.file.Path;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.HostFiles;
import org.rdmasim.importers.ImportOptions;

/**
 * Turns the text of {@code nvidia-smi topo -m} into a {@link HostSpec} whose matrix, rendered by
 * {@link org.rdmasim.hardware.TopoMatrix}, has the same cells. The text gives relations, not
 * hardware: GPU and NIC models and link speeds come from {@link ImportOptions} (H100 and ConnectX-7
 * unless told), NUMA nodes and CPU lists from the affinity columns.
 */
public final class SmiTopologyReader {
    private SmiTopologyReader() {
    }

    public static HostSpec read(Path file, ImportOptions options) {
        String text = HostFiles.readText(file, "a readable text file with the output of nvidia-smi topo -m");
        return read(text, file.toString(), options);
    }

    public static HostSpec read(String text, String source, ImportOptions options) {
        return PcieTreeInference.infer(MatrixTextParser.parse(text, source), options);
    }
}
