package org.rdmasim.validation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** Runs every row of the catalog and judges it. */
public final class Validation {

    /** What one row came to. */
    public record Result(ValidationRow row, double modelled, boolean flagged, String note, Verdict verdict) {
        /**
         * Whether the row counts as validation: a measurement or configuration row not used to calibrate.
         * A known failure counts (it is a published figure the model misses), it is only labelled with why;
         * an expectation never counts, whatever the model says of it.
         */
        public boolean counted() {
            return !row.calibration() && row.uncounted().isEmpty()
                    && row.evidence() != ValidationRow.Evidence.EXPECTATION;
        }

        /** Whether the row is a counted measurement (not configuration arithmetic). */
        public boolean countedMeasurement() {
            return counted() && row.evidence() == ValidationRow.Evidence.MEASUREMENT;
        }

        /** Whether the row passes: never a calibration row, which is {@link Verdict#FITTED} at best. */
        public boolean pass() {
            return verdict == Verdict.PASS;
        }

        /** Whether the modelled value is within tolerance of the published figure, whatever the row's kind. */
        public boolean withinTolerance() {
            return !Double.isNaN(modelled) && within(row, modelled);
        }
    }

    /** The verdict of one row. */
    public enum Verdict {
        PASS("pass"),
        /**
         * a calibration row the model lands within tolerance of: the figure a parameter was fitted to, so
         * reproducing it shows the fit holds, never that the model is right (not a pass)
         */
        FITTED("fitted"),
        FAIL("FAIL"), KNOWN_FAILURE("known failure"), UNEXPECTED_PASS("UNEXPECTED PASS"),
        ERROR("ERROR"),
        /** an expectation that promises more than the line-rate floor of its hardware allows */
        FLAGGED("flagged"),
        /** an expectation the model reproduces (still not a validation) */
        AGREES("expectation: the model agrees"),
        /** an expectation the model does not reproduce */
        DISAGREES("expectation: the model disagrees");

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

    /** The heading of a section of rows of one kind. */
    public static String sectionTitle(ValidationRow.Evidence kind) {
        return switch (kind) {
            case MEASUREMENT -> "Published measurements (counted; calibration rows shown, not counted)";
            case CONFIGURATION -> "Configuration arithmetic (counted apart from measurements: counts, sizes, settings "
                    + "that follow from the stack's code)";
            case EXPECTATION -> "Expectations and claims (never counted: checked against the line-rate floor and the "
                    + "model; 'flagged' when they promise more than the floor allows)";
        };
    }

    /**
     * What the rows came to, by kind.
     *
     * @param measurements       counted measurement rows
     * @param measurementsPassed of which pass
     * @param multiNic           counted measurement rows with two or more NICs in one transfer or host
     * @param multiNicPassed     of which pass
     * @param configurations     counted configuration rows
     * @param configurationsPassed of which pass
     * @param calibration        rows used to calibrate (shown, not counted)
     * @param expectations       expectation rows (never counted)
     * @param flagged            of which flagged
     * @param posed              measurements shown and not counted, each row saying why (hardware or setup the
     *                           source leaves unstated, a lower bound, a second run of a counted configuration)
     */
    public record Tally(int rows, int measurements, int measurementsPassed, int multiNic, int multiNicPassed,
            int configurations, int configurationsPassed, int calibration, int expectations, int flagged, int posed) {
        public String describe() {
            return String.format(java.util.Locale.ROOT, "%d rows: %d of %d counted measurements pass (%d of %d with two or "
                    + "more NICs), %d of %d configuration rows pass, %d calibration rows not counted, %d expectations "
                    + "not counted (%d flagged)", rows, measurementsPassed, measurements, multiNicPassed, multiNic,
                    configurationsPassed, configurations, calibration, expectations, flagged)
                    + (posed == 0 ? "" : String.format(java.util.Locale.ROOT, ", %d measurements not counted "
                            + "(each row says why: an assumed setup, a lower bound, a repeat)", posed));
        }
    }

