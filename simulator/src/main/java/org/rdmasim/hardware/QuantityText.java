package org.rdmasim.hardware;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reading of sizes, bandwidths and durations as people write them, for scenarios and the
 * command line alike: "16 GB" is 16e9 bytes and "16 GiB" 16 * 2^30; "400 Gbps" is bits, "50 GB/s"
 * bytes; "10 ms". Each method throws IllegalArgumentException with what was expected; the caller adds
 * where the text came from (a scenario's file:line:column, an option's name).
 */
public final class QuantityText {
    private static final Pattern QUANTITY = Pattern.compile("^\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-z/]*)\\s*$");

    /**
     * Longest duration accepted: 10^6 s (about 11.6 days). A pull lasts seconds; a time beyond this only
     * pushes every event past where a double still resolves nanoseconds.
     */
    public static final double MAX_SECONDS = 1e6;

    private QuantityText() {
    }

    /** Bytes: a count, or a number with B, kB/KB, MB, GB, TB, KiB, MiB, GiB, TiB; never negative, never a fraction of a byte. */
    public static long bytes(String text) {
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a size such as '16 GB', '16 GiB', '4 MiB' or a byte count, got '"
                    + text + "'");
        }
        double b = Double.parseDouble(m.group(1)) * Units.sizeUnitBytes(m.group(2));
        if (b < 0) {
            throw new IllegalArgumentException("size must not be negative, got '" + text + "'");
        }
        if (!(b < 0x1p63)) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        if (b > 0 && b < 1) {
            throw new IllegalArgumentException("size is less than one byte, got '" + text + "'");
        }
        return Math.round(b);
    }

    /** Bytes per second from "400 Gbps", "50 GB/s", "400Gb/s": positive and finite. */
    public static double bandwidth(String text) {
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a bandwidth such as '400 Gbps' or '50 GB/s', got '" + text + "'");
        }
        double bytesPerSecond = Double.parseDouble(m.group(1)) * Units.bandwidthUnitBytesPerSecond(m.group(2));
        if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
            throw new IllegalArgumentException("bandwidth must be positive and finite, got '" + text + "'");
        }
        return bytesPerSecond;
    }

    /** Seconds from "0.5 s", "10 ms", "3 us", "200 ns" or a bare number of seconds, up to {@link #MAX_SECONDS}. */
    public static double seconds(String text) {
        Matcher m = QUANTITY.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a duration such as '0.5 s', '10 ms', '3 us', got '" + text + "'");
        }
        double n = Double.parseDouble(m.group(1));
        if (n < 0) {
            throw new IllegalArgumentException("duration must not be negative, got '" + text + "'");
        }
        double s = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "s" -> n;
            case "ms" -> n * 1e-3;
            case "us" -> n * 1e-6;
            case "ns" -> n * 1e-9;
            default -> throw new IllegalArgumentException("unknown time unit '" + m.group(2) + "' (expected s, ms, us, ns)");
        };
        if (!(s <= MAX_SECONDS)) {
            throw new IllegalArgumentException("duration is over the limit of " + (long) MAX_SECONDS
                    + " s (about 11.6 days), got '" + text + "'");
        }
        return s;
    }
}
