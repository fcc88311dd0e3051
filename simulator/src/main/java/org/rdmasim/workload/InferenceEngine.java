package org.rdmasim.workload;

import java.util.Optional;

/** The inference engine a refit's receiving ranks run, where its own load path decides a cost. */
public enum InferenceEngine implements Spelled {
    VLLM("vllm"),
    SGLANG("sglang");

    private final String spelling;

    InferenceEngine(String spelling) {
        this.spelling = spelling;
    }

    @Override
    public String spelling() {
        return spelling;
    }

    /** The engine a scenario's {@code inference.engine} names, case-insensitively. */
    public static Optional<InferenceEngine> of(String text) {
        return Spelled.named(values(), text);
    }

    /** Every spelling, as a message lists them: "vllm or sglang". */
    public static String expected() {
        return Spelled.listed(values());
    }
}
