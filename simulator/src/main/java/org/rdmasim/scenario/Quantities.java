package org.rdmasim.scenario;

import org.rdmasim.hardware.QuantityText;
import org.rdmasim.hardware.Units;

/**
 * Sizes, bandwidths and durations in a scenario, read by {@link QuantityText} (the one reading the
 * command line uses too), with errors placed at the value's file:line:column.
 */
public final class Quantities {
    /** Longest duration a scenario may write (see {@link QuantityText#MAX_SECONDS}). */
    public static final double MAX_SECONDS = QuantityText.MAX_SECONDS;

    private Quantities() {
    }

    public static long bytes(YamlTree v) {
        try {
            return QuantityText.bytes(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error(e.getMessage());
        }
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
        try {
            return QuantityText.bandwidth(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error(e.getMessage());
        }
    }

    /** Duration in seconds from "0.5 s", "10 ms", "3 us", "200 ns" or a bare number of seconds. */
    public static double seconds(YamlTree v) {
        try {
            return QuantityText.seconds(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error(e.getMessage());
        }
    }
}
