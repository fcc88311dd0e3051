package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;

/** What the reader says when it guesses about a device: each guess named with its line and what it was based on. */
class NcclImportWarningsTest {
    private static final String GPU = "<pci busid=\"0000:19:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\" "
            + "link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"><gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/></pci>";

    private static List<String> warnings(String cpuBody) {
        String xml = "<system version=\"1\">\n<cpu numaid=\"0\" arch=\"x86_64\">\n" + cpuBody + "\n</cpu>\n</system>\n";
        ImportResult r = NcclTopologyReader.importText(xml, "t.xml", ImportOptions.defaults());
        // the CPU and no-GPU notes of line 2 are other tests' business
        return r.warnings().stream().filter(w -> w.line() == 3).map(ImportWarning::text).toList();
    }

    private static String nic(String pciAttributes, String netAttributes) {
        return "<pci busid=\"0000:1a:00.0\" class=\"0x020700\"" + pciAttributes + "><nic><net name=\"mlx5_0\""
                + netAttributes + "/></nic></pci>";
    }

    @Test
    void aNicWithoutIdsIsTheSlowestConnectXReachingItsSpeed() {
        assertEquals(List.of("t.xml:3: warning: NIC mlx5_0 names no known vendor and device id: taken as ConnectX-7, "
                        + "the slowest ConnectX reaching its 300 Gb/s"),
                warnings(nic(" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"", " speed=\"300000\"")));
        assertEquals(List.of("t.xml:3: warning: NIC mlx5_0 names no known vendor and device id: taken as ConnectX-6, "
                        + "the slowest ConnectX reaching its 100.5 Gb/s"),
                warnings(nic(" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"", " speed=\"100500\"")));
    }

    @Test
    void aNicWithoutIdsOrSpeedIsTakenFromItsSlot() {
        assertEquals(List.of("t.xml:3: warning: NIC mlx5_0 names no known vendor and device id and no speed: taken as "
                        + "ConnectX-6 from its 16.0 GT/s PCIe slot",
                "t.xml:3: warning: NIC mlx5_0 gives no port speed: line rate taken as 200 Gb/s (ConnectX-6)"),
                warnings(nic(" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\"", "")));
    }

    @Test
    void aNicSlotWithoutUsableLinkTakesTheModelsLink() {
        assertEquals(List.of("t.xml:3: warning: NIC mlx5_0 gives no link_speed: its link taken as ConnectX-7's 32.0 GT/s PCIe x16"),
                warnings(nic(" vendor=\"0x15b3\" device=\"0x1021\"", " speed=\"400000\"")));
        assertEquals(List.of("t.xml:3: warning: NIC mlx5_0 gives link_speed '5.0 GT/s PCIe', below PCIe Gen3 or unknown: "
                        + "its link taken as ConnectX-7's 32.0 GT/s PCIe x16"),
                warnings(nic(" vendor=\"0x15b3\" device=\"0x1021\" link_speed=\"5.0 GT/s PCIe\" link_width=\"16\"",
                        " speed=\"400000\"")));
    }

    @Test
    void aSwitchWithoutLinkTakesTheFastestLinkBelow() {
        String sw = "<pci busid=\"0000:18:00.0\" class=\"0x060400\">" + GPU
                + nic(" vendor=\"0x15b3\" device=\"0x101b\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\"", " speed=\"200000\"")
                + "</pci>";
        assertEquals(List.of("t.xml:3: warning: PCIe switch 0000:18:00.0 gives no link_speed: its uplink taken as the fastest "
                + "link below it, 32.0 GT/s PCIe x16"), warnings(sw));
    }

    private static final String INTEL_CPU = "<cpu numaid=\"0\" arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\">";

    private static List<String> all(String xml) {
        return NcclTopologyReader.importText(xml, "t.xml", ImportOptions.defaults()).warnings().stream()
                .map(ImportWarning::text).toList();
    }

