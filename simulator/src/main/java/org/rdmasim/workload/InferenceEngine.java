package org.rdmasim.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The inference engine a refit's receiving ranks run, where its own load path decides a cost. */
public enum InferenceEngine {
    VLLM("vllm"),
    SGLANG("sglang");

    private final String spelling;

    InferenceEngine(String spelling) {
        this.spelling = spelling;
    }

    /** How a scenario spells it. */
    public String spelling() {
        return spelling;
    }

    /** The engine a scenario's {@code inference.engine} names, case-insensitively. */
    public static Optional<InferenceEngine> of(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(e -> e.spelling.equals(t)).findFirst();
    }
}
