package org.rdmasim.memory;

/** Binary and decimal byte multiples, named so that GB (1e9) and GiB (2^30) cannot be confused. */
public final class ByteUnits {
    public static final long KIB = 1L << 10;
    public static final long MIB = 1L << 20;
    public static final long GIB = 1L << 30;
    public static final long TIB = 1L << 40;
    public static final long PIB = 1L << 50;
    /** Decimal gigabyte. */
    public static final long GB = 1_000_000_000L;

    private ByteUnits() {
    }

    /** {@code value} GiB rounded to the nearest byte, for figures quoted as e.g. "139.80 GiB". */
    public static long gib(double value) {
        MemoryInputException.requireNonNegative(value, "GiB value");
        return Math.round(value * GIB);
    }

    /** {@code value} TiB rounded to the nearest byte. */
    public static long tib(double value) {
        MemoryInputException.requireNonNegative(value, "TiB value");
        return Math.round(value * TIB);
    }

    static long ceilDiv(long numerator, long denominator) {
        return -Math.floorDiv(-numerator, denominator);
    }

    static long roundUp(long value, long granularity) {
        return Math.multiplyExact(ceilDiv(value, granularity), granularity);
    }
}
