package org.rdmasim.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The RC retry timing UCX gives a QP (openucx/ucx v1.20.0 ib_device.c L1179-1190, rc_iface.c L40-46). */
class QpRetryTest {
    @Test
    void uxDefaultsGiveExponent18AndAnErrorAfterEightTimerPeriods() {
        QpRetry q = QpRetry.UCX_DEFAULT;
        // log2(1 s / 4.096 us) = 17.897, rounded to 18
        assertEquals(18, q.exponent());
        assertEquals(4.096e-6 * (1 << 18), q.tickSeconds(), 1e-15);
        // the first timeout and 7 retries
        assertEquals(8 * 4.096e-6 * (1 << 18), q.errorAfterSeconds(), 1e-12);
    }

    @Test
    void shortTimeoutsRoundAsUcxDoes() {
        // log2(0.1 s / 4.096 us) = 14.575 -> 15; log2(1 us / 4.096 us) < 1 -> 1 (the smallest)
        assertEquals(15, new QpRetry(0.1, 7).exponent());
        assertEquals(1, new QpRetry(1e-6, 7).exponent());
        // 4.096 us x 2^31.5 and more: 0, "no timeout"
        QpRetry never = new QpRetry(1e5, 7);
        assertEquals(0, never.exponent());
        assertTrue(Double.isInfinite(never.errorAfterSeconds()));
    }

    @Test
    void aStalledQpResumesAtItsNextRetransmissionOrNever() {
        QpRetry q = new QpRetry(1.0, 2);
        double tick = q.tickSeconds();
        // port back before the first timeout: data moves at the first retransmission
        assertEquals(10 + tick, q.resumesAt(10, 10.3), 1e-12);
        // back after 1.5 periods: the second retransmission
        assertEquals(10 + 2 * tick, q.resumesAt(10, 10 + 1.5 * tick), 1e-12);
        // back after the last retry (2 retries): the QP has failed
        assertTrue(Double.isNaN(q.resumesAt(10, 10 + 2.5 * tick)));
    }

    @Test
    void retryCountsOutsideWhatAQpTakesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new QpRetry(1.0, 8));
        assertThrows(IllegalArgumentException.class, () -> new QpRetry(0, 7));
    }
}
