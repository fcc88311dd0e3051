package org.rdmasim.workload;

import java.util.Locale;
import java.util.Optional;

/**
 * A value a scenario names by a word of its own ({@code rdma-pull}, {@code pool}, {@code sglang}), not by the
 * constant's Java name. The look-up and the list a message gives are here once for every such enum.
 */
public interface Spelled {
    /** How a scenario writes it. */
    String spelling();

    /** The value among {@code values} spelt {@code text}, case-insensitively, or empty when none is. */
    static <E extends Spelled> Optional<E> named(E[] values, String text) {
        String t = text.toLowerCase(Locale.ROOT);
        for (E v : values) {
            if (v.spelling().equals(t)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** Every spelling of {@code values}, in order: the words a refusal's "did you mean" chooses among. */
    static java.util.List<String> spellings(Spelled[] values) {
        return java.util.Arrays.stream(values).map(Spelled::spelling).toList();
    }

    /** Every spelling of {@code values} as a message lists them: "per-tensor, pool or arena". */
    static String listed(Spelled[] values) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : i == values.length - 1 ? " or " : ", ").append(values[i].spelling());
        }
        return out.toString();
    }
}
