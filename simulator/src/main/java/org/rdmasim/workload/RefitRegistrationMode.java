package org.rdmasim.workload;

import java.util.Optional;

/**
 * How a refit registers the GPU memory its NICs touch ({@code workload: refit: registration:}), ModelExpress'
 * three modes (ai-dynamo/modelexpress {@code docs/BENCHMARKS.md}):
 * <ul>
 *   <li>{@link #PER_TENSOR}: one registration per tensor (NIXL's default in ModelExpress);</li>
 *   <li>{@link #POOLED}: one per allocator segment ({@code MX_POOL_REG=1});</li>
 *   <li>{@link #ARENA}: one for the whole buffer ({@code MX_VMM_ARENA=1}).</li>
 * </ul>
 */
public enum RefitRegistrationMode implements Spelled {
    PER_TENSOR("per-tensor"),
    POOLED("pool"),
    ARENA("arena");

    private final String spelling;

    RefitRegistrationMode(String spelling) {
        this.spelling = spelling;
    }

    /** The name a scenario writes ({@code pool}). */
    @Override
    public String spelling() {
        return spelling;
    }

    /** The mode a scenario spells {@code text}, case-insensitively, or empty when no mode is spelt so. */
    public static Optional<RefitRegistrationMode> of(String text) {
        return Spelled.named(values(), text);
    }

    /** Every spelling, as a message lists them: "per-tensor, pool or arena". */
    public static String expected() {
        return Spelled.listed(values());
    }
}
