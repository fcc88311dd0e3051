package org.rdmasim.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A size on the command line, read by {@link org.rdmasim.hardware.QuantityText} exactly as a scenario's
 * sizes are: decimal "40GB" is 40e9 bytes, binary "40GiB" is 40 * 2^30; a bare number is bytes.
 * Negative sizes and fractions of a byte written in bytes are rejected, so commands never see one; a size
 * in a larger unit is read to the nearest byte ("0.04TiB", a published figure).
 */
final class ByteSize implements ITypeConverter<Long> {

    @Override
    public Long convert(String text) {
        return parse(text);
    }

    static long parse(String text) {
        try {
            return org.rdmasim.hardware.QuantityText.bytes(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** A buffer to register: at least one byte (registering nothing is not a registration). */
    static final class Buffer implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            long bytes = parse(text);
            if (bytes < 1) {
                throw new TypeConversionException("a buffer holds at least one byte, got '" + text + "'");
            }
            return bytes;
        }
    }

    /** Physical host memory, with the range its declaration gives ({@code registration.hostMemory}). */
    static final class HostMemory implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            try {
                return org.rdmasim.scenario.Parameters.HOST_MEMORY.read(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A size as a user would have written it ({@link org.rdmasim.hardware.Units#sizeAsWritten}). */
    static String asWritten(long bytes) {
        return org.rdmasim.hardware.Units.sizeAsWritten(bytes, " ");
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
