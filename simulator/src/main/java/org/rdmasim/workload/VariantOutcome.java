package org.rdmasim.workload;

/** A variant's run: {@code ok} with its result, or {@code failed} with the error the real stack would print. */
public record VariantOutcome(String name, String description, Status status, String error, RunResult result,
        double wallSeconds) {
    public enum Status { OK, FAILED }

    public static VariantOutcome failed(String name, String description, String error) {
        return new VariantOutcome(name, description, Status.FAILED, error, null, 0);
    }
}
