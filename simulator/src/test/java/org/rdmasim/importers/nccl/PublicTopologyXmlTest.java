package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.TopoMatrix;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;
import org.rdmasim.importers.ImportedHost;

/**
 * NCCL and RCCL topology files that clouds and projects publish. The files under
 * {@code importers/public/} are hand-written equivalents of the same shape (each names its source in a
 * comment): Azure/azhpc-images topology/ndv2, ndv4, ndv5 and ncv4-topo.xml; aws/aws-ofi-nccl
 * topology/p4d-24xl, p5.48xl and g5.48xl-topo.xml; the DGX A100 dump in NVIDIA/nccl#1505; the DGX-1
 * V100 file in NVIDIA/nccl#671; ROCm/rccl tools/topo_expl/models/topo_4p_942.xml and
 * topo_8p_942vm.xml. Hand-written cases beside them: a GPU-less p5 skeleton, p5 with EFA PCI ids, and two
 * GB300 trays in one file.
 */
class PublicTopologyXmlTest {

    static String resource(String name) {
        return NcclTopologyReaderTest.resource("public/" + name);
    }

    private static ImportResult load(String name) {
        return NcclTopologyReader.importText(resource(name), name, ImportOptions.defaults());
    }

    /** Import, export with the file's identity, import again: the same matrix and the same identity for every device. */
    @ParameterizedTest
    @ValueSource(strings = {"azure-ndv2-topo.xml", "azure-ndv4-topo.xml", "azure-ndv5-topo.xml", "azure-ncv4-topo.xml",
            "aws-p4d-24xl-topo.xml", "aws-p5-48xl-topo.xml", "aws-p5-skeleton-no-gpu.xml", "aws-p5en-efa-ids.xml",
            "nccl-1505-dgx-a100.xml", "rccl-topo-8p-942vm.xml", "gb300-two-trays.xml"})
    void identitySurvivesARoundTrip(String file) {
        ImportResult first = load(file);
        for (ImportedHost h : first.hosts()) {
            String xml = NcclXmlWriter.write(h.spec(), h.identity());
            ImportedHost back = NcclTopologyReader.importText(xml, "back.xml", ImportOptions.defaults()).single();
            assertEquals(matrix(h.spec()), matrix(back.spec()), xml);
            assertEquals(h.identity().devices(), back.identity().devices(), xml);
            assertEquals(h.identity().cpus(), back.identity().cpus(), xml);
            assertEquals(h.spec().cpuFamily(), back.spec().cpuFamily());
        }
    }

    /** The identity is what the file says: every vendor, class, device id and GUID of the source appears in the export. */
    @ParameterizedTest
    @ValueSource(strings = {"nccl-1505-dgx-a100.xml", "rccl-topo-8p-942vm.xml", "aws-p5-48xl-topo.xml", "aws-p5en-efa-ids.xml"})
    void exportSaysWhatTheFileSaid(String file) {
        ImportedHost h = load(file).single();
        String xml = NcclXmlWriter.write(h.spec(), h.identity());
        for (String attr : List.of("vendor", "class", "device", "guid", "dev", "gcn", "subsystem_device", "familyid", "modelid")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(" " + attr + "=\"[^\"]*\"").matcher(resource(file));
            while (m.find()) {
                assertTrue(xml.contains(m.group()), file + ": the export lost" + m.group());
            }
        }
    }

    @Test
    void p5KeepsItsThirtyTwoEfaDevNumbersAndClass() {
        ImportedHost h = load("aws-p5-48xl-topo.xml").single();
        String xml = NcclXmlWriter.write(h.spec(), h.identity());
        for (int d = 0; d < 32; d++) {
            assertTrue(xml.contains(" dev=\"" + d + "\" speed=\"100000\""), "dev " + d);
        }
        assertTrue(!xml.contains("0x020700") && !xml.contains("0x15b3"), "EFA devices rewritten as Mellanox InfiniBand");
    }

    /** Each GPU of a p5 reaches its own four EFA devices through its switch (PIX), and the others only across the socket. */
    @Test
    void eachP5GpuHasItsOwnFourEfaDevices() {
        Host h = new Host("p5", load("aws-p5-48xl-topo.xml").single().spec());
        assertEquals(8, h.gpus().size());
        assertEquals(32, h.nics().size());
        for (int g = 0; g < 8; g++) {
            TopologyNode gpu = h.gpu("GPU" + g);
            List<String> pix = h.nics().stream().filter(n -> h.relation(gpu, n) == PathType.PIX).map(TopologyNode::name).toList();
            assertEquals(h.nics().subList(4 * g, 4 * g + 4).stream().map(TopologyNode::name).toList(), pix, "GPU" + g);
        }
    }

