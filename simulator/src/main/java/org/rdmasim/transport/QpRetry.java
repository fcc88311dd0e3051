package org.rdmasim.transport;

/**
 * How an RC queue pair rides out a port that stops answering: it retransmits each time its ACK
 * timer expires and fails once the retries are spent.
 *
 * <ul>
 *   <li>UCX turns {@code UCX_RC_TIMEOUT} (default 1.0 s) into the QP's timeout exponent
 *       {@code round(log2(t / 4.096 us))}: 18 for 1 s, a timer of 4.096 us x 2^18 = 1.074 s; an exponent
 *       of 32 or more means no timeout (openucx/ucx src/uct/ib/base/ib_device.c L1179-1190, v1.20.0).</li>
 *   <li>{@code UCX_RC_RETRY_COUNT} (default 7, at most 7) is the QP's {@code retry_cnt}
 *       (src/uct/ib/rc/base/rc_iface.c L40-46, L607-610, L914-916).</li>
 *   <li>After the last retry the work request completes with {@code IBV_WC_RETRY_EXC_ERR}, which UCX maps
 *       to {@code UCS_ERR_ENDPOINT_TIMEOUT} (src/uct/ib/base/ib_iface.h L797-800) and NIXL to
 *       {@code NIXL_ERR_REMOTE_DISCONNECT} (ai-dynamo/nixl src/plugins/ucx/ucx_enums.cpp L51-54, v1.4.0).
 *       UCX only logs a port going down ({@code IBV_EVENT_PORT_ERR} at DIAG level, ib_device.c
 *       L494-501): the retry timer is what ends the wait.</li>
 * </ul>
 *
 * ASSUMPTION: the timer fires at its nominal value. The InfiniBand specification lets a local ACK
 * timeout expire anywhere up to four times the nominal value, so a real QP may wait up to 4x longer.
 */
public record QpRetry(double timeoutSeconds, int retryCount) {
    /** UCX's default: UCX_RC_TIMEOUT=1.0s, UCX_RC_RETRY_COUNT=7. */
    public static final QpRetry UCX_DEFAULT = new QpRetry(1.0, 7);

    /** The IB time unit of the local ACK timeout exponent. */
    static final double FABRIC_TIME_UNIT_SECONDS = 4.096e-6;

    /**
     * The smallest UCX_RC_TIMEOUT UCX turns into "no timeout": the exponent rounds to 32 from
     * log2(t / 4.096 us) = 31.5 on (about 12,440 s, 3.5 hours).
     */
    public static final double NO_TIMEOUT_FROM_SECONDS = FABRIC_TIME_UNIT_SECONDS * Math.pow(2, 31.5);

    public QpRetry {
        if (!(timeoutSeconds > 0) || Double.isInfinite(timeoutSeconds)) {
            throw new IllegalArgumentException("the RC timeout must be a positive time, got " + timeoutSeconds);
        }
        if (retryCount < 0 || retryCount > 7) {
            throw new IllegalArgumentException("the RC retry count must be 0 to 7, got " + retryCount);
        }
    }

    /** The QP's timeout exponent as UCX computes it; 0 means the QP never times out. */
    public int exponent() {
        double e = Math.log(timeoutSeconds / FABRIC_TIME_UNIT_SECONDS) / Math.log(2.0);
        if (e < 1) {
            return 1;
        }
        long rounded = (long) (e + 0.5);
        return rounded >= 32 ? 0 : (int) rounded;
    }

    /** One ACK timer period, seconds; infinite when the QP never times out. */
    public double tickSeconds() {
        int e = exponent();
        return e == 0 ? Double.POSITIVE_INFINITY : FABRIC_TIME_UNIT_SECONDS * Math.pow(2, e);
    }

    /** From the first unanswered packet to the error completion: the first timeout plus each retry's. */
    public double errorAfterSeconds() {
        return (retryCount + 1) * tickSeconds();
    }

    /**
     * When a QP stalled at {@code stalledAt} moves data again after its port answers at {@code upAt}:
     * at the first retransmission after that (a whole number of timer periods after the stall), or
     * never (NaN) when that would be after the last retry.
     */
    public double resumesAt(double stalledAt, double upAt) {
        double tick = tickSeconds();
        if (Double.isInfinite(tick)) {
            return upAt;
        }
        long k = Math.max(1, (long) Math.ceil((upAt - stalledAt) / tick - 1e-12));
        return k > retryCount ? Double.NaN : stalledAt + k * tick;
    }
}
