package org.rdmasim.scenario;

import java.util.List;

/**
 * A loaded scenario: the question it answers (its opening comment or {@code description}), the
 * seed, and its variants, each a complete, validated configuration.
 */
public record Scenario(String name, String description, String file, long seed, int replications,
        List<VariantSpec> variants, List<Reference> references) {
    public Scenario {
        variants = List.copyOf(variants);
        references = List.copyOf(references);
    }

    /** A bandwidth drawn across the scenario's bandwidth chart (a line rate, a published ceiling). */
    public record Reference(String label, double gbps) {
    }
}
