package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.validation.ValidationRow.Evidence;
import org.rdmasim.validation.ValidationRow.Modelled;

/** A row built part by part: every part lands in its own field, and a row missing a part is refused by name. */
class ValidationRowTest {
    private static final ValidationRow.Model NONE = runs -> Modelled.value(1, "");

    @Test
    void eachNamedPartLandsInItsField() {
        ValidationRow r = ValidationRow.measured("R1", "a source").what("a figure").setup("a host")
                .published(2, 3, "Gbps").tolerance(0.05).scenario("f.yaml#v").dependsOn(List.of("p"))
                .calibration(true).knownFailure("why").model(NONE);
        assertEquals(new ValidationRow("R1", "a source", "a figure", "a host", 2, 3, "Gbps", 0.05,
                Evidence.MEASUREMENT, "f.yaml#v", List.of("p"), true, "why", NONE, 1, ""), r);
    }

    @Test
    void optionalPartsDefaultToNoneAndOneValueIsARangeOfOne() {
        ValidationRow r = ValidationRow.configured("C1", "s").what("w").setup("u").published(22, "")
                .tolerance(0).noScenario().model(NONE);
        assertEquals(Evidence.CONFIGURATION, r.evidence());
        assertEquals(22, r.low());
        assertEquals(22, r.high());
        assertEquals("-", r.scenario());
        assertEquals(List.of(), r.dependsOn());
        assertFalse(r.calibration());
        assertEquals("", r.knownFailure());
        assertEquals(1, r.nics());
        assertEquals("", r.uncounted());
        assertEquals(Evidence.EXPECTATION, ValidationRow.expected("E1", "s").what("w").setup("u").published(1, "s")
                .tolerance(0).noScenario().model(NONE).evidence());
    }

    @Test
    void onlyAMeasurementCanBeACalibrationRow() {
        var expectation = assertThrows(IllegalStateException.class, () -> ValidationRow.expected("E2", "a guide")
                .calibration(true));
        assertEquals("validation row E2: an expectation cannot be a calibration row; only a measurement is fitted to",
                expectation.getMessage());
        assertThrows(IllegalStateException.class, () -> ValidationRow.configured("C2", "s").calibration(true));
        assertFalse(ValidationRow.expected("E3", "s").what("w").setup("u").published(1, "s").tolerance(0)
                .noScenario().calibration(false).model(NONE).calibration());
    }

    @Test
    void aMissingPartIsRefusedNamingTheRowAndThePart() {
        var noTolerance = assertThrows(IllegalStateException.class, () -> ValidationRow.measured("R2", "s")
                .what("w").setup("u").published(1, "s").noScenario().model(NONE));
        assertEquals("validation row R2: no tolerance", noTolerance.getMessage());
        var noScenario = assertThrows(IllegalStateException.class, () -> ValidationRow.measured("R3", "s")
                .what("w").setup("u").published(1, "s").tolerance(0).model(NONE));
        assertEquals("validation row R3: no scenario", noScenario.getMessage());
        var noPublished = assertThrows(IllegalStateException.class, () -> ValidationRow.measured("R4", "s")
                .what("w").setup("u").tolerance(0).noScenario().model(NONE));
        assertEquals("validation row R4: no published", noPublished.getMessage());
        var noSetup = assertThrows(IllegalStateException.class, () -> ValidationRow.measured("R5", "s")
                .what("w").published(1, "s").tolerance(0).noScenario().model(NONE));
        assertEquals("validation row R5: no setup", noSetup.getMessage());
        var nullSource = assertThrows(IllegalStateException.class, () -> ValidationRow.measured("R6", null));
        assertEquals("validation row R6: no source", nullSource.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ValidationRow.measured(" ", "s"))
                .getMessage().contains("no id"));
    }
}
