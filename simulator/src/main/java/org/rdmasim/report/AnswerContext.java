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
 */
public record AnswerContext(Question asked, Map<String, String> platformOf) {
    public static final AnswerContext NONE = new AnswerContext(null, Map.of());

    public AnswerContext {
        platformOf = Map.copyOf(platformOf);
    }
}
