package org.rdmasim.importers.smi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;

/**
 * {@code nvidia-smi topo -m} output as people paste it in public issues. The files under
 * {@code importers/public/} are hand-written equivalents of the same shape (the issue texts carry no
 * licence to copy them): same columns, same separators, same oddities, completed where the quote was
 * cut off. Where each comes from:
 * <ul>
 *   <li>k8s-53497-pcie-mlx4.txt: kubernetes/kubernetes#53497 (8 PCIe GPUs, an mlx4_0 column, CPU Affinity only, prompt line)</li>
 *   <li>nccl-tests-78-dgx2.txt: NVIDIA/nccl-tests#78 (DGX-2, 16 V100 NV6, ten mlx5 columns)</li>
 *   <li>go-gpuallocator-17-rtx4090.txt: NVIDIA/go-gpuallocator#17 (8 RTX 4090, every GPU pair SYS, GPU NUMA ID tabs)</li>
 *   <li>club-3090-1229-rtx5090.txt: noonghunna/club-3090#1229 (2 RTX 5090, Markdown fences, a topo -p2p block after)</li>
 *   <li>sglang-16771-h100-check-env.txt: sgl-project/sglang#16771 (H100, 12 NICs, product named by check_env)</li>
 *   <li>flux-14-h100-spaces.txt: bytedance/flux#14 (the same host with tabs turned to blanks)</li>
 *   <li>nccl-1505-dgx-a100.txt: NVIDIA/nccl#1505 (DGX A100, four NUMA nodes, two NICs per GPU pair)</li>
 *   <li>deepep-145-h100-18nic.txt: deepseek-ai/DeepEP#145 (H100 with 18 NICs, a root prompt before and after)</li>
 *   <li>dgx1-v100-hybrid-cube-mesh.txt: the NVLink pattern of the DGX-1 file in NVIDIA/nccl#671 (NV1/NV2 pairs, SYS elsewhere)</li>
 *   <li>ac922-power9-nv3.txt, k80-soc.txt, vm-empty-affinity-rtx6000ada.txt: hand-written variants (NV3 pairs as
 *       on IBM AC922; the SOC of drivers before 384 with nvidia-smi -L above; an empty CPU Affinity)</li>
 * </ul>
 */
class PublicTopoTextTest {

    static String resource(String name) {
        return SmiTopologyReaderTest.resource("public/" + name);
    }

    /** File, and whether all its cells nest as one tree (no cell may then be warned about). */
    static Stream<Arguments> files() {
        return Stream.of(
                Arguments.of("k8s-53497-pcie-mlx4.txt", true),
                Arguments.of("nccl-tests-78-dgx2.txt", true),
                Arguments.of("go-gpuallocator-17-rtx4090.txt", true),
                Arguments.of("club-3090-1229-rtx5090.txt", true),
                Arguments.of("sglang-16771-h100-check-env.txt", true),
                Arguments.of("flux-14-h100-spaces.txt", true),
                Arguments.of("nccl-1505-dgx-a100.txt", true),
                Arguments.of("deepep-145-h100-18nic.txt", true),
                Arguments.of("dgx1-v100-hybrid-cube-mesh.txt", false),
                Arguments.of("ac922-power9-nv3.txt", false),
                Arguments.of("k80-soc.txt", true),
                Arguments.of("vm-empty-affinity-rtx6000ada.txt", true));
    }

    private static final ImportOptions TOLD = ImportOptions.defaults().withGpuModel(GpuModel.A100).withNicModel(NicModel.CX6)
            .withCpuFamily(CpuFamily.AMD_ZEN);

