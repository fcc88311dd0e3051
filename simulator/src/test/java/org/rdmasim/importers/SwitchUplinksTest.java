package org.rdmasim.importers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.PcieGen;

class SwitchUplinksTest {
    private static HostSpec.DeviceSpec gpu(LinkSpec link) {
        return new HostSpec.GpuSpec("GPU", GpuModel.H100, link, 0, 0, 0);
    }

    private static HostSpec.DeviceSpec nic(LinkSpec link) {
        return new HostSpec.NicSpec("mlx5", NicModel.CX7, LinkLayer.INFINIBAND, link, 1, 400, true);
    }

    @Test
    void theFastestPcieLinkBelowWinsInAnyOrder() {
        LinkSpec gen4 = LinkSpec.pcie(PcieGen.GEN4, 16);
        LinkSpec gen5 = LinkSpec.pcie(PcieGen.GEN5, 16);
        assertEquals(gen5, SwitchUplinks.fastestBelow(List.of(gpu(gen4), nic(gen5))));
        assertEquals(gen5, SwitchUplinks.fastestBelow(List.of(nic(gen5), gpu(gen4))));
        // a C2C link is not a PCIe uplink however fast it is
        assertEquals(gen4, SwitchUplinks.fastestBelow(List.of(gpu(LinkSpec.c2c(450e9)), gpu(gen4))));
        HostSpec.DeviceSpec sw = new HostSpec.SwitchSpec("sw", LinkSpec.pcie(PcieGen.GEN3, 8), List.of());
        assertEquals(gen4, SwitchUplinks.fastestBelow(List.of(sw, gpu(gen4))));
        assertEquals(gen5, SwitchUplinks.fastestBelow(List.of()));
    }

    @Test
    void ofTwoEquallyFastLinksTheFirstIsKept() {
        // Gen5 x8 and Gen4 x16 carry the same bytes (32 GT/s x 8 = 16 GT/s x 16, same encoding)
        LinkSpec gen5x8 = LinkSpec.pcie(PcieGen.GEN5, 8);
        LinkSpec gen4x16 = LinkSpec.pcie(PcieGen.GEN4, 16);
        assertEquals(gen5x8.bytesPerSecond(), gen4x16.bytesPerSecond());
        assertEquals(gen5x8, SwitchUplinks.fastestBelow(List.of(gpu(gen5x8), nic(gen4x16))));
        assertEquals(gen4x16, SwitchUplinks.fastestBelow(List.of(nic(gen4x16), gpu(gen5x8))));
    }
}
