package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.validation.ValidationRow.Check;
import org.rdmasim.validation.ValidationRow.Modelled;

/** How rows are judged, and the catalog itself. */
class ValidationTest {
    private static ValidationRow row(double low, double high, double tol, Check check, boolean calibration,
            String known, Modelled m) {
        return new ValidationRow("x", "src", "what", "setup", low, high, "Gbps", tol, check, "-", List.of(),
                calibration, known, runs -> m);
    }

    private static Validation.Result judge(ValidationRow r) {
        return Validation.run(List.of(r), Path.of("."), id -> { }).get(0);
    }

    @Test
    void aValueWithinTheWidenedRangePassesAndOneOutsideFails() {
        assertTrue(judge(row(100, 100, 0.05, Check.VALUE, false, "", Modelled.value(104.9, ""))).pass());
        assertFalse(judge(row(100, 100, 0.05, Check.VALUE, false, "", Modelled.value(105.1, ""))).pass());
        assertTrue(judge(row(46, 48, 0, Check.VALUE, false, "", Modelled.value(47, ""))).pass());
        assertFalse(judge(row(46, 48, 0, Check.VALUE, false, "", Modelled.value(45.9, ""))).pass());
    }

    @Test
    void anImpossibleClaimPassesOnlyWhenFlagged() {
        assertTrue(judge(row(0.05, 0.08, 0, Check.FLAGGED, false, "", new Modelled(0.104, true, ""))).pass());
        assertFalse(judge(row(0.05, 0.08, 0, Check.FLAGGED, false, "", new Modelled(0.05, false, ""))).pass());
    }

    @Test
    void aKnownFailureFailsTheBareRunButNotTheRegressionCheckWhileACalibrationRowDecidesNeither() {
        var failingCalibration = judge(row(100, 100, 0, Check.VALUE, true, "", Modelled.value(90, "")));
        var knownFailure = judge(row(100, 100, 0, Check.VALUE, false, "not modelled", Modelled.value(90, "")));
        var unexpected = judge(row(100, 100, 0, Check.VALUE, false, "not modelled", Modelled.value(100, "")));
        var failing = judge(row(100, 100, 0, Check.VALUE, false, "", Modelled.value(90, "")));
        var passing = judge(row(100, 100, 0, Check.VALUE, false, "", Modelled.value(100, "")));
        assertTrue(Validation.allGood(List.of(failingCalibration, passing)));
        assertTrue(knownFailure.counted());
        assertFalse(failingCalibration.counted());
        assertEquals(Validation.Verdict.KNOWN_FAILURE, knownFailure.verdict());
        assertFalse(Validation.allGood(List.of(passing, knownFailure)), "exit 0 only when every counted row passes");
        assertTrue(Validation.noRegression(List.of(passing, knownFailure, failingCalibration)));
        assertEquals(Validation.Verdict.UNEXPECTED_PASS, unexpected.verdict());
        assertFalse(Validation.allGood(List.of(unexpected)));
        assertFalse(Validation.noRegression(List.of(unexpected)), "a known failure that passes must lose its label");
        assertFalse(Validation.allGood(List.of(failing)));
        assertFalse(Validation.noRegression(List.of(failing)), "a row that passed and fails is a regression");
    }

    @Test
    void aRowWhoseModelThrowsIsAnError() {
        var r = judge(new ValidationRow("x", "s", "w", "s", 1, 1, "u", 0, Check.VALUE, "-", List.of(), false, "",
                runs -> {
                    throw new IllegalStateException("boom");
                }));
        assertEquals(Validation.Verdict.ERROR, r.verdict());
        assertFalse(Validation.allGood(List.of(r)));
    }

    @Test
    void theCatalogHoldsAtLeastTwentyDistinctRowsEachWithASource() {
        List<ValidationRow> rows = ValidationCatalog.rows();
        assertTrue(rows.size() >= 20, "rows: " + rows.size());
        assertEquals(rows.size(), new HashSet<>(rows.stream().map(ValidationRow::id).toList()).size());
        for (ValidationRow r : rows) {
            assertFalse(r.source().isBlank(), r.id());
            assertFalse(r.setup().isBlank(), r.id());
        }
    }

    @Test
    void jsonCarriesTheContractFields() {
        var result = judge(row(100, 100, 0.05, Check.VALUE, true, "", Modelled.value(100, "")));
        String json = ValidationReport.json(List.of(result));
        for (String field : List.of("\"id\"", "\"source\"", "\"published\"", "\"modelled\"", "\"unit\"",
                "\"tolerance\"", "\"pass\": true", "\"calibration\": true")) {
            assertTrue(json.contains(field), field + " in " + json);
        }
    }
}
