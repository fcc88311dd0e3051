package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Presets;

class ImportResultTest {
    private static final ImportedHost A = new ImportedHost(Presets.get("dgx-h100"), null);
    private static final ImportedHost B = new ImportedHost(Presets.get("gb200-tray"), null);

    @Test
    void hostIndexesRunFromZeroToOneBelowTheCount() {
        ImportResult two = new ImportResult("trays.xml", List.of(A, B), List.of());
        assertSame(A, two.host(0));
        assertSame(B, two.host(1));
        ImportException e = assertThrows(ImportException.class, () -> two.host(2));
        assertEquals("trays.xml:1: host index 2 asked for, expected an index from 0 to 1 (the file holds 2 hosts)",
                e.getMessage());
        assertEquals("trays.xml", e.source());
        assertEquals(1, e.line());
        assertEquals("host index 2 asked for, expected an index from 0 to 1 (the file holds 2 hosts)", e.detail());
        e = assertThrows(ImportException.class, () -> two.host(-1));
        assertEquals("trays.xml:1: host index -1 asked for, expected an index from 0 to 1 (the file holds 2 hosts)",
                e.getMessage());
    }

    @Test
    void singleNamesTheHighestIndex() {
        ImportResult three = new ImportResult("rack.xml", List.of(A, B, A), List.of());
        ImportException e = assertThrows(ImportException.class, three::single);
        assertEquals("rack.xml:1: the file holds 3 hosts, expected one host per file, or a host index "
                + "(scenario field 'host: N', topo --host N) from 0 to 2", e.getMessage());
        assertSame(B, new ImportResult("one.xml", List.of(B), List.of()).single());
    }

    @Test
    void aWarningPrintsAsTheCommandsShowIt() {
        ImportWarning w = new ImportWarning("topo.txt", 4, "GPU2 has no NIC");
        assertEquals("topo.txt:4: warning: GPU2 has no NIC", w.toString());
    }
}
