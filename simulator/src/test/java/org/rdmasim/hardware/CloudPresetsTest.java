package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The cloud and GB300 presets have the shape of the topology files they cite. */
class CloudPresetsTest {
    @Test
    void p5HasFourEfaDevicesBehindEachGpuSwitch() {
        Host h = new Host("p5", Presets.get("p5.48xlarge"));
        assertEquals(8, h.gpus().size());
        assertEquals(32, h.nics().size());
        for (int g = 0; g < 8; g++) {
            int pix = 0;
            for (int n = 0; n < 32; n++) {
                PathType t = h.relation(h.gpus().get(g), h.nics().get(n));
                PathType expected = n / 4 == g ? PathType.PIX : (n / 16 == g / 4 ? PathType.NODE : PathType.SYS);
                assertEquals(expected, t, "GPU" + g + " " + h.nics().get(n).name());
                pix += t == PathType.PIX ? 1 : 0;
            }
            assertEquals(4, pix);
        }
        // names follow the bus numbers of p5.48xl-topo.xml: GPU0's switch holds buses 0x4f-0x52
        assertEquals("rdmap79s0", h.nics().get(0).name());
        assertEquals("rdmap201s0", h.nics().get(31).name());
        HostSpec.NicSpec efa = h.nics().get(0).nic();
        assertEquals(NicModel.EFA2, efa.model());
        assertEquals(LinkLayer.EFA, efa.linkLayer());
        assertEquals(100.0, efa.lineRateGbps());
        // Gen4 x8: 16 GT/s x 8 lanes x 128/130 / 8 = 15.75 GB/s raw, as hwloc reports for each EFA
        assertEquals(15.754e9, efa.link().gen().rawBytesPerSecond(efa.link().width()), 1e6);
        assertEquals("aws-efa", h.profile().name());
        assertEquals(3200.0, h.nics().stream().mapToDouble(n -> n.nic().lineRateGbps()).sum());
    }

    @Test
    void everyAwsInstanceTotals3200GbpsOfEfa() {
        for (String preset : new String[] {"p5.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge"}) {
            Host h = new Host(preset, Presets.get(preset));
            assertEquals(8, h.gpus().size(), preset);
            assertEquals(3200.0, h.nics().stream().mapToDouble(n -> n.nic().lineRateGbps()).sum(), preset);
            assertTrue(h.nics().stream().allMatch(n -> n.nic().model().isEfa()), preset);
            assertEquals("aws-efa", h.profile().name());
        }
        assertEquals(GpuModel.H200, new Host("h", Presets.get("p5en.48xlarge")).gpus().get(0).gpu().model());
        assertEquals(CpuFamily.INTEL_EMERALD_RAPIDS, Presets.get("p6-b200.48xlarge").cpuFamily());
    }

    @Test
    void efaGenerationsAreKnownByTheirPciIds() {
        assertEquals(Optional.of(NicModel.EFA2), NicModel.fromPciId(0x1d0f, 0xefa1));
        assertEquals(Optional.of(NicModel.EFA3), NicModel.fromPciId(0x1d0f, 0xefa2));
        assertEquals(Optional.of(NicModel.EFA4), NicModel.fromPciId(0x1d0f, 0xefa3));
        // the first EFA (p4d) is not modelled, an ENA function is no EFA, and the id belongs to Amazon
        assertEquals(Optional.empty(), NicModel.fromPciId(0x1d0f, 0xefa0));
        assertEquals(Optional.empty(), NicModel.fromPciId(0x1d0f, 0xec20));
        assertEquals(Optional.empty(), NicModel.fromPciId(0x15b3, 0xefa1));
        assertEquals(NicModel.EFA2, NicModel.parse("efa2"));
    }

    @Test
    void azureNdv5FollowsItsPublishedFile() {
        Host h = new Host("nd", Presets.get("azure-ndv5"));
        assertEquals(8, h.gpus().size());
        assertEquals(8, h.nics().size());
        for (int g = 0; g < 8; g++) {
            for (int n = 0; n < 8; n++) {
                PathType expected = g == n ? PathType.PIX : (g / 4 == n / 4 ? PathType.NODE : PathType.SYS);
                assertEquals(expected, h.relation(h.gpus().get(g), h.nics().get(n)));
            }
        }
        assertEquals("mlx5_ib0", h.nics().get(0).name());
        // ndv5-topo.xml gives NUMA node 0 the CPUs 48-95
        assertEquals("48-95", h.spec().sockets().get(0).cpuAffinity());
        assertEquals("connectx7", h.profile().name());
    }