    @Test
    void aCpuWithoutArchOrVendorAndAHostWithoutNicAreNoted() {
        String xml = "<system version=\"1\">\n<cpu numaid=\"0\">\n" + GPU + "\n</cpu>\n</system>\n";
        assertEquals(List.of("t.xml:2: warning: <cpu> names no arch or vendor: CPU family taken as Sapphire Rapids "
                        + "(its memory and socket-link figures); pass the CPU family to choose another",
                "t.xml:2: warning: the host holds no NIC: it cannot send or receive over the network"), all(xml));
        assertEquals(org.rdmasim.hardware.CpuFamily.INTEL_SAPPHIRE_RAPIDS,
                NcclTopologyReader.read(xml, "t.xml", ImportOptions.defaults()).cpuFamily());
    }

    @Test
    void warningsComeInFileOrderThoughASwitchIsNotedAfterItsChildren() {
        String xml = "<system version=\"1\">\n" + INTEL_CPU + "\n<pci busid=\"0000:18:00.0\" class=\"0x060400\">\n" + GPU
                + nic(" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"", " speed=\"400000\"") + "\n</pci>\n</cpu>\n</system>\n";
        assertEquals(List.of("t.xml:3: warning: PCIe switch 0000:18:00.0 gives no link_speed: its uplink taken as the "
                        + "fastest link below it, 32.0 GT/s PCIe x16",
                "t.xml:4: warning: NIC mlx5_0 names no known vendor and device id: taken as ConnectX-7, the slowest "
                        + "ConnectX reaching its 400 Gb/s"), all(xml));
    }

    @Test
    void aRepeatedNumaidStartsASecondHostAndTheFirstWarningSaysSo() {
        String body = GPU + nic(" vendor=\"0x15b3\" device=\"0x1021\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"",
                " speed=\"400000\"");
        String xml = "<system version=\"1\">\n" + INTEL_CPU + body + "</cpu>\n" + INTEL_CPU
                + body.replace("mlx5_0", "mlx5_1") + "</cpu>\n</system>\n";
        ImportResult r = NcclTopologyReader.importText(xml, "t.xml", ImportOptions.defaults());
        assertEquals(2, r.hosts().size());
        assertEquals(List.of("t.xml:1: warning: the file holds 2 hosts (a <system>, or a <cpu> whose numaid was already "
                + "seen, starts the next one)"), r.warnings().stream().map(ImportWarning::text).toList());
    }

