package org.rdmasim.transport.config;

/**
 * NCCL's path types, in NCCL's order ({@code topoPathTypeStr[]} in {@code src/graph/topo.cc},
 * {@code PATH_*} in {@code src/graph/topo.h}): a smaller ordinal is a closer path. Used for
 * {@code NCCL_NET_GDR_LEVEL}: GPUDirect RDMA is used when the GPU-NIC path is at most this level.
 */
public enum NcclPathType {
    LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS, NET, DIS;

    /**
     * Old numeric levels, NCCL's {@code levelsOldToNew[]} in {@code src/graph/paths.cc}: index
     * 0..5 map to LOC, PIX, PXB, PHB, SYS, SYS; larger numbers are clamped to the last.
     */
    private static final NcclPathType[] OLD_LEVELS = {LOC, PIX, PXB, PHB, SYS, SYS};

    public boolean atMost(NcclPathType limit) {
        return ordinal() <= limit.ordinal();
    }

    /**
     * Parses a level as {@code ncclGetLevel} does: an exact, case-sensitive name from LOC to SYS,
     * or, if the text starts with a digit, an old-style number read with {@code strtol(str, 0)}.
     *
     * @return the level, or {@code null} when NCCL would not recognise the text (NCCL then keeps
     *         its default and says nothing)
     */
    public static NcclPathType parseLevel(String text) {
        for (NcclPathType t : values()) {
            if (t.ordinal() <= SYS.ordinal() && t.name().equals(text)) {
                return t;
            }
        }
        if (!text.isEmpty() && Character.isDigit(text.charAt(0))) {
            long old = NcclNumbers.strtoll(text).value();
            int index = (int) Math.max(0, Math.min(old, OLD_LEVELS.length - 1));
            return OLD_LEVELS[index];
        }
        return null;
    }
}
