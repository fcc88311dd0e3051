package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;

/**
 * The calibrated number a limit stands for is found through what wraps it: a fault that degrades it and a
 * tie it shares are still limits resting on it, so the charts mark them as the text does.
 */
class CalibratedLimitTest {
    private static final Bottleneck READ = new Bottleneck.NicReadCalibrated("receiver", "mlx5_1", "gb200-roce");

    @Test
    void aDegradedOrTiedCalibratedLimitIsStillTheCalibratedNumber() {
        var plain = CalibratedLimit.of(READ);
        assertTrue(plain.isPresent());
        assertEquals("nicReadRate", plain.get().parameter());
        assertEquals(plain, CalibratedLimit.of(new Bottleneck.Degraded(READ, 0.5, 0, Double.POSITIVE_INFINITY)));
        assertEquals(plain, CalibratedLimit.of(new Bottleneck.Tie(List.of(
                new Bottleneck.NicWire("receiver", "mlx5_0", Bottleneck.Side.RX, null), READ))));
        // a Grace-Grace link's assumed figure is marked assumed; a datasheet socket link is not marked
        var grace = CalibratedLimit.of(new Bottleneck.SocketLink("t0", 0, 1, "gb200-roce",
                org.rdmasim.hardware.ProfileKey.GRACE_TO_GRACE));
        assertEquals("graceToGrace", grace.orElseThrow().parameter());
        assertEquals("assumed", grace.get().kind());
        assertTrue(CalibratedLimit.of(new Bottleneck.SocketLink("h", 0, 1)).isEmpty());
        // a wire rate is a mechanism: no mark
        assertTrue(CalibratedLimit.of(new Bottleneck.NicWire("receiver", "mlx5_0", Bottleneck.Side.RX, null)).isEmpty());
    }
}
