package org.rdmasim.scenario;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rdmasim.hardware.Units;

/**
 * Sizes, bandwidths and durations as people write them in scenarios. Decimal and binary units are
 * distinct: "16 GB" is 16e9 bytes, "16 GiB" is 16 * 2^30.
 */
public final class Quantities {
    private static final Pattern QUANTITY = Pattern.compile("^\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-z/]*)\\s*$");

    /**
     * Longest duration a scenario may write: 10^6 s (about 11.6 days). A pull lasts seconds; a time
     * beyond this only pushes every event past where a double still resolves nanoseconds.
     */
    public static final double MAX_SECONDS = 1e6;

    private Quantities() {
    }

    public static long bytes(YamlTree v) {
        Matcher m = QUANTITY.matcher(v.text());
        if (!m.matches()) {
            throw v.error("expected a size such as '16 GB', '16 GiB', '4 MiB' or a byte count, got '" + v.text() + "'");
        }
        double n = Double.parseDouble(m.group(1));
        double unit;
        try {
            unit = Units.sizeUnitBytes(m.group(2));
        } catch (IllegalArgumentException e) {
            throw v.error(e.getMessage());
        }
        double b = n * unit;
        if (b < 0) {
            throw v.error("size must not be negative, got '" + v.text() + "'");
        }
        if (b > Long.MAX_VALUE) {
            throw v.error("size is too large");
        }
        if (b > 0 && b < 1) {
            throw v.error("size is less than one byte, got '" + v.text() + "'");
        }
        return Math.round(b);
    }

    /** A size that data is moved in: at least one byte (a zero-byte transfer has no rate to report). */
    public static long payload(YamlTree v) {
        long b = bytes(v);
        if (b < 1) {
            throw v.error("a transfer moves at least one byte, got '" + v.text() + "'");
        }
        return b;
    }

    /** Bandwidth in Gbps (1e9 bit/s) from "400 Gbps", "50 GB/s", "400Gb/s". */
    public static double gbps(YamlTree v) {
        return Units.bytesPerSecondToGbps(bandwidth(v));
    }

    /** Bandwidth in bytes per second from "400 Gbps", "50 GB/s", "400Gb/s". */
    public static double bandwidth(YamlTree v) {
        Matcher m = QUANTITY.matcher(v.text());
        if (!m.matches()) {
            throw v.error("expected a bandwidth such as '400 Gbps' or '50 GB/s', got '" + v.text() + "'");
        }
        double n = Double.parseDouble(m.group(1));
        double bytesPerSecond;
        try {
            bytesPerSecond = n * Units.bandwidthUnitBytesPerSecond(m.group(2));
        } catch (IllegalArgumentException e) {
            throw v.error(e.getMessage());
        }
        if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
            throw v.error("bandwidth must be positive and finite, got '" + v.text() + "'");
        }
        return bytesPerSecond;
    }

    /** Duration in seconds from "0.5 s", "10 ms", "3 us", "200 ns" or a bare number of seconds. */
    public static double seconds(YamlTree v) {
        Matcher m = QUANTITY.matcher(v.text());
        if (!m.matches()) {
            throw v.error("expected a duration such as '0.5 s', '10 ms', '3 us', got '" + v.text() + "'");
        }
        double n = Double.parseDouble(m.group(1));
        if (n < 0) {
            throw v.error("duration must not be negative, got '" + v.text() + "'");
        }
        double s = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "s" -> n;
            case "ms" -> n * 1e-3;
            case "us" -> n * 1e-6;
            case "ns" -> n * 1e-9;
            default -> throw v.error("unknown time unit '" + m.group(2) + "' (expected s, ms, us, ns)");
        };
        if (!(s <= MAX_SECONDS)) {
            throw v.error("duration is over the limit of " + (long) MAX_SECONDS + " s (about 11.6 days), got '"
                    + v.text() + "'");
        }
        return s;
    }
}
