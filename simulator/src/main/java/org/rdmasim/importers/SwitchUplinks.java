package org.rdmasim.importers;

import java.util.List;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.LinkSpec;
import org.rdmasim.hardware.PcieGen;

/**
 * The uplink given to a PCIe switch when a file does not say: the fastest PCIe link directly below
 * it, so the switch itself never becomes a bottleneck the file gave no evidence for (a Gen5 GPU and
 * a Gen5 NIC behind a switch get a Gen5 x16 uplink, as in the DGX H100 preset).
 */
public final class SwitchUplinks {
    private SwitchUplinks() {
    }

    public static LinkSpec fastestBelow(List<HostSpec.DeviceSpec> below) {
        LinkSpec best = null;
        for (HostSpec.DeviceSpec d : below) {
            LinkSpec l = null;
            if (d instanceof HostSpec.SwitchSpec s) {
                l = s.uplink();
            } else if (d instanceof HostSpec.GpuSpec g) {
                l = g.link();
            } else if (d instanceof HostSpec.NicSpec n) {
                l = n.link();
            }
            if (l != null && l.type() == LinkSpec.LinkType.PCIE && (best == null || l.bytesPerSecond() > best.bytesPerSecond())) {
                best = l;
            }
        }
        return best != null ? best : LinkSpec.pcie(PcieGen.GEN5, 16);
    }
}
