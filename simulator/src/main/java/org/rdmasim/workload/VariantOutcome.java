package org.rdmasim.workload;

import org.rdmasim.memory.RegistrationTotals;

/** A variant's run: {@code ok} with its result, or {@code failed} with the error the real stack would print. */
public record VariantOutcome(String name, String description, Status status, String error, RunResult result,
        double wallSeconds, Claim claim, RegistrationTotals registration) {
    public enum Status { OK, FAILED }

    public static VariantOutcome failed(String name, String description, String error, Claim claim,
            RegistrationTotals registration) {
        return new VariantOutcome(name, description, Status.FAILED, error, null, 0, claim, registration);
    }
}
