package org.rdmasim.importers.smi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.TopoMatrix;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;

class SmiTopologyReaderTest {

    static String resource(String name) {
        try (InputStream in = SmiTopologyReaderTest.class.getResourceAsStream("/importers/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The four hand-written hosts: the imported host renders the same matrix, cell by cell. */
    @ParameterizedTest
    @ValueSource(strings = {"h100-dgx-topo.txt", "a100-pxb-topo.txt", "gb200-topo.txt", "gpu-four-nics-topo.txt"})
    void importedHostReproducesEveryCell(String file) {
        String text = resource(file);
        HostSpec spec = SmiTopologyReader.read(text, file, ImportOptions.defaults());
        ParsedMatrix in = MatrixTextParser.parse(text, file);
        ParsedMatrix out = MatrixTextParser.parse(TopoMatrix.render(new Host("h", spec)), "rendered");
        assertEquals(in.devices().stream().map(d -> List.of(d.label(), d.name(), d.cpuAffinity(), d.numaNode())).toList(),
                out.devices().stream().map(d -> List.of(d.label(), d.name(), d.cpuAffinity(), d.numaNode())).toList());
        for (int i = 0; i < in.size(); i++) {
            assertArrayEquals(in.relation()[i], out.relation()[i], file + " row " + in.devices().get(i).label());
            assertArrayEquals(in.nvlinks()[i], out.nvlinks()[i], file + " row " + in.devices().get(i).label());
        }
    }

    @Test
    void dgxPairsShareOneSwitchPerGpuAndNic() {
        Host h = new Host("h", SmiTopologyReader.read(resource("h100-dgx-topo.txt"), "dgx", ImportOptions.defaults()));
        assertEquals(2, h.sockets().size());
        TopologyNode gpu = h.gpu("GPU5");
        assertEquals("mlx5_5", h.nearestNic(gpu).name());
        assertEquals(TopologyNode.Kind.SWITCH, gpu.parent().kind());
        assertEquals(2, gpu.parent().children().size());
        assertEquals(18, gpu.gpu().nvlinks());
        assertEquals(LinkSpec.pcie(PcieGen.GEN5, 16), gpu.parent().uplink());
    }

    @Test
    void a100PairsNestTwoSwitchLevelsAndTakeModelsFromOptions() {
        ImportOptions o = ImportOptions.defaults().withGpuModel(GpuModel.A100).withNicModel(NicModel.CX6);
        Host h = new Host("h", SmiTopologyReader.read(resource("a100-pxb-topo.txt"), "a100", o));
        assertEquals(10, h.nics().size());
        TopologyNode gpu = h.gpu("GPU2");
        TopologyNode nic = h.nic("mlx5_3");
        assertEquals(PathType.PXB, h.relation(gpu, nic));
        TopologyNode top = h.commonAncestor(gpu, nic);
        assertEquals(TopologyNode.Kind.SWITCH, top.kind());
        assertEquals(LinkSpec.pcie(PcieGen.GEN4, 16), top.uplink());
        assertEquals(200.0, nic.nic().lineRateGbps());
        assertEquals(PathType.PIX, h.relation(h.nic("mlx5_8"), h.nic("mlx5_9")));
    }

    @Test
    void gb200DevicesHangOffTheGraceRootComplexes() {
        Host h = new Host("h", SmiTopologyReader.read(resource("gb200-topo.txt"), "gb200", ImportOptions.defaults()));
        for (TopologyNode d : h.gpus()) {
            assertEquals(TopologyNode.Kind.SOCKET, d.parent().kind());
        }
        assertEquals(List.of(0, 1), h.spec().sockets().stream().map(HostSpec.SocketSpec::numaNode).toList());
        assertEquals("72-143", h.spec().sockets().get(1).cpuAffinity());
    }

    @Test
    void oneGpuWithFourNicsOnlyOnePix() {
        Host h = new Host("h", SmiTopologyReader.read(resource("gpu-four-nics-topo.txt"), "four", ImportOptions.defaults()));
        TopologyNode gpu = h.gpu("GPU1");
        assertEquals(List.of(PathType.PIX, PathType.PXB, PathType.PXB, PathType.PXB),
                h.nicsByDistance(gpu).subList(0, 4).stream().map(n -> h.relation(gpu, n)).toList());
        assertEquals("mlx5_4", h.nearestNic(gpu).name());
        assertEquals(18, h.nics().size());
        assertEquals(TopologyNode.Kind.HOST_BRIDGE, h.nic("mlx5_17").parent().kind());
    }

    // ---- malformed input: file:line and what was expected ----

    private static ImportException fails(String text) {
        return assertThrows(ImportException.class, () -> SmiTopologyReader.read(text, "node7.txt", ImportOptions.defaults()));
    }

    private static String dgx() {
        return resource("h100-dgx-topo.txt");
    }

    @Test
    void missingColumnNamesTheHeaderLine() {
        String text = dgx().replace("\tNIC7\tCPU Affinity", "\tCPU Affinity");
        ImportException e = fails(text);
        assertTrue(e.getMessage().startsWith("node7.txt:2: the header has no column NIC7"), e.getMessage());
        assertTrue(e.getMessage().contains("expected a header column for every row"), e.getMessage());
    }

    @Test
    void shortRowNamesItsLineAndTheCount() {
        String text = dgx().replace("GPU3\tNV18\tNV18\tNV18\t X \tNV18", "GPU3\tNV18\tNV18\tNV18\t X ");
        ImportException e = fails(text);
        assertTrue(e.getMessage().startsWith("node7.txt:6: row GPU3 has 15 relation cells, expected 16"), e.getMessage());
    }

    @Test
    void longRowIsRefused() {
        String text = dgx().replace("NIC2\tNODE\tNODE\tPIX", "NIC2\tNODE\tNODE\tNODE\tPIX");
        ImportException e = fails(text);
        assertTrue(e.getMessage().startsWith("node7.txt:13: row NIC2 has 17 relation cells, expected 16"), e.getMessage());
    }

    @Test
    void legendNamingANicTwice() {
        String text = dgx().replace("  NIC3: mlx5_3\n", "  NIC3: mlx5_3\n  NIC3: mlx5_9\n");
        ImportException e = fails(text);
        assertTrue(e.getMessage().startsWith("node7.txt:36: the NIC Legend names NIC3 twice (mlx5_3 at line 35, mlx5_9 here)"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("expected one entry per NIC"), e.getMessage());
    }

    @Test
    void legendGivingOneDeviceToTwoNics() {
        String text = dgx().replace("  NIC3: mlx5_3\n", "  NIC3: mlx5_2\n");
        assertTrue(fails(text).getMessage().startsWith("node7.txt:35: the NIC Legend gives mlx5_2 to NIC2 and to NIC3"));
    }

    @Test
    void unknownCellValue() {
        String text = dgx().replace("GPU0\t X \tNV18\tNV18\tNV18\tNV18\tNV18\tNV18\tNV18\tPIX",
                "GPU0\t X \tNV18\tNV18\tNV18\tNV18\tNV18\tNV18\tNV18\tPIXX");
        ImportException e = fails(text);
        assertEquals("node7.txt:3: unknown cell value 'PIXX' in row GPU0, column NIC0, expected one of X, NV#, PIX, PXB, "
                + "PHB, NODE, SYS (or the older SOC)", e.getMessage());
    }

    @Test
    void asymmetricCell() {
        String text = dgx().replace("NIC1\tNODE\tPIX", "NIC1\tNODE\tPXB");
        assertTrue(fails(text).getMessage().startsWith("node7.txt:12: cell NIC1/GPU1 is PXB but GPU1/NIC1 (line 4) is PIX"));
    }

    @Test
    void matrixNoTreeCanRealiseNamesTheCell() {
        // GPU0 shares a switch with NIC0 (PIX) and NIC0 with NIC1 (PIX), yet GPU0/NIC1 claims NODE.
        String text = """
                \tGPU0\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tPIX\tNODE\t0-7\t0
                NIC0\tPIX\t X \tPIX\t\t
                NIC1\tNODE\tPIX\t X \t\t

                NIC Legend:

                  NIC0: mlx5_0
                  NIC1: mlx5_1
                """;
        ImportException e = fails(text);
        assertTrue(e.getMessage().startsWith("node7.txt:2: cell GPU0/NIC1 is NODE but the only PCIe tree the other cells "
                + "allow gives PIX"), e.getMessage());
    }

    @Test
    void nonSysCellsAcrossNumaNodes() {
        String text = dgx().replace("GPU4\tNV18\tNV18\tNV18\tNV18\t X \tNV18\tNV18\tNV18\tSYS\tSYS\tSYS\tSYS\tPIX",
                "GPU4\tNV18\tNV18\tNV18\tNV18\t X \tNV18\tNV18\tNV18\tNODE\tSYS\tSYS\tSYS\tPIX")
                .replace("NIC0\tPIX\tNODE\tNODE\tNODE\tSYS", "NIC0\tPIX\tNODE\tNODE\tNODE\tNODE");
        ImportException e = fails(text);
        assertTrue(e.getMessage().contains("GPU4 is on NUMA node 1 but is joined by PIX/PXB/PHB/NODE cells to GPU0 on NUMA node 0"),
                e.getMessage());
    }
}
