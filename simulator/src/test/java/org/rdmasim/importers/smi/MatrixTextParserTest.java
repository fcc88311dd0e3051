package org.rdmasim.importers.smi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;

/** Matrices in nvidia-smi topo -m's tab-separated shape, each wrong in one place; line 1 is the header. */
class MatrixTextParserTest {
    private static final String HEADER = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n";

    private static String error(String text) {
        return assertThrows(ImportException.class,
                () -> SmiTopologyReader.read(text, "topo.txt", ImportOptions.defaults())).getMessage();
    }

    private static String pair(String link) {
        return HEADER + "GPU0\t X \t" + link + "\t0-7\t0\n" + "GPU1\t" + link + "\t X \t0-7\t0\n";
    }

    @Test
    void aRowWithoutHeaderColumnNamesTheRowsLine() {
        String text = pair("NV4") + "GPU2\tNV4\tNV4\t0-7\t0\n";
        assertEquals("topo.txt:1: the header has no column GPU2 (its row is line 4), "
                + "expected a header column for every row: GPU0 GPU1 GPU2", error(text));
    }

    @Test
    void aRepeatedLastRowIsOutOfPlaceWithNoRowExpected() {
        String text = pair("NV4") + "GPU1\tNV4\t X \t0-7\t0\n";
        assertEquals("topo.txt:4: row GPU1 is out of place, expected rows in header order, this one being none",
                error(text));
    }

    @Test
    void aMissingRowIsNamedAtTheLastRowPresent() {
        String text = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV4\tNV4\t0-7\t0\n" + "GPU1\tNV4\t X \tNV4\t0-7\t0\n";
        assertEquals("topo.txt:3: no row for column GPU2, expected one row per header column", error(text));
    }

    @Test
    void nvlinkCountsRunFromOneToSixtyFour() {
        HostSpec one = SmiTopologyReader.read(pair("NV1"), "topo.txt", ImportOptions.defaults());
        HostSpec most = SmiTopologyReader.read(pair("NV64"), "topo.txt", ImportOptions.defaults());
        assertEquals(1, firstGpu(one).nvlinks());
        assertEquals(64, firstGpu(most).nvlinks());
        assertEquals("topo.txt:2: cell GPU0/GPU1 counts 0 NVLinks, expected NV1 to NV64 (an H100 SXM has 18 NVLinks)",
                error(pair("NV0")));
        assertEquals("topo.txt:2: cell GPU0/GPU1 counts 65 NVLinks, expected NV1 to NV64 (an H100 SXM has 18 NVLinks)",
                error(pair("NV65")));
    }

    @Test
    void theDiagonalMustBeX() {
        String text = HEADER + "GPU0\tSYS\tSYS\t0-7\t0\n" + "GPU1\tSYS\t X \t0-7\t0\n";
        assertEquals("topo.txt:2: cell GPU0/GPU0 is SYS, expected X on the diagonal", error(text));
    }

    private static HostSpec.GpuSpec firstGpu(HostSpec host) {
        return find(host.sockets().get(0).devices());
    }

    private static HostSpec.GpuSpec find(java.util.List<HostSpec.DeviceSpec> devices) {
        for (HostSpec.DeviceSpec d : devices) {
            if (d instanceof HostSpec.GpuSpec g) {
                return g;
            }
            java.util.List<HostSpec.DeviceSpec> below = d instanceof HostSpec.SwitchSpec s ? s.devices()
                    : d instanceof HostSpec.HostBridgeSpec b ? b.devices() : java.util.List.of();
            HostSpec.GpuSpec g = find(below);
            if (g != null) {
                return g;
            }
        }
        return null;
    }

    private static final String GPU_AND_TWO_NICS = "\tGPU0\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
            + "GPU0\t X \tPIX\tPIX\t0-7\t0\n"
            + "NIC0\tPIX\t X \tPIX\n"
            + "NIC1\tPIX\tPIX\t X \n"
            + "\n"
            + "Legend:\n"
            + "\n"
            + "  X    = Self\n"
            + "\n"
            + "NIC Legend:\n"
            + "\n";

    @Test
    void theNicLegendNamesTheNics() {
        HostSpec host = SmiTopologyReader.read(GPU_AND_TWO_NICS + "  NIC0: mlx5_4\n  NIC1: mlx5_7\n", "topo.txt",
                ImportOptions.defaults());
        assertEquals(java.util.List.of("mlx5_4", "mlx5_7"), host.nicSpecs().stream().map(HostSpec.NicSpec::name).toList());
    }

    @Test
    void aNicTheLegendLeavesOutIsAnErrorAtTheLegend() {
        assertEquals("topo.txt:10: the NIC Legend does not name NIC1, expected an entry \"NIC1: mlx5_N\"",
                error(GPU_AND_TWO_NICS + "  NIC0: mlx5_4\n"));
    }

    @Test
    void nvlinkToANicIsAnError() {
        String text = "\tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV4\t0-7\t0\n"
                + "NIC0\tNV4\t X \n";
        assertEquals("topo.txt:2: cell GPU0/NIC0 is NV4, expected NV# only between two GPUs", error(text));
    }

    @Test
    void aSecondProductIsNotedAndTheFirstKept() {
        String text = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\n"
                + "GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-2)\n"
                + pair("NV4");
        org.rdmasim.importers.ImportResult r = SmiTopologyReader.importText(text, "topo.txt", ImportOptions.defaults());
        assertEquals("topo.txt:2: warning: GPU product 'NVIDIA A100-SXM4-80GB' differs from 'NVIDIA H100 80GB HBM3' at "
                + "line 1: every GPU is taken as the first", r.warnings().get(0).text());
        assertEquals(org.rdmasim.hardware.GpuModel.H100, firstGpu(r.single().spec()).model());
    }

    @Test
    void aProductLineRightAfterTheRowsIsRead() {
        // no blank line between the last row and the product: line 4 was once skipped with the rows
        String text = pair("NV4") + "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1)\n";
        org.rdmasim.importers.ImportResult r = SmiTopologyReader.importText(text, "topo.txt", ImportOptions.defaults());
        assertEquals(org.rdmasim.hardware.GpuModel.A100, firstGpu(r.single().spec()).model());
    }
}
