package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.ProfileKey;
import org.rdmasim.hardware.ProfileParameter;

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

    @Test
    void aChartMarksTheParameterTheLimitItselfNamesWithItsProfilesValue() {
        for (Bottleneck b : List.of(READ, new Bottleneck.StrictOrderWrite("b", "mlx5_0", "emr-connectx"),
                new Bottleneck.QpReadRate("b", "mlx5_0", "connectx7"),
                new Bottleneck.NicWire("a", "rdmap79s0", Bottleneck.Side.RX, "aws-efa"),
                new Bottleneck.SocketLink("p5", 0, 1, "aws-efa", ProfileKey.INTER_SOCKET))) {
            ProfileParameter on = b.parameters().get(0);
            CalibratedLimit mark = CalibratedLimit.of(b).orElseThrow(() -> new AssertionError(b.id()));
            assertEquals(on.key().key(), mark.parameter(), b.id());
            assertEquals(on.profile(), mark.profile(), b.id());
            var p = on.lookup().orElseThrow();
            assertEquals(p.kind().name(), mark.kind().toUpperCase(java.util.Locale.ROOT), b.id());
            // the mark's value is the one the limit's own words quote
            assertTrue(b.words().contains(mark.value()), b.words() + " / " + mark.value());
        }
    }

    @Test
    void aTieMarksItsFirstLimitThatStandsOnACalibratedOrAssumedNumber() {
        Bottleneck efa = new Bottleneck.NicWire("a", "rdmap79s0", Bottleneck.Side.RX, "aws-efa");
        Bottleneck datasheet = new Bottleneck.HostMemory("a", 0);
        var tie = CalibratedLimit.of(new Bottleneck.Tie(List.of(datasheet, efa, READ))).orElseThrow();
        assertEquals("efaWireEfficiency", tie.parameter());
        assertEquals("assumed", tie.kind());
        assertEquals("aws-efa", tie.profile());
        assertEquals("nicReadRate", CalibratedLimit.of(new Bottleneck.Tie(List.of(datasheet, READ, efa))).orElseThrow()
                .parameter());
        // a fault on a mechanism, and a tie of mechanisms, mark nothing
        assertTrue(CalibratedLimit.of(new Bottleneck.Degraded(datasheet, 0.5, 0, 1)).isEmpty());
        assertTrue(CalibratedLimit.of(new Bottleneck.Tie(List.of(datasheet, new Bottleneck.HostMemory("a", 1)))).isEmpty());
    }
}
