package org.rdmasim.validation;

import java.util.List;

/**
 * One published figure and how rdmasim computes its counterpart. A catalog builds one by name, part by part:
 * {@link #measured}, {@link #configured} or {@link #expected}, then what, setup, published, tolerance, scenario
 * and the rest, ended by the model.
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

    /** A figure measured on real hardware and published with its setup: {@link Evidence#MEASUREMENT}. */
    public static Builder measured(String id, String source) {
        return new Builder(id, source, Evidence.MEASUREMENT);
    }

    /** A figure that follows from the real stack's code or configuration: {@link Evidence#CONFIGURATION}. */
    public static Builder configured(String id, String source) {
        return new Builder(id, source, Evidence.CONFIGURATION);
    }

    /** A figure expected, estimated or claimed, never a pass: {@link Evidence#EXPECTATION}. */
    public static Builder expected(String id, String source) {
        return new Builder(id, source, Evidence.EXPECTATION);
    }

    /**
     * Names a row's parts one by one, so a catalog entry reads as what it holds. {@link #model} ends the row:
     * what, setup, the published value, the tolerance and the scenario (or {@link #noScenario}) must be given
     * by then; dependsOn, calibration and knownFailure default to none, false and empty. The row is on one
     * NIC and counted; {@link ValidationRow#onNics} and {@link ValidationRow#notCounted} change that.
     */
    public static final class Builder {
        private final String id;
        private final String source;
        private final Evidence evidence;
        private String what;
        private String setup;
        private Double low;
        private Double high;
        private String unit;
        private Double tolerance;
        private String scenario;
        private List<String> dependsOn = List.of();
        private boolean calibration;
        private String knownFailure = "";

        private Builder(String id, String source, Evidence evidence) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("a validation row has no id");
            }
            this.id = id;
            this.source = require(source, "source");
            this.evidence = evidence;
        }

        /** What the figure is. */
        public Builder what(String what) {
            this.what = require(what, "what");
            return this;
        }

        /** The setup as published, with what rdmasim poses where the source is silent. */
        public Builder setup(String setup) {
            this.setup = require(setup, "setup");
            return this;
        }

        /** One published value in {@code unit} (also the unit of the modelled value). */
        public Builder published(double value, String unit) {
            return published(value, value, unit);
        }

        /** A published range from {@code low} to {@code high} in {@code unit}. */
        public Builder published(double low, double high, String unit) {
            this.low = low;
            this.high = high;
            this.unit = require(unit, "unit");
            return this;
        }

        /** The relative tolerance around the published value or range (0 for an exact count). */
        public Builder tolerance(double relative) {
            this.tolerance = relative;
            return this;
        }

        /** The scenario file and variant the modelled value comes from ({@code file#variant}). */
        public Builder scenario(String fileAndVariant) {
            this.scenario = require(fileAndVariant, "scenario");
            return this;
        }

        /** The modelled value is computed directly, from no scenario run (shown as "-"). */
        public Builder noScenario() {
            return scenario("-");
        }

        /** The calibration-profile parameters the modelled value depends on. */
        public Builder dependsOn(List<String> parameters) {
            this.dependsOn = require(parameters, "dependsOn");
            return this;
        }

        /**
         * Whether the figure was used to calibrate a parameter (then shown, not counted). Only a measurement can
         * be: a number chosen to land in an expectation's range (a vendor's claim, a proposal's estimate) is
         * assumed, and the row stays an expectation held beside the model.
         */
        public Builder calibration(boolean usedToCalibrate) {
            if (usedToCalibrate && evidence != Evidence.MEASUREMENT) {
                throw new IllegalStateException("validation row " + id + ": " + (evidence == Evidence.EXPECTATION
                        ? "an expectation" : "configuration arithmetic") + " cannot be a calibration row; only a "
                        + "measurement is fitted to");
            }
            this.calibration = usedToCalibrate;
            return this;
        }

        /** Why the model does not reproduce the figure today (empty when it does). */
        public Builder knownFailure(String why) {
            this.knownFailure = require(why, "knownFailure");
            return this;
        }

        /** Ends the row with how its modelled value is computed; throws when a required part is missing. */
        public ValidationRow model(Model model) {
            require(model, "model");
            require(what, "what");
            require(setup, "setup");
            require(low, "published");
            require(tolerance, "tolerance");
            require(scenario, "scenario");
            return new ValidationRow(id, source, what, setup, low, high, unit, tolerance, evidence, scenario,
                    dependsOn, calibration, knownFailure, model, 1, "");
        }

        private <T> T require(T value, String field) {
            if (value == null) {
                throw new IllegalStateException("validation row " + id + ": no " + field);
            }
            return value;
        }
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