    @Test
    void theGb300ProfilesGpuBehindNicSwitchDecidesWhereTheTraysGpusSit() {
        // shipped: 1, each B300 behind its ConnectX-8's switch
        assertEquals(1.0, CalibrationProfile.named("gb300-ib").require(ProfileKey.GPU_BEHIND_NIC_SWITCH).value());
        HostSpec shipped = Presets.get("gb300-tray");
        assertEquals(Presets.gb300Tray(true).sockets(), shipped.sockets());
        // the other layout rides along, for a host bound to a profile copy whose flag is 0 (the answer without it)
        assertEquals(Presets.gb300Tray(false).sockets(), shipped.layout().other().sockets());
        // 0: the GB200 layout, GPUs on NVLink-C2C and NICs on the Grace root complexes
        Host h = new Host("t", Presets.gb300Tray(false));
        assertEquals(4, h.gpus().size());
        assertEquals(4, h.nics().size());
        for (int g = 0; g < 4; g++) {
            assertEquals(LinkSpec.LinkType.C2C, h.gpus().get(g).uplink().type());
            for (int n = 0; n < 4; n++) {
                PathType expected = g / 2 == n / 2 ? PathType.NODE : PathType.SYS;
                assertEquals(expected, h.relation(h.gpus().get(g), h.nics().get(n)), "GPU" + g + " NIC" + n);
            }
        }
        // each NIC held to Grace's Gen5 x16, below its 800G wire
        LinkSpec nicLink = h.nics().get(0).uplink();
        assertEquals(PcieGen.GEN5, nicLink.gen());
        assertTrue(nicLink.bytesPerSecond() < h.nics().get(0).nic().payloadBytesPerSecond(h.profile()));
        assertEquals("gb300-ib", h.profile().name());
    }

    @Test
    void gb300TrayPairsEachGpuWithItsConnectX8() {
        Host h = new Host("t", Presets.get("gb300-tray"));
        assertEquals(4, h.gpus().size());
        for (int g = 0; g < 4; g++) {
            for (int n = 0; n < 4; n++) {
                PathType expected = g == n ? PathType.PIX : (g / 2 == n / 2 ? PathType.NODE : PathType.SYS);
                assertEquals(expected, h.relation(h.gpus().get(g), h.nics().get(n)));
            }
            assertEquals(GpuModel.GB300, h.gpus().get(g).gpu().model());
        }
        HostSpec.NicSpec cx8 = h.nics().get(0).nic();
        assertEquals(NicModel.CX8, cx8.model());
        assertEquals(800.0, cx8.lineRateGbps());
        assertEquals(CpuFamily.NVIDIA_GRACE, h.spec().cpuFamily());
        assertEquals("gb300-ib", h.profile().name());
        // the tray's CX-8 reaches Grace at Gen5 x16: the switch uplink is slower than the NIC
        LinkSpec uplink = h.nics().get(0).parent().uplink();
        assertEquals(PcieGen.GEN5, uplink.gen());
        assertTrue(uplink.bytesPerSecond() < cx8.payloadBytesPerSecond(h.profile()));
    }

    @Test
    void newProfilesNameTheirAssumptions() {
        CalibrationProfile efa = CalibrationProfile.named("aws-efa");
        assertTrue(efa.assumptions().stream().anyMatch(p -> p.key().equals("efaWireEfficiency")
                && p.kind() == CalibrationProfile.Kind.ASSUMED && !p.assumption().isEmpty()));
        assertEquals(efa.parameter("efaWireEfficiency").orElseThrow().value(), LinkLayer.EFA.wireEfficiency());
        CalibrationProfile gb300 = CalibrationProfile.named("gb300-ib");
        // no ConnectX-8 QP's READ rate is measured in public; UCX's XDR path figure is a ranking estimate
        assertTrue(gb300.qpReadRate().isEmpty());
        assertTrue(gb300.assumptions().stream().allMatch(p -> !p.assumption().isEmpty()));
    }
}
