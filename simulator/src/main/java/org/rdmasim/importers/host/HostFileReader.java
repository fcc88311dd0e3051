package org.rdmasim.importers.host;

import java.nio.file.Path;
import java.util.Locale;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.smi.SmiTopologyReader;

/**
 * Reads a host from a file, choosing the format by name: {@code .xml} is NCCL topology XML, anything
 * else {@code nvidia-smi topo -m} text. It sits above both readers, so they never depend on it.
 */
public final class HostFileReader {
    private HostFileReader() {
    }

    public static boolean isNcclXml(Path file) {
        return file.getFileName() != null && file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".xml");
    }

    /** Every host of the file, with the warnings the import raised. */
    public static ImportResult importFile(Path file, ImportOptions options) {
        return isNcclXml(file) ? NcclTopologyReader.importFile(file, options) : SmiTopologyReader.importFile(file, options);
    }

    public static HostSpec read(Path file, ImportOptions options) {
        return importFile(file, options).single().spec();
    }
}
