package org.rdmasim.memory;

import java.util.Locale;

/**
 * {@code UCX_IB_PCI_RELAXED_ORDERING} (UCX default {@code auto}; NIXL sets {@code try}).
 *
 * <p>Semantics from openucx/ucx {@code src/uct/ib/base/ib_md.c}, {@code uct_ib_md_parse_relaxed_order}
 * and {@code uct_ib_verbs_mem_reg} / {@code uct_ib_memh_alloc}: the MD enables relaxed ordering for
 * {@code yes} (warns if unsupported), for {@code try} when supported, and for {@code auto} when
 * supported and the CPU prefers it; whenever it is enabled, every registration makes the default MR
 * with {@code IBV_ACCESS_RELAXED_ORDERING} and a second, strict-order MR
 * ({@code UCT_IB_MR_STRICT_ORDER}) over the same range. So two MRs per HCA per buffer, else one.
 */
public enum RelaxedOrdering {
    NO, YES, TRY, AUTO;

    public static RelaxedOrdering parse(String text) {
        if (text == null) {
            throw new MemoryInputException("UCX_IB_PCI_RELAXED_ORDERING value is missing");
        }
        // UCS ternary-auto values; UCX also accepts the usual boolean spellings.
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "no", "n", "0", "off", "false" -> NO;
            case "yes", "y", "1", "on", "true" -> YES;
            case "try", "maybe" -> TRY;
            case "auto" -> AUTO;
            default -> throw new MemoryInputException(
                    "UCX_IB_PCI_RELAXED_ORDERING='" + text + "': expected no, yes, try or auto");
        };
    }
}
