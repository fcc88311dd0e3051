package org.rdmasim.validation;

import java.util.List;

/**
 * One published figure and how rdmasim computes its counterpart.
 *
 * @param id           short identifier, e.g. {@code S2} or {@code PEGA-R2}
 * @param source       where the figure is published (repository and issue, or seed document)
 * @param what         what the figure is
 * @param setup        the setup as published
 * @param low          the published value, or the low end of a published range
 * @param high         the high end of a published range (equal to {@code low} for one value)
 * @param unit         the unit of published and modelled values
 * @param tolerance    relative tolerance around the published range
 * @param check        how the row passes
 * @param scenario     the scenario file and variant the value comes from, or "-"
 * @param dependsOn    the calibration-profile parameters the modelled value depends on
 * @param calibration  whether the figure was used to calibrate a parameter (shown, not counted)
 * @param knownFailure why the model does not reproduce it today, or empty
 * @param model        computes the modelled value
 */
public record ValidationRow(String id, String source, String what, String setup, double low, double high,
        String unit, double tolerance, Check check, String scenario, List<String> dependsOn, boolean calibration,
        String knownFailure, Model model) {

    /** How a row passes. */
    public enum Check {
        /** the modelled value lies within the published range, widened by the tolerance */
        VALUE,
        /** the published claim is physically impossible on the modelled hardware, and rdmasim flags it */
        FLAGGED
    }

    /** What the model says for a row. */
    public record Modelled(double value, boolean flagged, String note) {
        static Modelled value(double v, String note) {
            return new Modelled(v, false, note);
        }
    }

    /** Computes a row's modelled value. */
    @FunctionalInterface
    public interface Model {
        Modelled compute(ScenarioRuns runs) throws Exception;
    }
}
