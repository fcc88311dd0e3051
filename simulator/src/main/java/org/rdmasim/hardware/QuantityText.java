package org.rdmasim.hardware;

import java.util.Locale;

/**
 * The one reading of sizes, bandwidths and durations as people write them, for scenarios and the
 * command line alike: "16 GB" is 16e9 bytes and "16 GiB" 16 * 2^30; "400 Gbps" is bits, "50 GB/s"
 * bytes; "10 ms". Each method throws IllegalArgumentException with what was expected; the caller adds
 * where the text came from (a scenario's file:line:column, an option's name).
 */
public final class QuantityText {
    /**
     * A number and its unit as written ("16 GB": "16" and "GB"), read as the regular expression
     * {@code \s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z/]*)\s*} matches a whole text
     * (QuantityTextProperties holds the two together), by hand: matching the expression was a third of
     * reading a list of 4,096 transfers, two values each.
     */
    record Quantity(String number, String unit) {
        /** The quantity {@code text} writes, or null when it is not one. */
        static Quantity of(String text) {
            int n = text.length();
            int i = skipSpace(text, 0);
            int start = i;
            if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                i++;
            }
            int whole = skipDigits(text, i);
            if (whole < n && text.charAt(whole) == '.') {
                i = skipDigits(text, whole + 1);
                if (i == whole + 1) {
                    return null; // a point needs a digit after it
                }
            } else if (whole > i) {
                i = whole;
            } else {
                return null; // no digit at all
            }
            if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
                // an exponent only when digits follow; otherwise the 'e' starts the unit
                int sign = i + 1 < n && (text.charAt(i + 1) == '+' || text.charAt(i + 1) == '-') ? i + 2 : i + 1;
                int end = skipDigits(text, sign);
                if (end > sign) {
                    i = end;
                }
            }
            String number = text.substring(start, i);
            int unitStart = skipSpace(text, i);
            int unitEnd = unitStart;
            while (unitEnd < n && isUnitChar(text.charAt(unitEnd))) {
                unitEnd++;
            }
            return skipSpace(text, unitEnd) == n ? new Quantity(number, text.substring(unitStart, unitEnd)) : null;
        }

        private static int skipSpace(String text, int i) {
            // the characters of the expression's \s
            while (i < text.length() && " \t\n\u000B\f\r".indexOf(text.charAt(i)) >= 0) {
                i++;
            }
            return i;
        }

        private static int skipDigits(String text, int i) {
            while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                i++;
            }
            return i;
        }

        private static boolean isUnitChar(char c) {
            return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '/';
        }
    }

    /**
     * Longest duration accepted: 10^6 s (about 11.6 days). A pull lasts seconds; a time beyond this only
     * pushes every event past where a double still resolves nanoseconds.
     */
    public static final double MAX_SECONDS = 1e6;

    private QuantityText() {
    }

    /**
     * Bytes: a count, or a number with B, kB/KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB; never negative, never under
     * one byte. A size written in bytes must be whole ("1.5 B" is a typo, not 2 bytes); one in a larger unit is
     * rounded to the nearest byte ("3.02 GiB", a published bucket size, or "0.04TiB" of address space).
     */
    public static long bytes(String text) {
        try {
            return parseBytes(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(withHiddenCharacters(e.getMessage(), text), e);
        }
    }

    private static long parseBytes(String text) {
        Quantity m = Quantity.of(text);
        if (m == null) {
            throw new IllegalArgumentException("expected a size such as '16 GB', '16 GiB', '4 MiB' or a byte count, got '"
                    + text + "'");
        }
        double unit = Units.sizeUnitBytes(m.unit());
        if (unit == 1) {
            java.math.BigDecimal exact = new java.math.BigDecimal(m.number());
            if (exact.signum() > 0 && exact.stripTrailingZeros().scale() > 0 && exact.compareTo(java.math.BigDecimal.ONE) >= 0) {
                throw new IllegalArgumentException("a size is a whole number of bytes, got '" + text + "' ("
                        + exact.stripTrailingZeros().toPlainString() + " bytes)");
            }
        }
        double b = Double.parseDouble(m.number()) * unit;
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

    /**
     * {@code message} about {@code text}, saying which character of it is a space or mark that looks like
     * nothing or like an ASCII space (a no-break space pasted from a web page or a document: "1\u00a0GB"
     * prints as "1 GB" and reads as valid), when it holds one; the message alone otherwise.
     */
    public static String withHiddenCharacters(String message, String text) {
        if (message.contains("(the value contains a ")) {
            return message;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7f && (Character.isSpaceChar(c) || Character.isWhitespace(c)
                    || Character.getType(c) == Character.FORMAT)) {
                String name = Character.getName(c);
                return message + " (the value contains a " + (name == null ? "non-ASCII space"
                        : name.toLowerCase(Locale.ROOT)) + String.format(Locale.ROOT,
                        ", U+%04X, at character %d: write a plain space", (int) c, i + 1) + ")";
            }
        }
        return message;
    }

    /** Bytes per second from "400 Gbps", "50 GB/s", "400Gb/s": positive and finite. */
    public static double bandwidth(String text) {
        try {
            return parseBandwidth(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(withHiddenCharacters(e.getMessage(), text), e);
        }
    }

    private static double parseBandwidth(String text) {
        Quantity m = Quantity.of(text);
        if (m == null) {
            throw new IllegalArgumentException("expected a bandwidth such as '400 Gbps' or '50 GB/s', got '" + text + "'");
        }
        if (m.unit().isEmpty()) {
            // a bare number is bytes for a size and seconds for a duration, but a rate has no such default
            throw new IllegalArgumentException("a bandwidth needs its unit (e.g. '" + m.number() + " Gbps'; units: "
                    + Units.BANDWIDTH_UNITS + "), got '" + text.strip() + "'");
        }
        double bytesPerSecond = Double.parseDouble(m.number()) * Units.bandwidthUnitBytesPerSecond(m.unit());
        if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
            throw new IllegalArgumentException("bandwidth must be positive and finite, got '" + text + "'");
        }
        return bytesPerSecond;
    }

    /**
     * Whether the bandwidth {@code text} is written in bytes a second ("50 GB/s", "400 GBps") rather than
     * bits ("400 Gbps"): a check that finds a rate 8 times too high asks this before suggesting the
     * same number in Gbps. False for a text that is not a bandwidth.
     */
    public static boolean countsBytes(String text) {
        Quantity m = Quantity.of(text);
        return m != null && (m.unit().endsWith("B/s") || m.unit().endsWith("Bps"));
    }

    /** Seconds from "0.5 s", "10 ms", "3 us", "200 ns" or a bare number of seconds, up to {@link #MAX_SECONDS}. */
    public static double seconds(String text) {
        try {
            return parseSeconds(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(withHiddenCharacters(e.getMessage(), text), e);
        }
    }

    private static double parseSeconds(String text) {
        Quantity m = Quantity.of(text);
        if (m == null) {
            throw new IllegalArgumentException("expected a duration such as '0.5 s', '10 ms', '3 us', got '" + text + "'");
        }
        double n = Double.parseDouble(m.number());
        if (n < 0) {
            throw new IllegalArgumentException("duration must not be negative, got '" + text + "'");
        }
        double s = switch (m.unit().toLowerCase(Locale.ROOT)) {
            case "", "s" -> n;
            case "ms" -> n * 1e-3;
            case "us" -> n * 1e-6;
            case "ns" -> n * 1e-9;
            default -> throw new IllegalArgumentException("unknown time unit '" + m.unit() + "' (expected s, ms, us, ns)");
        };
        if (!(s <= MAX_SECONDS)) {
            throw new IllegalArgumentException("duration is over the limit of " + (long) MAX_SECONDS
                    + " s (about 11.6 days), got '" + text + "'");
        }
        return s;
    }
}
