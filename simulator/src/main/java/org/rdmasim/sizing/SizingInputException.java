package org.rdmasim.sizing;

import org.rdmasim.scenario.VariantSpec;

/**
 * Something the user asked of a sizing that cannot be done (a {@code --max} past the knob's bound, a knob the
 * variant's method has no use for): reported with exit code 2 and this message.
 */
public final class SizingInputException extends IllegalArgumentException {
    public SizingInputException(String message) {
        super(message);
    }

    /** {@code --max} past the largest value of {@code knob} worth trying on {@code variant}, and why that is the largest. */
    static SizingInputException maxAboveBound(int max, SizingKnob knob, VariantSpec variant, long largest, String why) {
        return new SizingInputException("--max " + max + " is above the largest " + knob.label() + " worth trying for '"
                + variant.name() + "': " + largest + " (" + why + ")");
    }
}