    /** EFA ids are recognised; with no EFA model in this build the NIC falls back with a warning and keeps its identity. */
    @Test
    void efaIdsAreNotConnectXSilently() {
        ImportResult r = load("aws-p5en-efa-ids.xml");
        List<String> efa = r.warnings().stream().map(ImportWarning::message).filter(m -> m.contains("is EFA3 (vendor 0x1d0f device 0xefa2)"))
                .toList();
        boolean modelled = java.util.Arrays.stream(NicModel.values()).anyMatch(m -> m.name().startsWith("EFA"));
        Host h = new Host("h", r.single().spec());
        if (modelled) {
            assertTrue(h.nics().get(0).nic().model().name().startsWith("EFA"));
        } else {
            assertEquals(32, efa.size(), r.warnings().toString());
        }
        assertEquals(200.0, h.nics().get(0).nic().lineRateGbps());
        String xml = NcclXmlWriter.write(r.single().spec(), r.single().identity());
        assertTrue(xml.contains("vendor=\"0x1d0f\" device=\"0xefa2\""), xml);
        // Without vendor ids, an EFA-named device says why it cannot be told apart.
        assertTrue(load("aws-p5-48xl-topo.xml").warnings().get(0).message().contains("its name is an EFA device's"));
    }

    /** RCCL dumps: AMD Instinct GPUs (class 0x120000, vendor 0x1002) are GPUs, their dev numbers kept as written. */
    @Test
    void amdGpusAreDevices() {
        ImportResult r = load("rccl-topo-8p-942vm.xml");
        ImportedHost h = r.single();
        assertEquals(8, new Host("h", h.spec()).gpus().size());
        assertEquals("1", h.identity().devices().get("GPU0").device().get("dev")); // the first GPU listed is dev 1
        assertEquals("0x120000", h.identity().devices().get("GPU0").pci().get("class"));
        assertTrue(r.warnings().get(0).text().startsWith("rccl-topo-8p-942vm.xml:6: warning: AMD GPU gfx942 (device 0x74b5) is not modelled"),
                r.warnings().get(0).text());
        // Told the model, nothing is assumed about the GPUs.
        ImportResult told = NcclTopologyReader.importText(resource("rccl-topo-8p-942vm.xml"), "r.xml",
                ImportOptions.defaults().withGpuModel(GpuModel.H100));
        assertTrue(told.warnings().stream().noneMatch(w -> w.message().contains("AMD GPU")));
    }

    /** RCCL's topo_4p_942.xml writes cxi speed 200000000 Mb/s: no port runs at 200 Tb/s, so it is an error naming the line. */
    @Test
    void absurdPortSpeedNamesItsLine() {
        ImportException e = assertThrows(ImportException.class, () -> load("rccl-topo-4p-942.xml"));
        assertTrue(e.getMessage().startsWith("rccl-topo-4p-942.xml:14: speed 200000000"), e.getMessage());
        HostSpec fixed = NcclTopologyReader.read(resource("rccl-topo-4p-942.xml").replace("200000000", "200000"), "f.xml",
                ImportOptions.defaults());
        assertEquals(4, new Host("h", fixed).gpus().size());
    }

    @Test
    void aFileWithNoGpuOrNoNicSaysSo() {
        ImportException none = assertThrows(ImportException.class, () -> load("aws-g5-48xl-topo.xml"));
        assertTrue(none.getMessage().startsWith("aws-g5-48xl-topo.xml:4: the host holds no GPU and no NIC"), none.getMessage());
        ImportResult skeleton = load("aws-p5-skeleton-no-gpu.xml");
        assertTrue(skeleton.warnings().stream().anyMatch(w -> w.text().startsWith("aws-p5-skeleton-no-gpu.xml:4: warning: the host holds no GPU")),
                skeleton.warnings().toString());
        ImportResult noNic = NcclTopologyReader.importText(resource("azure-ncv4-topo.xml").replaceAll("(?s)<nic>.*?</nic>", ""),
                "n.xml", ImportOptions.defaults());
        assertTrue(noNic.warnings().stream().anyMatch(w -> w.message().startsWith("the host holds no NIC")));
    }

