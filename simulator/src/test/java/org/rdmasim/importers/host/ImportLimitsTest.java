package org.rdmasim.importers.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.InputLimits;
import org.rdmasim.importers.nccl.NcclTopologyReader;
import org.rdmasim.importers.smi.SmiTopologyReader;

/** Topology files past a limit fail with the limit and the line, never with a JVM error or a parser's raw text. */
class ImportLimitsTest {
    private static final String NIC = "<pci busid=\"0000:03:00.0\" class=\"0x020700\" link_speed=\"32.0 GT/s PCIe\" "
            + "link_width=\"16\"><nic><net name=\"mlx5_0\" speed=\"SPEED\" port=\"1\"/></nic></pci>";

    private static String system(String cpuBody) {
        return "<system version=\"1\">\n<cpu numaid=\"0\" arch=\"x86_64\">\n" + cpuBody + "\n</cpu>\n</system>\n";
    }

    @Test
    void threeThousandNestedPciElementsStopAtTheDepthLimit() {
        String deep = "<pci>\n".repeat(3000) + "</pci>\n".repeat(3000);
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(system(deep), "deep.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("deep.xml:65: elements nested deeper than the limit of 64"), e.getMessage());
    }

    @Test
    void aNicDirectlyUnderSystemIsAnErrorNotDropped() {
        String xml = "<system version=\"1\">\n<cpu numaid=\"0\">\n" + NIC.replace("SPEED", "400000")
                + "\n</cpu>\n<nic><net name=\"mlx5_9\" speed=\"400000\"/></nic>\n</system>\n";
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(xml, "t.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("t.xml:5: <nic> directly under <system>"), e.getMessage());
    }

    @Test
    void anAbsurdPortSpeedIsAnError() {
        ImportException e = assertThrows(ImportException.class, () -> NcclTopologyReader.read(
                system(NIC.replace("SPEED", "1e26")), "t.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("t.xml:3: speed 1e26, expected a port speed in Mb/s from 1 to 3200000"),
                e.getMessage());
    }

    @Test
    void anNvlinkCountBeyondAnyGpuIsAnErrorWithItsLine() {
        String smi = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV99999999999\t0-7\t0\n"
                + "GPU1\tNV99999999999\t X \t0-7\t0\n";
        ImportException e = assertThrows(ImportException.class,
                () -> SmiTopologyReader.read(smi, "topo.txt", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("topo.txt:2: cell GPU0/GPU1 counts 99999999999 NVLinks, expected NV1 to NV64"),
                e.getMessage());
    }

    @Test
    void aLineLongerThanTenThousandCharactersIsRefusedBeforeParsing() {
        String smi = "\tGPU0\tCPU Affinity\n" + "#".repeat(10_001) + "\nGPU0\t X \t0-7\n";
        ImportException e = assertThrows(ImportException.class,
                () -> SmiTopologyReader.read(smi, "topo.txt", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("topo.txt:2: line is 10001 characters long, over the limit of 10000"),
                e.getMessage());
    }

    @Test
    void aFileOverTheLimitIsRefusedWithoutReadingIt(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.xml");
        Files.write(big, new byte[(int) InputLimits.MAX_FILE_BYTES + 1]);
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(big, ImportOptions.defaults()));
        assertEquals(big + ":0: the file is 16777217 bytes, over the limit of 16777216 bytes, "
                + "expected a readable NCCL topology XML file", e.getMessage());
    }

    @Test
    void aFileOutsideTheFolderIsRefusedAndOneInsideIsNot(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path inner = Files.createDirectories(dir.resolve("scenarios"));
        Files.writeString(dir.resolve("secret.env"), "x");
        InputLimits.LimitException e = assertThrows(InputLimits.LimitException.class,
                () -> InputLimits.inside(inner, "../secret.env", false));
        assertTrue(e.getMessage().startsWith("'../secret.env' is outside the scenario's folder"), e.getMessage());
        Files.createSymbolicLink(inner.resolve("link.env"), dir.resolve("secret.env"));
        e = assertThrows(InputLimits.LimitException.class, () -> InputLimits.inside(inner, "link.env", false));
        assertTrue(e.getMessage().startsWith("'link.env' links outside the scenario's folder"), e.getMessage());
        assertEquals(dir.resolve("secret.env").normalize(), InputLimits.inside(inner, "../secret.env", true));
        assertEquals(inner.resolve("a.env").toAbsolutePath(), InputLimits.inside(inner, "a.env", false));
    }
}
