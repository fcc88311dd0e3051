package org.rdmasim.validation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs every row of the catalog and judges it. */
public final class Validation {

    /** What one row came to. */
    public record Result(ValidationRow row, double modelled, boolean flagged, String note, Verdict verdict) {
        /**
         * Whether the row counts as validation: every row not used to calibrate. A known failure counts
         * (it is a published figure the model misses), it is only labelled with why.
         */
        public boolean counted() {
            return !row.calibration();
        }

        public boolean pass() {
            return verdict == Verdict.PASS;
        }
    }

    /** The verdict of one row. */
    public enum Verdict {
        PASS("pass"), FAIL("FAIL"), KNOWN_FAILURE("known failure"), UNEXPECTED_PASS("UNEXPECTED PASS"),
        ERROR("ERROR");

        private final String words;

        Verdict(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    private Validation() {
    }

    public static List<Result> run(List<ValidationRow> rows, Path scenarios, Consumer<String> progress) {
        ScenarioRuns runs = new ScenarioRuns(scenarios);
        List<Result> out = new ArrayList<>();
        for (ValidationRow row : rows) {
            progress.accept(row.id());
            ValidationRow.Modelled m;
            try {
                m = row.model().compute(runs);
            } catch (Exception e) {
                out.add(new Result(row, Double.NaN, false, e.getClass().getSimpleName() + ": " + e.getMessage(),
                        Verdict.ERROR));
                continue;
            }
            boolean within = within(row, m.value());
            boolean ok = row.check() == ValidationRow.Check.FLAGGED ? m.flagged() : within;
            Verdict v;
            if (!row.knownFailure().isEmpty()) {
                v = ok ? Verdict.UNEXPECTED_PASS : Verdict.KNOWN_FAILURE;
            } else {
                v = ok ? Verdict.PASS : Verdict.FAIL;
            }
            out.add(new Result(row, m.value(), m.flagged(), m.note(), v));
        }
        return out;
    }

    /** Whether {@code value} lies in the published range widened by the row's relative tolerance. */
    static boolean within(ValidationRow row, double value) {
        return value >= row.low() * (1 - row.tolerance()) - 1e-12 && value <= row.high() * (1 + row.tolerance()) + 1e-12;
    }

    /** Exit status of {@code validate}: every counted row passes (known failures included). */
    public static boolean allGood(List<Result> results) {
        for (Result r : results) {
            if (r.verdict() == Verdict.ERROR || r.verdict() == Verdict.UNEXPECTED_PASS) {
                return false;
            }
            if (r.counted() && r.verdict() != Verdict.PASS) {
                return false;
            }
        }
        return true;
    }

    /**
     * Exit status of {@code validate --no-regression} (what CI runs): no row that passed when the
     * catalog was written fails now, and no known failure passes without its label being removed (so
     * the list of known failures stays true in both directions).
     */
    public static boolean noRegression(List<Result> results) {
        for (Result r : results) {
            if (r.verdict() == Verdict.ERROR || r.verdict() == Verdict.UNEXPECTED_PASS) {
                return false;
            }
            if (r.counted() && r.verdict() == Verdict.FAIL) {
                return false;
            }
        }
        return true;
    }
}
