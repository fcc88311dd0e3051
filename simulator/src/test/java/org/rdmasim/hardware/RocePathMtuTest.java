package org.rdmasim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RocePathMtuTest {

    @Test
    void standardFramesGive1024AndJumboFramesGive4096() {
        assertEquals(1024, RocePathMtu.ofNetdevMtu(1500));
        assertEquals(4096, RocePathMtu.ofNetdevMtu(9000));
    }

    @Test
    void theKernelKeepsRoomForTheBiggestHeaderBeforeRoundingDown() {
        assertEquals(2048, RocePathMtu.ofNetdevMtu(4096 + 95));
        assertEquals(4096, RocePathMtu.ofNetdevMtu(4096 + 96));
        assertEquals(256, RocePathMtu.ofNetdevMtu(256 + 96));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RocePathMtu.ofNetdevMtu(256 + 95));
        assertTrue(e.getMessage().contains("351"), e.getMessage());
    }

    @Test
    void smallerPacketsLeaveLessOfTheWireForPayload() {
        // IEEE 802.3 preamble, gap, header and FCS, IPv4, UDP, BTH and ICRC: 82 B a packet
        assertEquals(1024.0 / (1024 + 8 + 12 + 14 + 4 + 20 + 8 + 12 + 4), RocePathMtu.payloadEfficiency(1024), 1e-12);
        assertTrue(RocePathMtu.payloadEfficiency(1024) < RocePathMtu.payloadEfficiency(2048));
        assertTrue(RocePathMtu.payloadEfficiency(2048) < RocePathMtu.payloadEfficiency(4096));
        // a 400G port at 1024 carries ~368 Gbps of payload, ~23 Gbps less than at 4096
        assertEquals(370.3, 400 * RocePathMtu.payloadEfficiency(1024), 0.1);
    }

    @Test
    void theRoceLinkLayerIsTheEfficiencyAt4096() {
        assertEquals(RocePathMtu.payloadEfficiency(4096), LinkLayer.ROCE.wireEfficiency(), 1e-15);
        assertEquals(4096.0 / 4178, LinkLayer.ROCE.wireEfficiency(), 1e-15);
    }

    @Test
    void anMtuThatIsNoInfinibandMtuIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RocePathMtu.payloadEfficiency(9000));
        assertTrue(e.getMessage().contains("9000"), e.getMessage());
    }
}
