package org.rdmasim.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A size on the command line, with the units scenarios use (scenario {@code Quantities}): decimal
 * "40GB" is 40e9 bytes, binary "40GiB" is 40 * 2^30; a bare number is bytes. Negative sizes are
 * rejected here, so commands never see one.
 */
final class ByteSize implements ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("\\s*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-z]*)\\s*");

    @Override
    public Long convert(String text) {
        return parse(text);
    }

    static long parse(String text) {
        if (text.strip().startsWith("-")) {
            throw new TypeConversionException("size must not be negative, got '" + text + "'");
        }
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new TypeConversionException("expected a size such as 40GB, 80GiB, 4KiB or a byte count, got '"
                    + text + "'");
        }
        double unit;
        try {
            unit = org.rdmasim.hardware.Units.sizeUnitBytes(m.group(2));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage() + " in '" + text + "'");
        }
        double bytes = Double.parseDouble(m.group(1)) * unit;
        if (bytes >= 0x1p63) {
            throw new TypeConversionException("size '" + text + "' is too large");
        }
        return Math.round(bytes);
    }

    /** Binary rendering for tables: "40.00 GiB", "80.0 MiB", "512 B". */
    static String format(long bytes) {
        double b = bytes;
        if (b >= 0x1p50) {
            return String.format(java.util.Locale.ROOT, "%.2f PiB", b / 0x1p50);
        }
        if (b >= 0x1p40) {
            return String.format(java.util.Locale.ROOT, "%.2f TiB", b / 0x1p40);
        }
        if (b >= 0x1p30) {
            return String.format(java.util.Locale.ROOT, "%.2f GiB", b / 0x1p30);
        }
        if (b >= 0x1p20) {
            return bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB"
                    : String.format(java.util.Locale.ROOT, "%.1f MiB", b / 0x1p20);
        }
        if (b >= 0x1p10) {
            return bytes % (1L << 10) == 0 ? (bytes >> 10) + " KiB"
                    : String.format(java.util.Locale.ROOT, "%.1f KiB", b / 0x1p10);
        }
        return bytes + " B";
    }
}