    /**
     * Every cell of the input is the imported host's relation between the same two devices (matched by
     * name), or a warning on that row's line names the cell; GPU-NIC cells are never given up.
     */
    @ParameterizedTest
    @MethodSource("files")
    void everyCellIsImportedOrNamedInAWarning(String file, boolean nests) {
        String text = resource(file);
        ImportResult r = SmiTopologyReader.importText(text, file, TOLD);
        ParsedMatrix in = MatrixTextParser.parse(text, file);
        Host host = new Host("h", r.single().spec());
        List<String> cellWarnings = r.warnings().stream().map(ImportWarning::message)
                .filter(m -> m.startsWith("cells that do not nest")).toList();
        int checked = 0;
        for (int i = 0; i < in.size(); i++) {
            ParsedMatrix.Device a = in.devices().get(i);
            for (int j = 0; j < in.size(); j++) {
                ParsedMatrix.Device b = in.devices().get(j);
                TopologyNode x = a.gpu() ? host.gpu(a.name()) : host.nic(a.name());
                TopologyNode y = b.gpu() ? host.gpu(b.name()) : host.nic(b.name());
                PathType got = host.relation(x, y);
                String want = MatrixTextParser.show(in.relation()[i][j], in.nvlinks()[i][j]);
                String have = MatrixTextParser.show(got, got == PathType.NV ? host.nvlinkCount(x, y) : 0);
                if (!want.equals(have)) {
                    assertFalse(nests, file + ": " + a.label() + "/" + b.label() + " is " + want + ", imported " + have);
                    assertTrue(a.gpu() && b.gpu(), file + ": a GPU-NIC or NIC-NIC cell was given up: " + a.label() + "/" + b.label());
                    String cell = (i < j ? a.label() + "/" + b.label() : b.label() + "/" + a.label()) + " " + want
                            + " (imported as " + have + ")";
                    assertTrue(cellWarnings.stream().anyMatch(m -> m.contains(cell)), file + ": no warning names " + cell);
                }
                checked++;
            }
        }
        assertEquals(in.size() * in.size(), checked);
        if (nests) {
            assertTrue(cellWarnings.isEmpty(), file + ": " + cellWarnings);
        } else {
            assertFalse(cellWarnings.isEmpty(), file);
        }
        // What the user said is used, and nothing about it is warned (which ports are storage the user did not say).
        assertTrue(r.warnings().stream().noneMatch(w -> w.message().contains("taken as")
                && !w.message().contains("storage/management")), r.warnings().toString());
        host.gpus().forEach(g -> assertEquals(GpuModel.A100, g.gpu().model()));
        host.nics().forEach(n -> assertEquals(NicModel.CX6, n.nic().model()));
    }

    /** Without options every default is printed: GPU, NIC and CPU. */
    @Test
    void everyDefaultIsAWarningWithItsLine() {
        ImportResult r = SmiTopologyReader.importText(resource("k8s-53497-pcie-mlx4.txt"), "k8s.txt", ImportOptions.defaults());
        List<String> texts = r.warnings().stream().map(ImportWarning::text).toList();
        assertEquals(3, texts.size(), texts.toString());
        assertTrue(texts.get(0).startsWith("k8s.txt:4: warning: the text does not name the GPU product: GPUs taken as H100"), texts.get(0));
        assertTrue(texts.get(1).startsWith("k8s.txt:4: warning: nvidia-smi does not say what the NICs are: taken as ConnectX-7"), texts.get(1));
        assertTrue(texts.get(2).startsWith("k8s.txt:4: warning: nvidia-smi does not say what the CPUs are"), texts.get(2));
    }

    @Test
    void productNamedAroundTheMatrixChoosesTheGpuModel() {
        ImportResult h100 = SmiTopologyReader.importText(resource("sglang-16771-h100-check-env.txt"), "s.txt", ImportOptions.defaults());
        new Host("h", h100.single().spec()).gpus().forEach(g -> assertEquals(GpuModel.H100, g.gpu().model()));
        assertTrue(h100.warnings().stream().noneMatch(w -> w.message().contains("GPU product")), h100.warnings().toString());
        // A product the simulator does not model is named, with its line, not silently made an H100.
        ImportResult ada = SmiTopologyReader.importText(resource("vm-empty-affinity-rtx6000ada.txt"), "ada.txt", ImportOptions.defaults());
        assertTrue(ada.warnings().get(0).text().startsWith("ada.txt:1: warning: GPU product 'NVIDIA RTX 6000 Ada Generation' is not modelled"),
                ada.warnings().get(0).text());
    }

    /** nvidia-smi -q pasted above the matrix names the product too. */
    @Test
    void productNameFromNvidiaSmiQ() {
        String text = "==============NVSMI LOG==============\n\nAttached GPUs                       : 2\nGPU 00000000:07:00.0\n"
                + "    Product Name                    : NVIDIA A100-SXM4-80GB\n    Product Brand                   : NVIDIA\n\n"
                + resource("club-3090-1229-rtx5090.txt");
        ImportResult r = SmiTopologyReader.importText(text, "q.txt", ImportOptions.defaults());
        new Host("h", r.single().spec()).gpus().forEach(g -> assertEquals(GpuModel.A100, g.gpu().model()));
        assertTrue(r.warnings().stream().noneMatch(w -> w.message().contains("GPU")), r.warnings().toString());
    }

    @Test
    void legacySocIsSys() {
        String text = resource("k80-soc.txt");
        assertTrue(text.contains("SOC"));
        Host h = new Host("h", SmiTopologyReader.read(text, "k80.txt", TOLD));
        assertEquals(PathType.SYS, h.relation(h.gpu("GPU0"), h.gpu("GPU2")));
        assertEquals(PathType.PIX, h.relation(h.gpu("GPU0"), h.gpu("GPU1")));
        assertEquals(2, h.sockets().size());
    }

