package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ceiling a scenario's lineRate is held to: a ConnectX's port speed, an EFA device's host link; and
 * the hosts rdmasim ships never pass it (a preset above its own ceiling would make the check refuse the
 * preset's own rate once a scenario restates it).
 */
class NicPortCeilingTest {
    @Test
    void aConnectXIsHeldToItsPortSpeedWhateverItsLink() {
        for (NicModel m : List.of(NicModel.CX5, NicModel.CX6, NicModel.CX7, NicModel.CX8)) {
            // a ConnectX-7 behind a Gen4 link still signals 400G on the wire: the link does not lower the port
            assertEquals(m.lineRateGbps(), m.portCeiling(LinkSpec.pcie(PcieGen.GEN4, 8)).gbps(), m.name());
            assertTrue(m.portCeiling(m.hostLink()).why().contains("product brief"), m.name());
        }
        assertEquals(400.0, NicModel.CX7.portCeiling(NicModel.CX7.hostLink()).gbps());
    }

    @Test
    void anEfaDeviceIsHeldToWhatItsLinkCarries() {
        NicModel.PortCeiling gen5 = NicModel.EFA4.portCeiling(LinkSpec.pcie(PcieGen.GEN5, 16));
        NicModel.PortCeiling gen6 = NicModel.EFA4.portCeiling(LinkSpec.pcie(PcieGen.GEN6, 16));
        // Gen5 x16 carries ~56.4 GB/s of payload (451 Gbps): its own 400 Gbps fits, 800 does not; Gen6 x16 doubles it
        assertTrue(gen5.gbps() > 400 && gen5.gbps() < 800, gen5.toString());
        assertTrue(gen6.gbps() > 800, gen6.toString());
        assertTrue(gen5.why().contains("PCIe Gen5 x16") && gen5.why().contains("no port speed"), gen5.why());
    }

    @Test
    void everyPresetsNicsAreWithinTheirCeiling() {
        List<String> over = new ArrayList<>();
        int nics = 0;
        for (String name : Presets.names()) {
            List<HostSpec.NicSpec> seen = Presets.get(name).nicSpecs();
            for (HostSpec.NicSpec n : seen) {
                if (n.lineRateGbps() > n.model().portCeiling(n.link()).gbps()) {
                    over.add(name + ":" + n.name());
                }
            }
            nics += seen.size();
        }
        assertTrue(nics > 0, "the presets were walked");
        assertEquals(List.of(), over, "preset NICs above their ceiling");
    }

    @Test
    void aRateWrittenInBytesIsToldFromOneInBits() {
        assertTrue(QuantityText.countsBytes("400 GBps"));
        assertTrue(QuantityText.countsBytes("50 GB/s"));
        assertFalse(QuantityText.countsBytes("400 Gbps"));
        assertFalse(QuantityText.countsBytes("400 Gb/s"));
        assertFalse(QuantityText.countsBytes("fast"));
    }
}
