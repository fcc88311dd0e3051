package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.ImportOptions;

class NcclNamesTest {
    private static final String SWITCH = "<pci busid=\"0000:18:00.0\" class=\"0x060400\" link_speed=\"32.0 GT/s PCIe\" "
            + "link_width=\"16\"><pci busid=\"0000:19:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\" "
            + "link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"><gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/></pci></pci>\n";

    /** Switches that repeat a bus id (a hand-edited file) keep apart by a counter: -1, -2, ... */
    @Test
    void repeatedBusIdsAreCounted(@TempDir Path dir) throws Exception {
        String xml = "<system version=\"1\">\n<cpu numaid=\"0\" arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" "
                + "modelid=\"143\">\n" + SWITCH.repeat(3) + "</cpu>\n</system>\n";
        Path file = dir.resolve("same-bus.xml");
        Files.writeString(file, xml);
        HostSpec host = NcclTopologyReader.read(file, ImportOptions.defaults());
        List<String> names = new ArrayList<>();
        for (HostSpec.DeviceSpec d : host.sockets().get(0).devices()) {
            HostSpec.SwitchSpec s = (HostSpec.SwitchSpec) d;
            names.add(s.name() + ">" + s.devices().get(0).name());
        }
        assertEquals(List.of("pcie-switch-0000:18:00.0>GPU0", "pcie-switch-0000:18:00.0-1>GPU1",
                "pcie-switch-0000:18:00.0-2>GPU2"), names);
        assertEquals(file.toString(), host.source());
        assertEquals("imported from same-bus.xml", host.model());
    }

    private static HostSpec read(String cpuBody) {
        String xml = "<system version=\"1\">\n<cpu arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\">\n"
                + cpuBody + "</cpu>\n</system>\n";
        return NcclTopologyReader.read(xml, "t.xml", ImportOptions.defaults());
    }

    /**
     * A NIC slot with an empty {@code <nic>} gets the first free mlx5 name after the named ones; a {@code <nic>}
     * straight under the {@code <cpu>} is a NIC too; a {@code <cpu>} without numaid is node 0 (its index).
     */
    @Test
    void unnamedAndBareNicsAreKept() {
        HostSpec host = read(SWITCH
                + "<pci busid=\"0000:1a:00.0\" class=\"0x020700\" vendor=\"0x15b3\" device=\"0x1021\" "
                + "link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"><nic></nic></pci>\n"
                + "<nic><net name=\"mlx5_0\" speed=\"400000\" port=\"1\"/></nic>\n");
        assertEquals(0, host.sockets().get(0).numaNode());
        assertEquals(List.of("mlx5_1", "mlx5_0"), host.nicSpecs().stream().map(HostSpec.NicSpec::name).toList());
    }

    /** A GPU-class function with PCI functions below it is read as a switch over them (its link the uplink). */
    @Test
    void aGpuClassBridgeBecomesASwitch() {
        org.rdmasim.importers.ImportResult r = NcclTopologyReader.importText("<system version=\"1\">\n<cpu numaid=\"0\" "
                + "arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\">\n"
                + "<pci busid=\"0000:30:00.0\" class=\"0x030000\" link_speed=\"16.0 GT/s PCIe\" link_width=\"8\">\n"
                + SWITCH + "</pci>\n</cpu>\n</system>\n", "t.xml", ImportOptions.defaults());
        HostSpec.SwitchSpec outer = (HostSpec.SwitchSpec) r.single().spec().sockets().get(0).devices().get(0);
        assertEquals("pcie-switch-0000:30:00.0", outer.name());
        assertEquals(org.rdmasim.hardware.LinkSpec.pcie(org.rdmasim.hardware.PcieGen.GEN4, 8), outer.uplink());
        assertEquals("pcie-switch-0000:18:00.0", outer.devices().get(0).name());
        assertEquals(List.of("t.xml:2: warning: the host holds no NIC: it cannot send or receive over the network",
                "t.xml:3: warning: a <pci> of GPU class 0x030000 holds other <pci> elements: read as a bridge"),
                r.warnings().stream().map(org.rdmasim.importers.ImportWarning::text).toList());
    }
}
