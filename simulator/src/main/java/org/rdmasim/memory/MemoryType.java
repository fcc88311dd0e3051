package org.rdmasim.memory;

import java.util.Locale;

/** Where a registered buffer lives. Names match UCX's memory type names ("host", "cuda"). */
public enum MemoryType {
    HOST("host"),
    CUDA("cuda");

    private final String ucxName;

    MemoryType(String ucxName) {
        this.ucxName = ucxName;
    }

    /** The name UCX prints for this memory type, e.g. in "failed to register address ... (cuda)". */
    public String ucxName() {
        return ucxName;
    }

    public static MemoryType parse(String text) {
        if (text != null) {
            String t = text.trim().toLowerCase(Locale.ROOT);
            for (MemoryType type : values()) {
                if (type.ucxName.equals(t)) {
                    return type;
                }
            }
        }
        throw new MemoryInputException("unknown memory type '" + text + "': expected cuda or host");
    }
}
