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
        assertTrue(run("topo", "gb200-tray", "--format", "dot").out().contains("C2C 450 GB/s"));
    }

    @Test
    void nvidiaSmiFileBackToMatrix() throws IOException {
        Path file = copy("h100-dgx-topo.txt", "node7.txt");
        Run r = run("topo", file.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(TopoMatrix.render(new Host("x", Presets.get("dgx-h100"))), r.out());
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