    @Test
    void twoNicPortsOfOneNameAreAnErrorAtTheSecond() {
        String port = nic(" vendor=\"0x15b3\" device=\"0x1021\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"",
                " speed=\"400000\"");
        String xml = "<system version=\"1\">\n" + INTEL_CPU + "\n<pci busid=\"0000:18:00.0\" class=\"0x060400\">\n"
                + GPU + "\n" + port + "\n</pci>\n" + port + "\n</cpu>\n</system>\n";
        org.rdmasim.importers.ImportException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.rdmasim.importers.ImportException.class, () -> NcclTopologyReader.importText(xml, "t.xml", ImportOptions.defaults()));
        assertEquals("t.xml:7: a second <net> named mlx5_0, expected each NIC port to have its own name", e.getMessage());
    }

    private static org.rdmasim.hardware.HostSpec host(String cpuBody) {
        String xml = "<system version=\"1\">\n" + INTEL_CPU + "\n" + cpuBody + "\n</cpu>\n</system>\n";
        return NcclTopologyReader.read(xml, "t.xml", ImportOptions.defaults());
    }

    private static String error(String cpuBody) {
        String xml = "<system version=\"1\">\n" + INTEL_CPU + "\n" + cpuBody + "\n</cpu>\n</system>\n";
        return org.junit.jupiter.api.Assertions.assertThrows(org.rdmasim.importers.ImportException.class,
                () -> NcclTopologyReader.read(xml, "t.xml", ImportOptions.defaults())).getMessage();
    }

    @Test
    void aGpuWithNothingToGoByIsAnH100WithItsOwnLink() {
        assertEquals(List.of("t.xml:3: warning: the GPU names no sm, known device id or link speed: taken as H100-SXM5-80GB",
                        "t.xml:3: warning: the GPU gives no link_speed: its link taken as H100-SXM5-80GB's 32.0 GT/s PCIe x16"),
                warnings("<pci busid=\"0000:19:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x9999\"/>"));
        assertEquals(List.of("t.xml:3: warning: the GPU names no sm or known device id: taken as A100-SXM4-80GB from its "
                        + "16.0 GT/s PCIe slot"),
                warnings("<pci busid=\"0000:19:00.0\" class=\"0x030200\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\"/>"));
    }

    @Test
    void oneC2cLinkIsEnoughAndNoneIsAnError() {
        String gpu = "<pci busid=\"0009:01:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2901\">"
                + "<gpu dev=\"0\" sm=\"100\" rank=\"0\" gdr=\"1\"><c2c bw=\"COUNT_BW\" count=\"COUNT\"/></gpu></pci>";
        org.rdmasim.hardware.HostSpec h = host(gpu.replace("COUNT_BW", "450000").replace("COUNT", "1"));
        org.rdmasim.hardware.HostSpec.GpuSpec g = (org.rdmasim.hardware.HostSpec.GpuSpec) h.sockets().get(0).devices().get(0);
        assertEquals(org.rdmasim.hardware.LinkSpec.c2c(450e9), g.link());
        assertEquals("t.xml:3: <c2c bw=\"450000\" count=\"0\">, expected a positive bandwidth in MB/s per link and a "
                + "count of at least 1", error(gpu.replace("COUNT_BW", "450000").replace("COUNT", "0")));
        assertEquals("t.xml:3: <c2c bw=\"0\" count=\"1\">, expected a positive bandwidth in MB/s per link and a "
                + "count of at least 1", error(gpu.replace("COUNT_BW", "0").replace("COUNT", "1")));
    }

    @Test
    void linkWidthsRunFromZeroToThirtyTwo() {
        String slot = "<pci busid=\"0000:19:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\" "
                + "link_speed=\"32.0 GT/s PCIe\" link_width=\"WIDTH\"><gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/></pci>";
        org.rdmasim.hardware.HostSpec h = host(slot.replace("WIDTH", "32"));
        assertEquals(org.rdmasim.hardware.LinkSpec.pcie(org.rdmasim.hardware.PcieGen.GEN5, 32),
                ((org.rdmasim.hardware.HostSpec.GpuSpec) h.sockets().get(0).devices().get(0)).link());
        assertEquals("t.xml:3: link_width 33, expected a lane count from 0 (unknown) to 32", error(slot.replace("WIDTH", "33")));
        assertEquals("t.xml:3: link_width -1, expected a lane count from 0 (unknown) to 32", error(slot.replace("WIDTH", "-1")));
        assertEquals(List.of("t.xml:3: warning: link_width 0 read as x16, as NCCL does"), warnings(slot.replace("WIDTH", "0")));
    }

    @Test
    void portSpeedsRunFromOneMbpsToThirtyTwoHundredGbps() {
        String port = nic(" vendor=\"0x15b3\" device=\"0x1023\" link_speed=\"64.0 GT/s PCIe\" link_width=\"16\"",
                " speed=\"SPEED\"");
        assertEquals(3200.0, host(GPU + port.replace("SPEED", "3200000")).nicSpecs().get(0).lineRateGbps());
        assertEquals("t.xml:3: speed 0, expected a port speed in Mb/s from 1 to 3200000, e.g. 400000",
                error(GPU + port.replace("SPEED", "0")));
        assertEquals("t.xml:3: speed 3200001, expected a port speed in Mb/s from 1 to 3200000, e.g. 400000",
                error(GPU + port.replace("SPEED", "3200001")));
    }

    @Test
    void aCpuTheSimulatorCannotPlaceIsNamedByWhatTheFileStates() {
        String xml = "<system version=\"1\">\n<cpu numaid=\"0\" arch=\"x86_64\">\n" + GPU + "\n</cpu>\n</system>\n";
        List<String> line2 = NcclTopologyReader.importText(xml, "t.xml", ImportOptions.defaults()).warnings().stream()
                .filter(w -> w.line() == 2 && w.text().contains("CPU")).map(ImportWarning::text).toList();
        // arch only: no vendor, family or model to print (it once printed "CPU null family null model null")
        assertEquals(List.of("t.xml:2: warning: CPU arch=x86_64 is not one the simulator tells apart: its memory and "
                + "socket-link figures are Sapphire Rapids'"), line2);
    }
}