    /** Two GB300 trays in one file: two hosts with the same NIC names; a reader wanting one host says how many there are. */
    @Test
    void multiHostDumpImportsAsSeveralHosts() {
        ImportResult r = load("gb300-two-trays.xml");
        assertEquals(2, r.hosts().size());
        for (ImportedHost h : r.hosts()) {
            Host host = new Host("t", h.spec());
            assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"), host.nics().stream().map(TopologyNode::name).toList());
            host.gpus().forEach(g -> assertEquals(GpuModel.GB300, g.gpu().model()));
            host.nics().forEach(n -> assertEquals(NicModel.CX8, n.nic().model()));
        }
        assertNotEquals(r.hosts().get(0).identity().devices().get("mlx5_0").device().get("guid"),
                r.hosts().get(1).identity().devices().get("mlx5_0").device().get("guid"));
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(resource("gb300-two-trays.xml"), "t.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("t.xml:1: the file holds 2 hosts"), e.getMessage());
        // One <system> whose <cpu numaid> values repeat is read the same way.
        String one = resource("gb300-two-trays.xml").replace("</system>\n<system version=\"1\">\n", "");
        assertEquals(2, NcclTopologyReader.importText(one, "one.xml", ImportOptions.defaults()).hosts().size());
    }

    /** Issue 14 item 1: link_width="0" is x16 as NCCL reads it, and the warning names the line. */
    @Test
    void zeroLinkWidthIsAWarningNamingItsLine() {
        ImportResult r = NcclTopologyReader.importText(NcclTopologyReaderTest.resource("vm-bridges.xml"), "vm.xml", ImportOptions.defaults());
        List<String> widths = r.warnings().stream().map(ImportWarning::text).filter(t -> t.contains("link_width")).collect(Collectors.toList());
        assertEquals(List.of("vm.xml:6: warning: link_width 0 read as x16, as NCCL does",
                "vm.xml:11: warning: link_width 0 read as x16, as NCCL does",
                "vm.xml:21: warning: link_width 0 read as x16, as NCCL does",
                "vm.xml:26: warning: link_width 0 read as x16, as NCCL does"), widths);
    }

    /** Azure's ncv4 file gives each GPU an NVLink entry to itself: not a link to another GPU. */
    @Test
    void selfTargetedNvlinkIsNotAnNvlinkDomain() {
        ImportResult r = load("azure-ncv4-topo.xml");
        Host h = new Host("h", r.single().spec());
        assertEquals(PathType.SYS, h.relation(h.gpu("GPU0"), h.gpu("GPU1")));
        assertEquals(4, r.warnings().stream().filter(w -> w.message().contains("targets its own GPU")).count());
        assertEquals(GpuModel.A100, h.gpu("GPU0").gpu().model());
    }

    /** DGX-1 (nccl#671): V100 (sm 70) is refused unless a model is given; then its NVLinks to other GPUs add up. */
    @Test
    void unmodelledNvidiaGpuNeedsAModel() {
        ImportException e = assertThrows(ImportException.class, () -> load("nccl-671-dgx1-v100.xml"));
        assertTrue(e.getMessage().startsWith("nccl-671-dgx1-v100.xml:7: GPU with sm 70 is not modelled"), e.getMessage());
        ImportResult r = NcclTopologyReader.importText(resource("nccl-671-dgx1-v100.xml"), "d.xml",
                ImportOptions.defaults().withGpuModel(GpuModel.A100));
        assertEquals(4, new Host("h", r.single().spec()).gpu("GPU0").gpu().nvlinks());
        assertTrue(r.warnings().stream().anyMatch(w -> w.message().startsWith("CPU arch=x86_64 vendor=GenuineIntel familyid=6 modelid=79 is not one")));
    }

    /** Files that name no sm, device id or speed (Azure's) get models from their slots, each one warned about. */
    @Test
    void guessedModelsAreWarnings() {
        ImportResult r = load("azure-ndv4-topo.xml");
        Host h = new Host("h", r.single().spec());
        assertEquals(GpuModel.A100, h.gpu("GPU0").gpu().model());
        assertEquals(NicModel.CX6, h.nic("mlx5_0").nic().model());
        assertEquals(8, r.warnings().stream().filter(w -> w.message().startsWith("the GPU names no sm")).count());
        assertEquals(8, r.warnings().stream().filter(w -> w.message().contains("gives no port speed")).count());
    }

    private static String matrix(HostSpec spec) {
        return TopoMatrix.render(new Host("h", spec));
    }
}
