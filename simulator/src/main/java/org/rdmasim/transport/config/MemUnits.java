package org.rdmasim.transport.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A UCX memory-units value: a byte count, {@code inf} or {@code auto}.
 *
 * <p>Syntax as in UCX {@code ucs_str_to_memunits} ({@code src/ucs/sys/string.c}): {@code inf} and
 * {@code auto} (any case), or an integer optionally followed by one of {@code B K M G T} (any case,
 * binary: k = 1024) and an optional {@code b}/{@code B}. So {@code 8k}, {@code 4M}, {@code 1g},
 * {@code 64kB} and {@code 512} are sizes; {@code 4MiB} is rejected, as UCX rejects it. UCX reads
 * the number with {@code sscanf("%ld%c%c")} and would ignore a third trailing character and accept a
 * negative number; rdmasim rejects both instead of silently reading something else.
 *
 * @param bytes the size; meaningful only when {@code kind} is {@link Kind#BYTES}
 * @param kind  which of the three forms this is
 */
public record MemUnits(long bytes, Kind kind) {

    /** The three forms a memory-units value can take. */
    public enum Kind { BYTES, INF, AUTO }

    public static final MemUnits INF = new MemUnits(Long.MAX_VALUE, Kind.INF);
    public static final MemUnits AUTO = new MemUnits(0, Kind.AUTO);

    private static final Pattern SIZE = Pattern.compile("(\\d+)([BKMGT]B?)?");

    public MemUnits {
        if (kind == Kind.BYTES && bytes < 0) {
            throw new IllegalArgumentException("negative size");
        }
    }

    public static MemUnits ofBytes(long bytes) {
        return new MemUnits(bytes, Kind.BYTES);
    }

    /**
     * Parses UCX memory units.
     *
     * @throws IllegalArgumentException with what was expected, when {@code text} is not a size
     */
    public static MemUnits parse(String text) {
        String t = text.strip();
        if (t.equalsIgnoreCase("inf")) {
            return INF;
        }
        if (t.equalsIgnoreCase("auto")) {
            return AUTO;
        }
        Matcher m = SIZE.matcher(t.toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "a size in bytes with an optional binary unit (e.g. 8k, 4M, 1g), 'inf' or 'auto'");
        }
        long multiplier = m.group(2) == null ? 1 : switch (m.group(2).charAt(0)) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            case 'T' -> 1L << 40;
            default -> 1L;
        };
        try {
            return ofBytes(Math.multiplyExact(Long.parseLong(m.group(1)), multiplier));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("a size that fits in 64 bits");
        }
    }

    public boolean isInf() {
        return kind == Kind.INF;
    }

    public boolean isAuto() {
        return kind == Kind.AUTO;
    }

    /** The byte count; throws for {@code inf} and {@code auto}, which have none. */
    public long requireBytes() {
        if (kind != Kind.BYTES) {
            throw new IllegalStateException(this + " has no byte count");
        }
        return bytes;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case INF -> "inf";
            case AUTO -> "auto";
            case BYTES -> Long.toString(bytes);
        };
    }
}
