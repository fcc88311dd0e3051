package org.rdmasim.workload;

import org.rdmasim.memory.RegistrationParts;
import org.rdmasim.memory.RegistrationTotals;

/**
 * A variant's run: {@code ok} with its result, or {@code failed} with the error the real stack would print.
 * With replications, {@code result} is replication 0 and {@code replicationStats} covers all of them
 * (null for a single run). {@code faultCost} compares the run with its faults against the same run
 * without them (null when the variant schedules none). {@code registrationParts} splits {@code registration}
 * into {@code ucp_mem_map}'s and the lanes' first-use registrations; given none, {@code ucp_mem_map} made all.
 */
public record VariantOutcome(String name, String description, Status status, String error, RunResult result,
        double wallSeconds, Claim claim, RegistrationTotals registration, ReplicationStats replicationStats,
        FaultCost faultCost, ConfigAudit audit, RegistrationParts registrationParts) {
    public enum Status { OK, FAILED }

    public VariantOutcome {
        audit = audit == null ? ConfigAudit.NONE : audit;
        if (registrationParts == null) {
            registrationParts = RegistrationParts.allByMemMap(registration == null ? RegistrationTotals.ZERO : registration);
        }
    }

    public VariantOutcome(String name, String description, Status status, String error, RunResult result,
            double wallSeconds, Claim claim, RegistrationTotals registration, ReplicationStats replicationStats,
            FaultCost faultCost, ConfigAudit audit) {
        this(name, description, status, error, result, wallSeconds, claim, registration, replicationStats, faultCost,
                audit, null);
    }

    /** The same outcome with its registration split into {@code ucp_mem_map}'s and first use's. */
    public VariantOutcome withRegistrationParts(RegistrationParts parts) {
        return new VariantOutcome(name, description, status, error, result, wallSeconds, claim, registration,
                replicationStats, faultCost, audit, parts);
    }

    public VariantOutcome(String name, String description, Status status, String error, RunResult result,
            double wallSeconds, Claim claim, RegistrationTotals registration, ReplicationStats replicationStats,
            FaultCost faultCost) {
        this(name, description, status, error, result, wallSeconds, claim, registration, replicationStats, faultCost,
                ConfigAudit.NONE);
    }

    /** The same outcome with what its processes run with that the scenario did not say. */
    public VariantOutcome withAudit(ConfigAudit newAudit) {
        return new VariantOutcome(name, description, status, error, result, wallSeconds, claim, registration,
                replicationStats, faultCost, newAudit, registrationParts);
    }

    public VariantOutcome(String name, String description, Status status, String error, RunResult result,
            double wallSeconds, Claim claim, RegistrationTotals registration, ReplicationStats replicationStats) {
        this(name, description, status, error, result, wallSeconds, claim, registration, replicationStats, null);
    }

    /** The same outcome with what its faults cost (null without faults). */
    public VariantOutcome withFaultCost(FaultCost cost) {
        return new VariantOutcome(name, description, status, error, result, wallSeconds, claim, registration,
                replicationStats, cost, audit, registrationParts);
    }

    public VariantOutcome(String name, String description, Status status, String error, RunResult result,
            double wallSeconds, Claim claim, RegistrationTotals registration) {
        this(name, description, status, error, result, wallSeconds, claim, registration, null);
    }

    /**
     * The same run reported as failed with {@code why}, keeping its result and fault cost: what it did
     * before failing (every receiver gave up) is shown, but it is never ranked as a time.
     */
    public VariantOutcome asFailed(String why) {
        return new VariantOutcome(name, description, Status.FAILED, why, result, wallSeconds, claim, registration,
                replicationStats, faultCost, audit, registrationParts);
    }

    public static VariantOutcome failed(String name, String description, String error, Claim claim,
            RegistrationTotals registration) {
        return new VariantOutcome(name, description, Status.FAILED, error, null, 0, claim, registration);
    }
}
