package org.rdmasim.report;

import java.util.Map;
import org.rdmasim.workload.Question;

/**
 * What the answer needs beyond the outcomes: the question the scenario asks (null: inferred from the
 * scenario's shape) and, when its variants run on different platforms, each variant's platform, so
 * variants are ranked against others on the same hardware only.
 *
 * @param asked      the scenario's {@code question}, or null
 * @param platformOf variant name to platform label; empty when every variant runs on the same platform
 * @param withouts   the variants rerun without a calibrated or assumed parameter the page lists (empty: none
 *                   was rerun, and the page shows none)
 * @param otherInstalls the variants whose install the scenario did not state rerun under the other install
 *                   (empty: none was)
 */
public record AnswerContext(Question asked, Map<String, String> platformOf, java.util.List<WithoutAnswer> withouts,
        java.util.List<OtherInstallAnswer> otherInstalls) {
    public static final AnswerContext NONE = new AnswerContext(null, Map.of());

    public AnswerContext {
        platformOf = Map.copyOf(platformOf);
        withouts = java.util.List.copyOf(withouts);
        otherInstalls = java.util.List.copyOf(otherInstalls);
    }

    /** No rerun under the other install. */
    public AnswerContext(Question asked, Map<String, String> platformOf, java.util.List<WithoutAnswer> withouts) {
        this(asked, platformOf, withouts, java.util.List.of());
    }

    /** No rerun without a parameter. */
    public AnswerContext(Question asked, Map<String, String> platformOf) {
        this(asked, platformOf, java.util.List.of());
    }

    /** The same context with {@code reruns}. */
    public AnswerContext withWithouts(java.util.List<WithoutAnswer> reruns) {
        return new AnswerContext(asked, platformOf, reruns, otherInstalls);
    }

    /** The same context with {@code reruns} under the other install. */
    public AnswerContext withOtherInstalls(java.util.List<OtherInstallAnswer> reruns) {
        return new AnswerContext(asked, platformOf, withouts, reruns);
    }
}
