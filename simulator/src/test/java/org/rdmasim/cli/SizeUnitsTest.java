package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.QuantityText;

/**
 * Sizes take the units from bytes to peta, decimal and binary alike (PB and PiB beside TB and TiB), so a size a
 * command prints in PiB reads back; a unit beyond them is refused at the value's file:line with the field and the
 * units taken, never a stack trace.
 */
class SizeUnitsTest {
    @TempDir
    Path dir;

    @Test
    void petabytesReadAsTheOtherUnitsDo() {
        assertEquals(1L << 50, QuantityText.bytes("1 PiB"));
        assertEquals(1L << 49, QuantityText.bytes("0.5PiB"));
        assertEquals(2_000_000_000_000_000L, QuantityText.bytes("2 PB"));
        assertEquals(1024L << 40, QuantityText.bytes("1 PiB"), "1 PiB is 1024 TiB");
        // what a command's table prints reads back to the same size
        assertEquals(3L << 50, ByteSize.parse(ByteSize.format(3L << 50).replace(".00", "")));
        // a size in bits is told what it reads as, as for the smaller units
        IllegalArgumentException bits = assertThrows(IllegalArgumentException.class, () -> QuantityText.bytes("1 Pb"));
        assertTrue(bits.getMessage().contains("write PB"), bits.getMessage());
    }

    @Test
    void aUnitBeyondPetaIsRefusedAtItsLineListingTheUnits() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, """
                name: sizes
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 EiB}
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "-q", "--out", dir.resolve("out").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:7:"), o.err());
        assertTrue(o.err().contains("size"), o.err());
        assertTrue(o.err().contains("unknown size unit 'EiB' (expected B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB)"),
                o.err());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), o.err());
    }
}
