package org.rdmasim.hardware;

/**
 * The one unit convention: bytes as long, seconds as double, rates in bytes per second inside the
 * model. Gbps (1e9 bit/s), GB/s (1e9 B/s), GB (1e9 B) and GiB (2^30 B) exist only at the edges.
 */
public final class Units {
    public static final double GIB = 1L << 30;
    public static final double GB = 1e9;

    private Units() {
    }

    public static double gbpsToBytesPerSecond(double gbps) {
        return gbps * 1e9 / 8.0;
    }

    public static double bytesPerSecondToGbps(double bytesPerSecond) {
        return bytesPerSecond * 8.0 / 1e9;
    }

    public static double gbytesPerSecondToBytesPerSecond(double gbytesPerSecond) {
        return gbytesPerSecond * 1e9;
    }

    /** A number for people: no exponent, at most 4 significant decimals, no trailing zeros. */
    public static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }
}
