package org.rdmasim.transport.config;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code UCX_RNDV_FRAG_SIZE}: the bounce-buffer fragment size per memory type, written as
 * {@code host:512K,cuda:4M}. Memory types the list leaves out keep UCX's built-in size
 * ({@link MemoryType}), as in {@code ucp_context.c}, which starts from
 * {@code ucp_rndv_frag_default_sizes[]} and overwrites only the listed types.
 *
 * @param sizes bytes per memory type, every type present
 */
public record FragSizes(Map<MemoryType, Long> sizes) {

    public FragSizes {
        sizes = Collections.unmodifiableMap(new EnumMap<>(sizes));
    }

    public static FragSizes parse(String text) {
        EnumMap<MemoryType, Long> sizes = new EnumMap<>(MemoryType.class);
        for (MemoryType t : MemoryType.values()) {
            sizes.put(t, t.defaultFragSize());
        }
        for (String item : text.split(",")) {
            String entry = item.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("a list of MEMTYPE:SIZE items such as host:512K,cuda:4M");
            }
            MemoryType type = MemoryType.fromUcxName(entry.substring(0, colon).strip());
            MemUnits size;
            try {
                size = MemUnits.parse(entry.substring(colon + 1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a size after '" + type.ucxName() + ":' (" + e.getMessage() + ")");
            }
            if (size.kind() != MemUnits.Kind.BYTES) {
                throw new IllegalArgumentException("a byte size after '" + type.ucxName() + ":', not " + size);
            }
            sizes.put(type, size.bytes());
        }
        return new FragSizes(sizes);
    }

    public long bytesFor(MemoryType type) {
        return sizes.get(type);
    }
}
