package org.rdmasim.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.refit.method.RefitCalibration;
import org.rdmasim.transport.ProtocolParameters;

/**
 * Every parameter a validation row says it depends on exists under the name the row gives, so a misspelt
 * or renamed parameter fails here instead of printing a dead name in validation.json.
 */
class DependsOnTest {
    @Test
    void everyDependsOnOfEveryRowNamesAParameterThatExists() {
        List<String> wrong = new ArrayList<>();
        int named = 0;
        for (ValidationRow row : ValidationCatalog.rows()) {
            for (String entry : row.dependsOn()) {
                Optional<String> problem = problem(entry);
                problem.ifPresent(p -> wrong.add(row.id() + ": '" + entry + "': " + p));
                named += isParameterName(entry) ? 1 : 0;
            }
        }
        assertEquals(List.of(), wrong);
        // the rows do name profile parameters: the check above is not vacuous
        assertTrue(named > 20, "only " + named + " dependsOn entries name a parameter");
    }

    @Test
    void aMisspeltProfileParameterOrProfileIsCaught() {
        assertTrue(problem("gb200-roce.nicReadRate").isEmpty());
        assertTrue(problem("aws-efa.efaWireEfficiency (assumed)").isEmpty());
        assertTrue(problem("refit.bucketSeconds (calibrated: halo)").isEmpty());
        assertTrue(problem("registration.perMr (assumed)").isEmpty());
        assertTrue(problem("ProtocolParameters.nicLatency (assumed)").isEmpty());
        assertTrue(problem("pcieHop").isEmpty());
        assertFalse(problem("gb200-roce.nicReadRates").isEmpty());
        assertFalse(problem("gb200-rocev2.nicReadRate").isEmpty());
        assertFalse(problem("connectx7.nicReadRate").isEmpty(), "connectx7 calibrates no per-NIC READ rate");
        assertFalse(problem("refit.bucketSecs").isEmpty());
        assertFalse(problem("registration.perMR").isEmpty());
        assertFalse(problem("pcieHops").isEmpty());
        assertTrue(problem("NIC line rate and link-layer efficiency").isEmpty(), "free text names no parameter");
    }

    /** An entry's first word, when it is a name ({@code profile.key}, {@code refit.key}, a bare camelCase field). */
    private static boolean isParameterName(String entry) {
        String head = entry.split(" ", 2)[0];
        return head.contains(".") || head.matches("[a-z]+[A-Z]\\w*");
    }

    /** Why {@code entry}'s parameter does not exist, or empty when it does or the entry is free text. */
    private static Optional<String> problem(String entry) {
        String head = entry.split(" ", 2)[0];
        if (!head.contains(".")) {
            // a bare camelCase word is one of the protocol parameters (pcieHop, stagingCopy)
            if (head.matches("[a-z]+[A-Z]\\w*") && !components(ProtocolParameters.class).contains(head + "Seconds")) {
                return Optional.of("no protocol parameter " + head);
            }
            return Optional.empty();
        }
        String space = head.substring(0, head.indexOf('.'));
        String key = head.substring(head.indexOf('.') + 1);
        if (CalibrationProfile.NAMES.contains(space)) {
            return CalibrationProfile.named(space).parameter(key).isPresent() ? Optional.empty()
                    : Optional.of("profile " + space + " has no parameter " + key);
        }
        return switch (space) {
            case "refit" -> RefitCalibration.defaults().parameters().stream().anyMatch(p -> p.key().equals(head))
                    ? Optional.empty() : Optional.of("no refit calibration parameter " + head);
            case "registration" -> components(RegistrationParameters.class).contains(key + "Seconds")
                    ? Optional.empty() : Optional.of("no registration parameter " + key);
            case "ProtocolParameters" -> components(ProtocolParameters.class).contains(key + "Seconds")
                    ? Optional.empty() : Optional.of("no protocol parameter " + key);
            default -> Optional.of("'" + space + "' is no calibration profile (" + String.join(", ",
                    CalibrationProfile.NAMES) + ") nor refit, registration or ProtocolParameters");
        };
    }

    private static Set<String> components(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(c -> c.getName()).collect(Collectors.toSet());
    }
}
