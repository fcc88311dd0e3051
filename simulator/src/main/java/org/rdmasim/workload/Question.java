package org.rdmasim.workload;

import java.util.Locale;

/**
 * What a scenario's variants are run together to answer, which decides the shape of the answer: a
 * ranking by pull time, which configurations fit under a limit, a curve over message size, what
 * faults cost, or a refit's time, bound and what would shorten it.
 */
public enum Question {
    /** Which variant pulls fastest (ranked within each platform when the variants span several). */
    FASTEST("fastest"),
    /** Which variants fit (run to completion) under the limits the scenario sets, and why the others do not. */
    FITS("fits"),
    /** How bandwidth grows with message size: the curve, its peak and its knee. */
    CURVE("curve"),
    /** What the scheduled faults cost against the same run without them. */
    FAULTS("faults"),
    /** How long a refit takes per cycle and by stage, what bounds it, and what each of the top changes would buy. */
    REFIT("refit");

    private final String word;

    Question(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    /** The question named {@code text}; IllegalArgumentException listing the words otherwise. */
    public static Question parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        for (Question q : values()) {
            if (q.word.equals(t)) {
                return q;
            }
        }
        throw new IllegalArgumentException("expected fastest, fits, curve, faults or refit, got '" + text.strip() + "'");
    }
}