    public static Tally tally(List<Result> results) {
        int m = 0, mp = 0, mn = 0, mnp = 0, c = 0, cp = 0, cal = 0, e = 0, f = 0, posed = 0;
        for (Result r : results) {
            if (r.row().calibration()) {
                cal++;
            } else if (!r.row().uncounted().isEmpty()) {
                posed++;
            }
            if (r.row().evidence() == ValidationRow.Evidence.EXPECTATION) {
                e++;
                f += r.verdict() == Verdict.FLAGGED ? 1 : 0;
            } else if (r.countedMeasurement()) {
                m++;
                mp += r.pass() ? 1 : 0;
                if (r.row().nics() >= 2) {
                    mn++;
                    mnp += r.pass() ? 1 : 0;
                }
            } else if (r.counted()) {
                c++;
                cp += r.pass() ? 1 : 0;
            }
        }
        return new Tally(results.size(), m, mp, mn, mnp, c, cp, cal, e, f, posed);
    }

    /** {@link #run(List, Path, int, Consumer)} on one thread. */
    public static List<Result> run(List<ValidationRow> rows, Path scenarios, Consumer<String> progress) {
        return run(rows, scenarios, 1, progress);
    }

    /**
     * Judges every row, on {@code threads} threads: each takes the next row not yet taken, from the catalogue's
     * end, and {@code progress} hears each row's id as it starts (from the thread that takes it). Rows that read one
     * variant share its one run ({@link ScenarioRuns}); each variant's outcome is the same on any thread, so
     * the results, kept in catalogue order, do not depend on {@code threads}. A row whose model throws is an
     * {@link Verdict#ERROR} row, unless what it threw is a file the row reads being wrong (a scenario, an env value,
     * an imported host), which stops the run as bad input; an {@link Error} (the heap running out) stops it too.
     */
    public static List<Result> run(List<ValidationRow> rows, Path scenarios, int threads, Consumer<String> progress) {
        ScenarioRuns runs = new ScenarioRuns(scenarios);
        Result[] out = new Result[rows.size()];
        AtomicInteger next = new AtomicInteger();
        // Taken from the end: the catalogue ends with the refit rows, whose runs are the longest, so a thread free
        // near the end finds short rows left rather than one long row holding the others up.
        Runnable worker = () -> {
            for (int k = next.getAndIncrement(); k < out.length; k = next.getAndIncrement()) {
                int i = out.length - 1 - k;
                progress.accept(rows.get(i).id());
                out[i] = judge(rows.get(i), runs);
            }
        };
        int workers = Math.max(1, Math.min(threads, rows.size()));
        if (workers == 1) {
            worker.run();
            return new ArrayList<>(Arrays.asList(out));
        }
        AtomicInteger named = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "validate-" + named.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                running.add(pool.submit(worker));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("validation interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return new ArrayList<>(Arrays.asList(out));
    }

    /** One row's modelled value against its published figure, and its verdict. */
    private static Result judge(ValidationRow row, ScenarioRuns runs) {
        ValidationRow.Modelled m;
        try {
            m = row.model().compute(runs);
        } catch (org.rdmasim.scenario.ScenarioException | org.rdmasim.transport.config.ConfigValueException
                | org.rdmasim.importers.ImportException badInput) {
            // a file the row reads is wrong (a --scenarios copy edited, a field misspelt): the user's input, said
            // at its file:line and stopping the run (exit 2), not a row verdict of ERROR that reads as the model's
            throw badInput;
        } catch (Exception e) {
            return new Result(row, Double.NaN, false, e.getClass().getSimpleName() + ": " + e.getMessage(),
                    Verdict.ERROR);
        }
        boolean within = within(row, m.value());
        Verdict v;
        if (row.evidence() == ValidationRow.Evidence.EXPECTATION) {
            v = m.flagged() ? Verdict.FLAGGED : within ? Verdict.AGREES : Verdict.DISAGREES;
        } else if (!row.knownFailure().isEmpty()) {
            v = within ? Verdict.UNEXPECTED_PASS : Verdict.KNOWN_FAILURE;
        } else if (row.calibration()) {
            v = within ? Verdict.FITTED : Verdict.FAIL;
        } else {
            v = within ? Verdict.PASS : Verdict.FAIL;
        }
        return new Result(row, m.value(), m.flagged(), m.note(), v);
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
