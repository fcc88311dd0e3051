package org.rdmasim.transport.config;

import java.util.Optional;
import org.rdmasim.transport.citation.Citation;

/**
 * Why one layer of the stack (ModelExpress, ucx.conf, NIXL) set, kept or skipped a value of a process's
 * configuration, and the code that decides it: {@code explain}'s "note:" line and the JSON's note object are
 * both this record.
 *
 * @param words  the decision in words
 * @param source the code it follows; empty for a note that states a rule of the model, not a line of code
 */
public record ConfigNote(String words, Optional<Citation> source) {
    public static ConfigNote cited(String words, Citation source) {
        return new ConfigNote(words, Optional.of(source));
    }

    public static ConfigNote uncited(String words) {
        return new ConfigNote(words, Optional.empty());
    }

    /** The line as {@code explain} prints it: the words, then {@code ; source: } and the citation. */
    public String text() {
        return source.map(s -> words + "; source: " + s.text()).orElse(words);
    }
}
