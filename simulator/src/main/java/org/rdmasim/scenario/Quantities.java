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
            return wholeBytes(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error(withHiddenCharacters(e.getMessage(), v.text()));
        }
    }

    /**
     * {@link QuantityText#bytes}, refusing a size written in bytes that is not a whole number of them ("1.5 B",
     * "1.5"), which that reading rounds: a transfer of 1.5 bytes is a typo, not 2 bytes. A size in a larger
     * unit is rounded to the nearest byte ("3.02 GiB", a published bucket size, is 3,242,697,851 bytes).
     */
    public static long wholeBytes(String text) {
        long rounded = QuantityText.bytes(text);
        // QuantityText accepted the text, so it is a number followed by a unit of letters
        String t = text.strip();
        int unitStart = t.length();
        while (unitStart > 0 && Character.isLetter(t.charAt(unitStart - 1))) {
            unitStart--;
        }
        long unit = (long) Units.sizeUnitBytes(t.substring(unitStart));
        java.math.BigDecimal exact = new java.math.BigDecimal(t.substring(0, unitStart).strip())
                .multiply(java.math.BigDecimal.valueOf(unit));
        if (unit == 1 && exact.signum() != 0 && exact.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("a size is a whole number of bytes, got '" + text + "' ("
                    + exact.stripTrailingZeros().toPlainString() + " bytes)");
        }
        return rounded;
    }

    /**
     * {@code message} about {@code text}, saying which character of it is a space or mark that looks like
     * nothing or like an ASCII space (a no-break space pasted from a web page or a document: "1\u00a0GB"
     * prints as "1 GB" and reads as valid), when it holds one; the message alone otherwise.
     */
    public static String withHiddenCharacters(String message, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7f && (Character.isSpaceChar(c) || Character.isWhitespace(c)
                    || Character.getType(c) == Character.FORMAT)) {
                String name = Character.getName(c);
                return message + " (the value contains a " + (name == null ? "non-ASCII space"
                        : name.toLowerCase(java.util.Locale.ROOT)) + String.format(java.util.Locale.ROOT,
                        ", U+%04X, at character %d: write a plain space", (int) c, i + 1) + ")";
            }
        }
        return message;
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
            throw v.error(withHiddenCharacters(e.getMessage(), v.text()));
        }
    }

    /** Duration in seconds from "0.5 s", "10 ms", "3 us", "200 ns" or a bare number of seconds. */
    public static double seconds(YamlTree v) {
        try {
            return QuantityText.seconds(v.text());
        } catch (IllegalArgumentException e) {
            throw v.error(withHiddenCharacters(e.getMessage(), v.text()));
        }
    }
}
