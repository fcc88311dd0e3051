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
    }
}
