package org.rdmasim.importers.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;
import org.rdmasim.importers.DeviceIdentity;
import org.rdmasim.importers.HostIdentity;

/** Whole files written out by hand from the rules in NcclXmlWriter's comment and NCCL's dump order (xml.cc). */
class NcclXmlWriterTest {
    private static final LinkSpec GEN5X16 = LinkSpec.pcie(PcieGen.GEN5, 16);
    private static final LinkSpec GEN4X16 = LinkSpec.pcie(PcieGen.GEN4, 16);

    private static HostSpec.SocketSpec socket(int numa, String cpus, HostSpec.DeviceSpec... devices) {
        return new HostSpec.SocketSpec(numa, 1e11, 1L << 30, cpus, List.of(devices));
    }

    private static HostSpec.NicSpec nic(String name, NicModel model, LinkLayer layer, LinkSpec link, double gbps) {
        return new HostSpec.NicSpec(name, model, layer, link, 1, gbps, true);
    }

    /**
     * Without an identity every bus is made up in tree order, GPUs and NICs are numbered separately, an
     * NVLink GPU gets its NVSwitch link, a C2C GPU its c2c element and no PCIe link, an EFA and a RoCE
     * port the Ethernet class.
     */
    @Test
    void aHostWithoutIdentityIsWrittenInTreeOrder() {
        HostSpec.DeviceSpec sw = new HostSpec.SwitchSpec("sw0", LinkSpec.pcie(PcieGen.GEN4, 8), List.of(
                new HostSpec.GpuSpec("GPU0", GpuModel.H100, GEN5X16, 0, 0, 0),
                nic("mlx5_0", NicModel.CX7, LinkLayer.INFINIBAND, GEN5X16, 400)));
        HostSpec host = new HostSpec("two sockets", CpuFamily.AMD_GENOA, 64e9, List.of(
                socket(0, "0-7", new HostSpec.HostBridgeSpec("hb0", List.of(sw))),
                socket(1, "",
                        new HostSpec.GpuSpec("GPU1", GpuModel.H100, GEN5X16, 0, 0, 18),
                        new HostSpec.GpuSpec("GPU2", GpuModel.GB300, LinkSpec.c2c(450e9), 0, 0, 0),
                        nic("efa0", NicModel.EFA3, LinkLayer.EFA, GEN4X16, 200),
                        nic("mlx5_1", NicModel.CX6, LinkLayer.ROCE, GEN4X16, 200))), "test");
        String expected = """
                <system version="1">
                  <cpu numaid="0" affinity="000000ff" arch="x86_64" vendor="AuthenticAMD" familyid="25" modelid="17">
                    <pci busid="0000:01:00.0" class="0x060000">
                      <pci busid="0000:02:00.0" class="0x060400" link_speed="16.0 GT/s PCIe" link_width="8">
                        <pci busid="0000:03:00.0" class="0x030200" vendor="0x10de" device="0x2330" link_speed="32.0 GT/s PCIe" link_width="16">
                          <gpu dev="0" sm="90" rank="0" gdr="1"/>
                        </pci>
                        <pci busid="0000:04:00.0" class="0x020700" vendor="0x15b3" device="0x1021" link_speed="32.0 GT/s PCIe" link_width="16">
                          <nic>
                            <net name="mlx5_0" dev="0" speed="400000" port="1" latency="0.000000" gdr="1"/>
                          </nic>
                        </pci>
                      </pci>
                    </pci>
                  </cpu>
                  <cpu numaid="1" arch="x86_64" vendor="AuthenticAMD" familyid="25" modelid="17">
                    <pci busid="0000:05:00.0" class="0x030200" vendor="0x10de" device="0x2330" link_speed="32.0 GT/s PCIe" link_width="16">
                      <gpu dev="1" sm="90" rank="1" gdr="1">
                        <nvlink target="fffffff:ff:ff.0" count="18" tclass="0x068000"/>
                      </gpu>
                    </pci>
                    <pci busid="0000:06:00.0" class="0x030200" vendor="0x10de" device="0x0000">
                      <gpu dev="2" sm="103" rank="2" gdr="1">
                        <c2c bw="450000" count="1"/>
                      </gpu>
                    </pci>
                    <pci busid="0000:07:00.0" class="0x020000" vendor="0x1d0f" device="0xefa2" link_speed="16.0 GT/s PCIe" link_width="16">
                      <nic>
                        <net name="efa0" dev="1" speed="200000" port="1" latency="0.000000" gdr="1"/>
                      </nic>
                    </pci>
                    <pci busid="0000:08:00.0" class="0x020000" vendor="0x15b3" device="0x101b" link_speed="16.0 GT/s PCIe" link_width="16">
                      <nic>
                        <net name="mlx5_1" dev="2" speed="200000" port="1" latency="0.000000" gdr="1"/>
                      </nic>
                    </pci>
                  </cpu>
                </system>
                """;
        assertEquals(expected, NcclXmlWriter.write(host));
    }

