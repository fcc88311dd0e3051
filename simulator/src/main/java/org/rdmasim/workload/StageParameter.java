package org.rdmasim.workload;

import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.memory.RegistrationParameters;

/**
 * One named number a refit's stage costs rest on: a stage parameter ({@code refit.bucketSeconds}, the NCCL step)
 * or a registration term. Kept as fields, not as its report line, so what reads it (the calibrated stage that
 * bounds a cycle, the rerun without it, summary.json) never takes a line apart.
 *
 * @param key      the parameter's key, e.g. {@code refit.bucketSeconds}, or what a registration term prices
 * @param value    its value with its unit, as reports write it, e.g. {@code 38.5 ms}
 * @param evidence where the value comes from
 */
public record StageParameter(String key, String value, Evidence evidence) {

    /**
     * How a value was obtained and from what.
     *
     * @param kind   derived (from source code or a datasheet), calibrated (fitted to a measurement) or assumed
     * @param source for a derived value the code it comes from; for a calibrated one the measurement (the
     *               published row) it was fitted on; for an assumed one why it is assumed
     */
    public record Evidence(CalibrationProfile.Kind kind, String source) {
        public boolean calibrated() {
            return kind == CalibrationProfile.Kind.CALIBRATED;
        }
    }

    /** A stage parameter of a refit's calibration. */
    public static StageParameter of(CalibrationProfile.Parameter p) {
        return new StageParameter(p.key(), p.shown(), new Evidence(p.kind(), p.source()));
    }

    /** A registration term. */
    public static StageParameter of(RegistrationParameters.Term t) {
        return new StageParameter(t.parameter(), t.value(), new Evidence(t.kind(), t.source()));
    }

    /** The line the text reports print: {@code key = value, kind (source)}. */
    public String line() {
        return key + " = " + value + ", " + evidence.kind().word() + " (" + evidence.source() + ")";
    }
}