    /** An empty CPU Affinity keeps NUMA Affinity in its own column, tabs or blanks. */
    @Test
    void emptyCpuAffinityDoesNotShiftTheColumns() {
        String tabs = resource("vm-empty-affinity-rtx6000ada.txt");
        assertTrue(tabs.contains("\t\t0\t\tN/A"), "the fixture has the empty cell");
        ParsedMatrix m = MatrixTextParser.parse(tabs, "vm.txt");
        assertEquals("", m.devices().get(0).cpuAffinity());
        assertEquals(0, m.devices().get(0).numaNode());

        String blanks = tabs.replace('\t', ' ');
        List<ImportWarning> warnings = new ArrayList<>();
        ParsedMatrix b = MatrixTextParser.parse(blanks, "vm.txt", warnings);
        assertEquals("", b.devices().get(0).cpuAffinity());
        assertEquals(0, b.devices().get(0).numaNode());
        assertTrue(warnings.get(0).text().startsWith("vm.txt:4: warning: row GPU0 has 2 values for 3 columns and no tabs to place them: "
                + "read as CPU Affinity empty, NUMA Affinity 0, GPU NUMA ID N/A"), warnings.get(0).text());
    }

    /** Terminal escapes around and inside the output, and prompts with no blank line after the matrix. */
    @Test
    void ansiEscapesAndPromptsAroundTheOutput() {
        String plain = resource("sglang-16771-h100-check-env.txt");
        String header = plain.lines().filter(l -> l.startsWith("\tGPU0")).findFirst().orElseThrow();
        String dressed = "\u001B]0;user@h100: ~\u0007\u001B[01;32muser@h100\u001B[00m:\u001B[01;34m~\u001B[00m$ nvidia-smi topo -m\n"
                + plain.replace(header, "\u001B[4m" + header + "\u001B[0m").replace("\nLegend:", "\nuser@h100:~$ echo done\nLegend:")
                + "\u001B[?2004huser@h100:~$ \n";
        String want = org.rdmasim.hardware.TopoMatrix.render(new Host("h", SmiTopologyReader.read(plain, "p.txt", TOLD)));
        String got = org.rdmasim.hardware.TopoMatrix.render(new Host("h", SmiTopologyReader.read(dressed, "d.txt", TOLD)));
        assertEquals(want, got);
    }

    /** NIC columns in mlx5 index order rather than PCI order: each NIC keeps its own cells. */
    @Test
    void nicColumnsInAnyOrder() {
        Host h = new Host("h", SmiTopologyReader.read(resource("flux-14-h100-spaces.txt"), "flux.txt", TOLD));
        assertEquals(PathType.PXB, h.relation(h.gpu("GPU1"), h.nic("mlx5_5"))); // NIC3 in the legend
        assertEquals(PathType.PIX, h.relation(h.nic("mlx5_3"), h.nic("mlx5_4"))); // NIC1, NIC2: one dual-port card
        assertEquals(PathType.NODE, h.relation(h.gpu("GPU1"), h.nic("mlx5_3")));
        assertEquals(12, h.nics().size());
    }

    /**
     * nvidia-smi prints SYS between two GPUs of one NUMA node on some boards. The GPU-NIC cells still
     * nest, so the host keeps them and the GPU pair it cannot honour is a warning naming the row.
     */
    @Test
    void nonTreeMatrixImportsWithItsWarning() {
        String text = "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                + "GPU0\t X \tSYS\tPIX\t0-31\t0\t\tN/A\n"
                + "GPU1\tSYS\t X \tNODE\t0-31\t0\t\tN/A\n"
                + "NIC0\tPIX\tNODE\t X \n\nNIC Legend:\n\n  NIC0: mlx5_0\n";
        ImportResult r = SmiTopologyReader.importText(text, "board.txt", TOLD);
        Host h = new Host("h", r.single().spec());
        assertEquals(PathType.PIX, h.relation(h.gpu("GPU0"), h.nic("mlx5_0")));
        assertEquals(PathType.NODE, h.relation(h.gpu("GPU1"), h.nic("mlx5_0")));
        assertEquals(List.of("board.txt:2: warning: cells that do not nest as one PCIe tree (or NVLink that is not one all-to-all "
                + "domain) are not honoured: GPU0/GPU1 SYS (imported as NODE)"), r.warnings().stream().map(ImportWarning::text).toList());
    }

    /** Devices of one NUMA node SYS to each other and to their NICs: split sockets keep every GPU-NIC cell, with a warning. */
    @Test
    void sysInsideOneNumaNodeSplitsTheSocket() {
        ImportResult r = SmiTopologyReader.importText(resource("go-gpuallocator-17-rtx4090.txt"), "g.txt", TOLD);
        Host h = new Host("h", r.single().spec());
        assertEquals(PathType.SYS, h.relation(h.gpu("GPU0"), h.gpu("GPU1")));
        assertEquals(PathType.PHB, h.relation(h.gpu("GPU6"), h.nic("mlx5_0")));
        assertEquals(PathType.SYS, h.relation(h.gpu("GPU7"), h.nic("mlx5_0")));
        assertTrue(r.warnings().stream().anyMatch(w -> w.message().startsWith("devices of one NUMA node are SYS to each other")),
                r.warnings().toString());
    }
}