    /**
     * With an identity: the CPU keeps the file's attributes, a switch keeps the bus in its name (a host
     * bridge whose name holds none gets a new one), attributes NCCL does not know follow in name order, a
     * GPU the file gave no {@code <gpu>} and a NIC listed by slot only stay empty elements, and a NIC the
     * file put straight under its parent is written without a {@code <pci>}.
     */
    @Test
    void aHostWithIdentityWritesWhatItsFileSaid() {
        HostSpec.DeviceSpec sw = new HostSpec.SwitchSpec("pcie-switch-0000:18:00.0", GEN5X16, List.of(
                new HostSpec.GpuSpec("GPU0", GpuModel.H100, GEN5X16, 0, 0, 0),
                nic("mlx5_0", NicModel.CX7, LinkLayer.INFINIBAND, GEN5X16, 400)));
        HostSpec host = new HostSpec("one socket", CpuFamily.INTEL_SAPPHIRE_RAPIDS, 0, List.of(
                socket(0, "0-3", new HostSpec.HostBridgeSpec("host-bridge-zz", List.of(sw)),
                        nic("mlx5_1", NicModel.CX7, LinkLayer.INFINIBAND, GEN5X16, 400))), "test");
        HostIdentity identity = new HostIdentity(
                Map.of(0, Map.of("host_hash", "0xabc", "arch", "x86_64", "vendor", "GenuineIntel")),
                Map.of("GPU0", new DeviceIdentity(Map.of("busid", "0000:19:00.0", "class", "0x030200", "vendor", "0x10de",
                                "device", "0x2330", "zeta", "1", "alpha", "2"), Map.of()),
                        "mlx5_0", new DeviceIdentity(Map.of(), Map.of("guid", "0x1234")),
                        "mlx5_1", new DeviceIdentity(Map.of("busid", "0000:aa:00.0"), Map.of())));
        String expected = """
                <system version="1">
                  <cpu host_hash="0xabc" numaid="0" affinity="0000000f" arch="x86_64" vendor="GenuineIntel">
                    <pci busid="0000:01:00.0" class="0x060000">
                      <pci busid="0000:18:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
                        <pci busid="0000:19:00.0" class="0x030200" vendor="0x10de" device="0x2330" link_speed="32.0 GT/s PCIe" link_width="16" alpha="2" zeta="1"/>
                        <nic>
                          <net name="mlx5_0" dev="0" speed="400000" port="1" latency="0.000000" guid="0x1234" gdr="1"/>
                        </nic>
                      </pci>
                    </pci>
                    <pci busid="0000:aa:00.0" class="0x020700" link_speed="32.0 GT/s PCIe" link_width="16"/>
                  </cpu>
                </system>
                """;
        assertEquals(expected, NcclXmlWriter.write(host, identity));
    }
}
