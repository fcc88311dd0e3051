package org.rdmasim.importers;

import java.nio.file.Path;
import java.util.Locale;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.smi.SmiTopologyReader;

/** Reads a host from a file, choosing the format by name: {@code .xml} is NCCL topology XML, anything else nvidia-smi text. */
public final class HostFiles {
    private HostFiles() {
    }

    /** The text of an input file, or an import error naming it and the kind of file {@code expected}. */
    public static String readText(Path file, String expected) {
        try {
            return InputLimits.read(file);
        } catch (InputLimits.LimitException e) {
            throw new ImportException(file.toString(), e.line(), e.getMessage(), expected);
        }
    }

    public static boolean isNcclXml(Path file) {
        return file.getFileName() != null && file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".xml");
    }

    public static HostSpec read(Path file, ImportOptions options) {
        return isNcclXml(file) ? NcclTopologyReader.read(file, options) : SmiTopologyReader.read(file, options);
    }
}
