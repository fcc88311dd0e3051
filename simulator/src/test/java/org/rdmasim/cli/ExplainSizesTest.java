package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.QuantityText;

/** {@code explain} shows each size in the unit the scenario wrote it in (README, Outputs), not as raw bytes. */
class ExplainSizesTest {
    @TempDir
    Path dir;

    @Test
    void explainWritesSizesInTheirOwnUnit() throws Exception {
        Path scenario = Files.writeString(dir.resolve("sizes.yaml"), """
                name: sizes
                hosts:
                  source: {preset: dgx-h100}
                  receiver: {preset: dgx-h100}
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 4 GiB}
                    - {from: "source:GPU1", to: "receiver:GPU1", size: 16 GiB}
                    - {from: "source:GPU2", to: "receiver:GPU2", size: 512 MiB}
                    - {from: "source:GPU3", to: "receiver:GPU3", size: 1.5 GB}
                    - {from: "source:GPU4", to: "receiver:GPU4", size: 16 GB}
                """);
        var o = CliTestSupport.run("explain", scenario.toString(), "--transfers", "5");
        assertEquals(0, o.code(), o.err());
        java.util.List<String> sizes = java.util.List.of("4 GiB", "16 GiB", "512 MiB", "1.5 GB", "16 GB");
        for (int i = 0; i < sizes.size(); i++) {
            assertTrue(o.out().contains("into receiver:GPU" + i + ", " + sizes.get(i) + "\n"), sizes.get(i) + " in:\n" + o.out());
            assertTrue(o.out().contains("line-rate floor: " + sizes.get(i) + " over"), sizes.get(i));
        }
        assertTrue(!o.out().matches("(?s).*\\d{7,} B.*"), "no raw byte counts:\n" + o.out());
    }

    /** A size written as a whole number of some unit reads back, from its label, as the same bytes. */
    @Property
    void aLabelReadsBackAsTheSameBytes(@ForAll @IntRange(min = 0, max = 100_000) int n,
            @ForAll("units") String unit) {
        long bytes = QuantityText.bytes(n + " " + unit);
        String label = ByteSize.asWritten(bytes);
        assertEquals(bytes, QuantityText.bytes(label), label);
        assertTrue(label.length() <= (n + " " + unit).length() + 4, label + " for " + n + " " + unit);
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> units() {
        return net.jqwik.api.Arbitraries.of("B", "KB", "MB", "GB", "KiB", "MiB", "GiB");
    }
}
