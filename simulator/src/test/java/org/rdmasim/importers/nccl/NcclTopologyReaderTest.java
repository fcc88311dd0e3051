package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PathType;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopoMatrix;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.importers.ImportException;
import org.rdmasim.importers.ImportOptions;

class NcclTopologyReaderTest {

    static String resource(String name) {
        try (InputStream in = NcclTopologyReaderTest.class.getResourceAsStream("/importers/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static HostSpec read(String name) {
        return NcclTopologyReader.read(resource(name), name, ImportOptions.defaults());
    }

    /** Relation cells only (no affinity columns), row by row. */
    static List<String> cells(Host h) {
        List<TopologyNode> all = new ArrayList<>(h.gpus());
        all.addAll(h.nics());
        List<String> out = new ArrayList<>();
        for (TopologyNode a : all) {
            StringBuilder row = new StringBuilder(a.name());
            for (TopologyNode b : all) {
                PathType t = h.relation(a, b);
                row.append(' ').append(t == PathType.NV ? "NV" + h.nvlinkCount(a, b) : t.name());
            }
            out.add(row.toString());
        }
        return out;
    }

    @Test
    void dgxDumpIsTheDgxPreset() {
        HostSpec spec = read("dgx-h100-dump.xml");
        // the dump holds the eight compute GPU/NIC pairs only, named in GPU order as an HGX board's are
        assertEquals(TopoMatrix.render(new Host("h", Presets.get("hgx-h200"))), TopoMatrix.render(new Host("h", spec)));
        assertEquals(CpuFamily.INTEL_SAPPHIRE_RAPIDS, spec.cpuFamily());
        Host h = new Host("h", spec);
        TopologyNode gpu = h.gpu("GPU0");
        assertEquals(GpuModel.H100, gpu.gpu().model());
        assertEquals(18, gpu.gpu().nvlinks()); // 5 + 5 + 4 + 4 links to the four NVSwitches
        assertEquals(NicModel.CX7, h.nic("mlx5_0").nic().model());
        assertEquals(400.0, h.nic("mlx5_0").nic().lineRateGbps());
        assertEquals("pcie-switch-0000:18:00.0", gpu.parent().name()); // the NVMe drive beside it is not a device here
    }

    @Test
    void cloudFileWithoutGpuOrNicElementsInfersFromTheSlots() {
        Host h = new Host("h", read("cloud-h100-topo.xml"));
        // Such files carry no <gpu>, so no NVLink either: the GPU pairs show PCIe relations, as the
        // generic preset (DGX shape, no NVLink) does.
        assertEquals(cells(new Host("p", Presets.get("generic"))), cells(h));
        assertEquals(GpuModel.H100, h.gpu("GPU3").gpu().model());
        assertEquals(NicModel.CX7, h.nic("mlx5_3").nic().model());
        assertEquals("0-47", h.spec().sockets().get(0).cpuAffinity());
    }

    @Test
    void gb200DumpHasNodeAndSysOnlyAndC2cLinks() {
        HostSpec spec = read("gb200-dump.xml");
        Host h = new Host("h", spec);
        assertEquals(cells(new Host("p", Presets.get("gb200-tray"))), cells(h));
        assertEquals(CpuFamily.NVIDIA_GRACE, spec.cpuFamily());
        assertEquals(LinkSpec.c2c(450e9), h.gpu("GPU2").gpu().link());
        assertEquals(GpuModel.B200, h.gpu("GPU2").gpu().model());
        assertEquals("72-143", spec.sockets().get(1).cpuAffinity());
    }

    @Test
    void vmBridgesAndZeroWidthsFallBackToTheDevicesLinks() {
        Host h = new Host("h", read("vm-bridges.xml"));
        TopologyNode nic = h.nic("mlx5_1");
        assertEquals(NicModel.CX6, nic.nic().model()); // speed 200000 Mb/s
        assertEquals(LinkSpec.pcie(PcieGen.GEN5, 16), nic.uplink()); // link_width 0 read as x16, as NCCL does
        assertEquals(LinkSpec.pcie(PcieGen.GEN5, 16), nic.parent().uplink()); // not the bridge's 2.5 GT/s x1
        assertEquals(PathType.PIX, h.relation(h.gpu("GPU0"), nic));
        assertEquals(List.of("mlx5_1", "mlx5_0"), h.nics().stream().map(TopologyNode::name).toList());
    }

    @Test
    void optionsOverrideWhatTheFileSays() {
        ImportOptions o = ImportOptions.defaults().withNicModel(NicModel.CX8).withLinkLayer(org.rdmasim.hardware.LinkLayer.ROCE);
        Host h = new Host("h", NcclTopologyReader.read(resource("dgx-h100-dump.xml"), "d.xml", o));
        assertEquals(NicModel.CX8, h.nic("mlx5_4").nic().model());
        assertEquals(org.rdmasim.hardware.LinkLayer.ROCE, h.nic("mlx5_4").nic().linkLayer());
        assertEquals(400.0, h.nic("mlx5_4").nic().lineRateGbps()); // the port speed still comes from the file
    }

    @Test
    void truncatedFileNamesTheLastLine() {
        // cut off in the middle of line 19
        ImportException e = assertThrows(ImportException.class,
                () -> read("truncated-dump.xml"));
        assertTrue(e.getMessage().startsWith("truncated-dump.xml:19: malformed or truncated XML"), e.getMessage());
        assertTrue(e.getMessage().contains("expected a complete NCCL topology document"), e.getMessage());
    }

    @Test
    void unreadableNeededAttributeNamesItsLine() {
        String text = resource("dgx-h100-dump.xml").replaceFirst("sm=\"90\"", "sm=\"ninety\"");
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(text, "d.xml", ImportOptions.defaults()));
        assertEquals("d.xml:5: <gpu sm=\"ninety\">, expected a whole number for sm", e.getMessage());
    }

    @Test
    void unknownComputeCapabilityIsAnError() {
        String text = resource("dgx-h100-dump.xml").replaceFirst("sm=\"90\"", "sm=\"70\"");
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(text, "d.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("d.xml:5: GPU with sm 70 is not modelled"), e.getMessage());
        // ... unless the user says which model to use
        HostSpec spec = NcclTopologyReader.read(text, "d.xml", ImportOptions.defaults().withGpuModel(GpuModel.A100));
        assertEquals(GpuModel.A100, new Host("h", spec).gpu("GPU0").gpu().model());
    }

    @Test
    void badLinkSpeed() {
        String text = resource("dgx-h100-dump.xml").replaceFirst("link_speed=\"32.0 GT/s PCIe\"", "link_speed=\"fast\"");
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(text, "d.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("d.xml:3: link_speed 'fast' is not a PCIe speed"), e.getMessage());
    }

    @Test
    void doctypeAndExternalEntitiesAreRefused() {
        String text = "<?xml version=\"1.0\"?>\n<!DOCTYPE system [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + "<system version=\"1\"><cpu numaid=\"0\">&x;</cpu></system>\n";
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read(text, "evil.xml", ImportOptions.defaults()));
        assertTrue(e.getMessage().startsWith("evil.xml:2: malformed or truncated XML"), e.getMessage());
    }

    @Test
    void wrongRootElement() {
        ImportException e = assertThrows(ImportException.class,
                () -> NcclTopologyReader.read("<graphs>\n</graphs>\n", "g.xml", ImportOptions.defaults()));
        assertEquals("g.xml:1: the document starts with <graphs>, expected <system version=\"1\">", e.getMessage());
    }

    @Test
    void cpuMasksRoundTrip() {
        String mask = NcclVocabulary.cpuMask("0-55,112-167").orElseThrow();
        assertEquals("0-55,112-167", NcclVocabulary.cpuList(mask));
        assertEquals("0-23", NcclVocabulary.cpuList("00000000,00000000,00ffffff")); // ndv4-topo.xml, NUMA 0
    }
}
