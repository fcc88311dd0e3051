package org.rdmasim.importers;

import java.util.List;

/**
 * What a topology file holds: one host, or several when a dump covers several machines (two GB300
 * trays), and the warnings the import raised, in file order.
 */
public record ImportResult(String source, List<ImportedHost> hosts, List<ImportWarning> warnings) {
    public ImportResult {
        hosts = List.copyOf(hosts);
        warnings = List.copyOf(warnings);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("an import result holds at least one host");
        }
    }

    /** The one host of the file, or an error saying how many it holds and how to pick one. */
    public ImportedHost single() {
        if (hosts.size() != 1) {
            throw new ImportException(source, 1, "the file holds " + hosts.size() + " hosts",
                    "one host per file, or a host index (scenario field 'host: N', topo --host N) from 0 to " + (hosts.size() - 1));
        }
        return hosts.get(0);
    }

    /** Host {@code index} of the file (0-based). */
    public ImportedHost host(int index) {
        if (index < 0 || index >= hosts.size()) {
            throw new ImportException(source, 1, "host index " + index + " asked for",
                    "an index from 0 to " + (hosts.size() - 1) + " (the file holds " + hosts.size() + " hosts)");
        }
        return hosts.get(index);
    }
}
