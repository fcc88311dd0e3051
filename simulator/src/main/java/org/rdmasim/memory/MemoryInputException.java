package org.rdmasim.memory;

/** Invalid input to the memory model: a negative size, an unknown page size or setting, and so on. */
public final class MemoryInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MemoryInputException(String message) {
        super(message);
    }

    static long requireNonNegative(long value, String what) {
        if (value < 0) {
            throw new MemoryInputException(what + " must be >= 0 bytes, got " + value);
        }
        return value;
    }

    static double requireNonNegative(double value, String what) {
        if (!(value >= 0) || Double.isNaN(value)) {
            throw new MemoryInputException(what + " must be a number >= 0, got " + value);
        }
        return value;
    }

    static String requireName(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new MemoryInputException(what + " must be a non-empty name");
        }
        return value;
    }
}
