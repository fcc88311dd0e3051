package org.rdmasim.transport.citation;

import java.util.List;

/**
 * One decision in words and the code it follows: {@code explain} prints {@link #text()} (the words, then
 * {@code ; source: } and the citations), the JSON writes the words and each citation as fields. A note that states a
 * rule of the model, or a line of a table, has no source.
 *
 * @param words   the decision in words
 * @param sources the code it follows, in the order printed; empty for none
 */
public record CitedNote(String words, List<Citation> sources) {
    public CitedNote {
        sources = List.copyOf(sources);
    }

    public static CitedNote cited(String words, Citation... sources) {
        return new CitedNote(words, List.of(sources));
    }

    public static CitedNote uncited(String words) {
        return new CitedNote(words, List.of());
    }

    /** The line as {@code explain} prints it. */
    public String text() {
        return sources.isEmpty() ? words : words + "; source: " + Citation.join(sources);
    }
}
