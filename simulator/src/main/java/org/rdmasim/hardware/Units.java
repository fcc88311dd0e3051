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

    /** The size units people write, for messages. */
    public static final String SIZE_UNITS = "B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB";
    /**
     * The bandwidth units people write, for messages: every spelling {@link #bandwidthUnitBytesPerSecond}
     * takes, and no other (a list that left out "GBps" hid that it means bytes).
     */
    public static final String BANDWIDTH_UNITS = "Gbps or Gb/s, Mbps or Mb/s, Tbps or Tb/s (bits a second); "
            + "GB/s or GBps, MB/s or MBps, TB/s or TBps (bytes a second, 8 times as many bits)";

    /**
     * Bytes in one of a size unit: decimal "GB" is 1e9, binary "GiB" is 2^30; no unit is bytes. The one
     * table behind scenario sizes and command-line sizes.
     *
     * @throws IllegalArgumentException naming the unit and the ones known
     */
    public static double sizeUnitBytes(String unit) {
        return switch (unit) {
            case "", "B" -> 1;
            case "kB", "KB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> GB;
            case "TB" -> 1e12;
            // a size the simulator prints in PiB (command tables) reads back, and a 57-bit address space (128 PiB)
            // is written as such
            case "PB" -> 1e15;
            case "KiB" -> 0x1p10;
            case "MiB" -> 0x1p20;
            case "GiB" -> GIB;
            case "TiB" -> 0x1p40;
            case "PiB" -> 0x1p50;
            default -> throw new IllegalArgumentException("unknown size unit '" + unit + "' (expected " + SIZE_UNITS + ")"
                    + bitsHint(unit));
        };
    }

    /** For a size written in bits (Gb, Mb, Tb, kb): what it would be in bytes, since sizes are in bytes. */
    private static String bitsHint(String unit) {
        String bytes = switch (unit) {
            case "kb", "Kb" -> "kB";
            case "Mb" -> "MB";
            case "Gb" -> "GB";
            case "Tb" -> "TB";
            case "Pb" -> "PB";
            default -> null;
        };
        return bytes == null ? "" : "; '" + unit + "' reads as bits, and a size is in bytes: write " + bytes + " (8 "
                + unit + " = 1 " + bytes + ")";
    }

    /**
     * Bytes per second in one of a bandwidth unit: bits for "Gbps"/"Gb/s", bytes for "GB/s"/"GBps".
     *
     * @throws IllegalArgumentException naming the unit and the ones known
     */
    public static double bandwidthUnitBytesPerSecond(String unit) {
        return switch (unit) {
            case "Gbps", "Gb/s" -> 1e9 / 8;
            case "Mbps", "Mb/s" -> 1e6 / 8;
            case "Tbps", "Tb/s" -> 1e12 / 8;
            case "GB/s", "GBps" -> 1e9;
            case "MB/s", "MBps" -> 1e6;
            case "TB/s", "TBps" -> 1e12;
            default -> throw new IllegalArgumentException("unknown bandwidth unit '" + unit + "' (expected "
                    + BANDWIDTH_UNITS + ")");
        };
    }

    /** A duration for people, three significant digits in s, ms or us: "1.30 s", "5.65 ms", "92.0 us", "0 s". */
    public static String duration(double seconds) {
        if (seconds == 0) {
            return "0 s";
        }
        double a = Math.abs(seconds);
        return a >= 1 ? String.format(java.util.Locale.ROOT, "%.3g s", seconds)
                : a >= 1e-3 ? String.format(java.util.Locale.ROOT, "%.3g ms", seconds * 1e3)
                : String.format(java.util.Locale.ROOT, "%.3g us", seconds * 1e6);
    }

    /** A number for people: no exponent, at most 4 significant decimals, no trailing zeros. */
    public static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /**
     * A whole number of bytes in the largest binary unit that divides it: "4 B", "16 KiB", "1 GiB"
     * ({@code separator} between number and unit: "" in variant names, " " in sentences).
     */
    public static String exactSizeLabel(long bytes, String separator) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        long v = bytes;
        while (u < units.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + separator + units[u];
    }

    private static final String[] DECIMAL_SIZE_UNITS = {"B", "KB", "MB", "GB", "TB"};

    /**
     * A size as a user would have written it, exactly: the shorter of its binary label ({@link #exactSizeLabel}:
     * "4 GiB") and its decimal one ("16 GB", "1.5 GB", at most three decimals), so a size read from "1 GB" or
     * "4 GiB" reads back the same; ties go to the decimal one ({@code separator} as in {@link #exactSizeLabel}).
     */
    public static String sizeAsWritten(long bytes, String separator) {
        String binary = exactSizeLabel(bytes, separator);
        int u = 0;
        long unit = 1;
        // the largest decimal unit in which the size needs at most three decimals
        while (u < DECIMAL_SIZE_UNITS.length - 1 && bytes >= unit * 1000 && bytes % unit == 0) {
            unit *= 1000;
            u++;
        }
        String decimal = java.math.BigDecimal.valueOf(bytes).divide(java.math.BigDecimal.valueOf(unit))
                .stripTrailingZeros().toPlainString() + separator + DECIMAL_SIZE_UNITS[u];
        return decimal.length() <= binary.length() ? decimal : binary;
    }
}
