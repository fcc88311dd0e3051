package org.rdmasim.memory;

/**
 * Page size the HCA's translation table maps a region with: one 8-byte entry per page. Only the
 * sizes below are modelled; others are rejected rather than guessed.
 */
public enum TranslationPageSize {
    KIB_4(4 * ByteUnits.KIB),
    KIB_64(64 * ByteUnits.KIB),
    MIB_2(2 * ByteUnits.MIB);

    private final long bytes;

    TranslationPageSize(long bytes) {
        this.bytes = bytes;
    }

    public long bytes() {
        return bytes;
    }

    public static TranslationPageSize ofBytes(long bytes) {
        for (TranslationPageSize size : values()) {
            if (size.bytes == bytes) {
                return size;
            }
        }
        throw new MemoryInputException("unsupported translation page size " + bytes
                + " bytes: expected 4096 (4 KiB), 65536 (64 KiB) or 2097152 (2 MiB)");
    }

    /** Pages of this size touched by {@code [address, address + length)}; 0 for an empty range. */
    public long pagesCovering(long address, long length) {
        if (length == 0) {
            return 0;
        }
        long first = Math.floorDiv(address, bytes);
        long last = Math.floorDiv(Math.addExact(address, length - 1), bytes);
        return last - first + 1;
    }
}
