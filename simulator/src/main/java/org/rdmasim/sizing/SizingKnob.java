package org.rdmasim.sizing;

import java.util.Locale;
import java.util.Optional;

/** A setting that {@code size --vary} turns, named as the option spells it. */
public interface SizingKnob {
    /** The knob's constant, e.g. {@code TREE_DEGREE}. */
    String name();

    /** The knob's name, as given to {@code --vary}: its constant in lower case, words joined by hyphens. */
    default String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The knob among {@code knobs} whose label is {@code text}, ignoring case; empty when none is. */
    static <K extends SizingKnob> Optional<K> named(K[] knobs, String text) {
        for (K k : knobs) {
            if (k.label().equalsIgnoreCase(text)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
