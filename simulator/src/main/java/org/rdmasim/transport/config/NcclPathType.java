package org.rdmasim.transport.config;

import java.util.List;

/**
 * NCCL's path types, in the order of current NCCL ({@code topoPathTypeStr[]} in {@code src/graph/topo.cc},
 * {@code PATH_*} in {@code src/graph/topo.h}): a smaller ordinal is a closer path. Used for
 * {@code NCCL_NET_GDR_LEVEL}: GPUDirect RDMA is used when the GPU-NIC path is at most this level.
 * The list changed across releases ({@link #number}), so comparisons at a given release go by its numbers.
 */
public enum NcclPathType {
    LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS, NET, DIS;

    /** {@code PATH_C2C} first appears in NVIDIA/nccl v2.26.2-1 (topo.cc L26; absent from v2.25.1-1 L26). */
    static final StackVersion C2C_SINCE = new StackVersion(2, 26, 2);
    /** {@code PATH_P2C} first appears in v2.27.3-1, after PXN (topo.cc L24). */
    static final StackVersion P2C_SINCE = new StackVersion(2, 27, 3);
    /** From v2.27.5-1 P2C comes before PXN (topo.cc L24), as in every later release up to v2.30.7-1. */
    static final StackVersion P2C_BEFORE_PXN = new StackVersion(2, 27, 5);

    private static final List<NcclPathType> BEFORE_C2C = List.of(LOC, NVL, NVB, PIX, PXB, PXN, PHB, SYS, NET, DIS);
    private static final List<NcclPathType> BEFORE_P2C = List.of(LOC, NVL, NVB, C2C, PIX, PXB, PXN, PHB, SYS, NET, DIS);
    private static final List<NcclPathType> P2C_AFTER_PXN =
            List.of(LOC, NVL, NVB, C2C, PIX, PXB, PXN, P2C, PHB, SYS, NET, DIS);

    /** The type's {@code PATH_*} number at an NCCL release, or -1 when that release has no such type. */
    public int number(StackVersion nccl) {
        return order(nccl).indexOf(this);
    }

    private static List<NcclPathType> order(StackVersion nccl) {
        if (!nccl.atLeast(C2C_SINCE)) {
            return BEFORE_C2C;
        }
        if (!nccl.atLeast(P2C_SINCE)) {
            return BEFORE_P2C;
        }
        return nccl.atLeast(P2C_BEFORE_PXN) ? List.of(values()) : P2C_AFTER_PXN;
    }

    /** Whether this path is at most {@code limit} at an NCCL release; both must exist there. */
    public boolean atMost(NcclPathType limit, StackVersion nccl) {
        int self = number(nccl);
        int max = limit.number(nccl);
        if (self < 0 || max < 0) {
            throw new IllegalArgumentException("NCCL " + nccl + " has no path type " + (self < 0 ? this : limit));
        }
        return self <= max;
    }

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
        return parseLevel(text, null);
    }

    /**
     * As {@link #parseLevel(String)}, with the names the given NCCL release knows ({@code ncclGetLevel}
     * compares against {@code topoPathTypeStr[0..PATH_SYS]} of its own release, paths.cc v2.27.3-1 L224);
     * {@code null} for the current list.
     */
    public static NcclPathType parseLevel(String text, StackVersion nccl) {
        List<NcclPathType> names = nccl == null ? List.of(values()) : order(nccl);
        for (NcclPathType t : names) {
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
