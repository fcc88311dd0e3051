package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopoMatrix;

class TopoCommandTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    private Path copy(String resource, String as) throws IOException {
        Path p = dir.resolve(as);
        try (InputStream in = TopoCommandTest.class.getResourceAsStream("/importers/" + resource)) {
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    private static void badInput(Run r, String expectedPrefix) {
        assertEquals(Main.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().startsWith("rdmasim: error: " + expectedPrefix), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("at org."), r.err());
    }

    @Test
    void presetInEveryFormat() throws IOException {
        String matrix = TopoMatrix.render(new Host("dgx-h100", Presets.get("dgx-h100")));
        assertEquals(matrix, run("topo", "dgx-h100").out());
        Run xml = run("topo", "dgx-h100", "--format", "nccl-xml");
        assertEquals(0, xml.code());
        assertTrue(xml.out().startsWith("<system version=\"1\">"));
        Path file = dir.resolve("dgx.xml");
        Files.writeString(file, xml.out());
        assertEquals(matrix, run("topo", file.toString()).out());
        assertTrue(run("topo", "gb200-tray", "--format", "dot").out().contains("C2C 3600 Gbps (450 GB/s)"));
    }

    @Test
    void cloudPresetsRoundTripThroughNcclXml() throws IOException {
        for (String preset : new String[] {"p5.48xlarge", "azure-ndv5", "gb300-tray"}) {
            String matrix = run("topo", preset).out();
            assertEquals(TopoMatrix.render(new Host(preset, Presets.get(preset))), matrix);
            Path file = dir.resolve(preset + ".xml");
            Run xml = run("topo", preset, "--format", "nccl-xml");
            assertEquals(0, xml.code(), xml.err());
            Files.writeString(file, xml.out());
            assertEquals(matrix, run("topo", file.toString()).out(), preset);
        }
        // EFA devices keep their identity: Amazon's vendor id and the generation's device id
        assertTrue(run("topo", "p5.48xlarge", "--format", "nccl-xml").out().contains("vendor=\"0x1d0f\" device=\"0xefa1\""));
    }

    @Test
    void nvidiaSmiFileBackToMatrix() throws IOException {
        Path file = copy("h100-dgx-topo.txt", "node7.txt");
        Run r = run("topo", file.toString());
        assertEquals(0, r.code(), r.err());
        // eight GPU/NIC pairs named in GPU order: the HGX layout (a real DGX H100 names its ports otherwise)
        assertEquals(TopoMatrix.render(new Host("x", Presets.get("hgx-h200"))), r.out());
    }

    /** Import warnings go to stderr with file and line; the output itself is unchanged by them. */
    @Test
    void importWarningsArePrintedWithFileAndLine() throws IOException {
        Path file = copy("vm-bridges.xml", "vm.xml");
        Run r = run("topo", file.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("rdmasim: " + file + ":6: warning: link_width 0 read as x16, as NCCL does"), r.err());
        Run smi = run("topo", copy("h100-dgx-topo.txt", "node7.txt").toString());
        assertTrue(smi.err().contains(":2: warning: the text does not name the GPU product"), smi.err());
        Run told = run("topo", dir.resolve("node7.txt").toString(), "--gpu-model", "h100", "--nic-model", "cx7", "--cpu",
                "intel_sapphire_rapids");
        assertEquals("", told.err());
        assertEquals(smi.out(), told.out());
    }

    /** Two trays in one dump: both printed, or the one asked for; the XML export keeps each device's identity. */
    @Test
    void multiHostDumpAndIdentityOnExport() throws IOException {
        Path file = copy("public/gb300-two-trays.xml", "trays.xml");
        Run all = run("topo", file.toString());
        assertEquals(0, all.code(), all.err());
        assertTrue(all.out().startsWith("host 0 of 2:\n") && all.out().contains("\nhost 1 of 2:\n"), all.out());
        Run one = run("topo", file.toString(), "--host", "1", "--format", "nccl-xml");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("guid=\"0x7c8c090300a1b210\"") && !one.out().contains("0x7c8c090300a1b200"), one.out());
        badInput(run("topo", file.toString(), "--host", "2"), file + ":1: host index 2 asked for");
    }

    /** The options that fill in an imported file are refused beside a preset, which would silently ignore them. */
    @Test
    void fileOnlyOptionsBesideAPresetAreRefusedNotIgnored() {
        // before: 'topo dgx-h100 --gpu-model b200' printed the preset's H100s, exit 0
        Run gpu = run("topo", "dgx-h100", "--gpu-model", "b200");
        badInput(gpu, "--gpu-model applies to an imported host file");
        assertTrue(gpu.err().contains("preset 'dgx-h100'") && gpu.out().isEmpty(), gpu.err());
        badInput(run("topo", "dgx-h100", "--nic-model", "cx6", "--link-layer", "roce"),
                "--nic-model, --link-layer apply to an imported host file");
        badInput(run("topo", "gb200-tray", "--host", "1"), "--host picks one host of a file that holds several");
        assertEquals(0, run("topo", "dgx-h100", "--format", "dot").code(), "a preset alone still prints");
    }

    @Test
    void truncatedXmlIsBadInputWithFileAndLine() throws IOException {
        Path file = copy("truncated-dump.xml", "dump.xml");
        badInput(run("topo", file.toString()), file + ":19: malformed or truncated XML");
    }

    @Test
    void malformedMatrixIsBadInputWithFileAndLine() throws IOException {
        Path file = copy("h100-dgx-topo.txt", "node7.txt");
        Files.writeString(file, Files.readString(file).replace("  NIC3: mlx5_3\n", "  NIC3: mlx5_3\n  NIC3: mlx5_4\n"));
        badInput(run("topo", file.toString()), file + ":36: the NIC Legend names NIC3 twice");
    }

    @Test
    void unknownPresetOrFileAndUnknownFormat() {
        badInput(run("topo", "dgx-h1000"), "'dgx-h1000' is neither a preset");
        badInput(run("topo", "dgx-h100", "--format", "png"), "unknown --format 'png'");
    }

    @Test
    void helpDescribesFilesAndFormats() {
        Run r = run("topo", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("nccl-xml"), r.out());
        assertTrue(r.out().contains("nvidia-smi topo -m"), r.out());
    }
}
