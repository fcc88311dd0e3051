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
 * @param evidence     what kind of figure it is: a measurement, configuration arithmetic, or an expectation
 *                     (never counted)
 * @param scenario     the scenario file and variant the value comes from, or "-"
 * @param dependsOn    the calibration-profile parameters the modelled value depends on
 * @param calibration  whether the figure was used to calibrate a parameter (shown, not counted)
 * @param knownFailure why the model does not reproduce it today, or empty
 * @param model        computes the modelled value
 * @param nics         NICs in the measured transfer or host (1 for a single-NIC figure, 0 when no NIC is involved)
 * @param uncounted    empty, or the assumption that keeps a measurement from counting (hardware the source does
 *                     not state, posed on other hardware): shown with it, not counted
 */
public record ValidationRow(String id, String source, String what, String setup, double low, double high,
        String unit, double tolerance, Evidence evidence, String scenario, List<String> dependsOn, boolean calibration,
        String knownFailure, Model model, int nics, String uncounted) {

    /** A row of one NIC (or none): the common case. */
    public ValidationRow(String id, String source, String what, String setup, double low, double high, String unit,
            double tolerance, Evidence evidence, String scenario, List<String> dependsOn, boolean calibration,
            String knownFailure, Model model) {
        this(id, source, what, setup, low, high, unit, tolerance, evidence, scenario, dependsOn, calibration,
                knownFailure, model, 1, "");
    }

    /** The same row, posed on {@code count} NICs in one transfer or host. */
    public ValidationRow onNics(int count) {
        return new ValidationRow(id, source, what, setup, low, high, unit, tolerance, evidence, scenario, dependsOn,
                calibration, knownFailure, model, count, uncounted);
    }

    /** The same row shown and not counted, because of {@code assumption} (what the source leaves unstated). */
    public ValidationRow notCounted(String assumption) {
        if (assumption == null || assumption.isBlank()) {
            throw new IllegalArgumentException("a row left uncounted names the assumption that keeps it out");
        }
        return new ValidationRow(id, source, what, setup, low, high, unit, tolerance, evidence, scenario, dependsOn,
                calibration, knownFailure, model, nics, assumption);
    }

    /**
     * What kind of figure a row holds. Only measurements and configuration arithmetic can pass or fail;
     * an expectation (a proposal's expected impact, a theoretical ceiling, a rule of thumb, a vendor's
     * line-rate figure) is checked against the line-rate floor and the model and never counted.
     */
    public enum Evidence {
        /** measured on real hardware and published with its setup */
        MEASUREMENT,
        /** follows from the real stack's code or configuration by arithmetic (counts, sizes, settings) */
        CONFIGURATION,
        /** expected, estimated or claimed, not measured: checked apart, never a pass */
        EXPECTATION
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
