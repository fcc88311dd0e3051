package org.rdmasim.scenario;

import java.util.List;

/**
 * A loaded scenario: the question it answers (its opening comment or {@code description}), the
 * seed, and its variants, each a complete, validated configuration.
 */
public record Scenario(String name, String description, String file, long seed, int replications,
        List<VariantSpec> variants, List<Reference> references, Sweep sweep, java.util.Set<String> expectedFailures,
        org.rdmasim.workload.Question question) {
    public Scenario {
        variants = List.copyOf(variants);
        references = List.copyOf(references);
        expectedFailures = java.util.Set.copyOf(expectedFailures);
    }

    /** A scenario that does not say its question (the answer infers it from what the scenario runs). */
    public Scenario(String name, String description, String file, long seed, int replications,
            List<VariantSpec> variants, List<Reference> references, Sweep sweep, java.util.Set<String> expectedFailures) {
        this(name, description, file, seed, replications, variants, references, sweep, expectedFailures, null);
    }

    public Scenario(String name, String description, String file, long seed, int replications,
            List<VariantSpec> variants, List<Reference> references, Sweep sweep) {
        this(name, description, file, seed, replications, variants, references, sweep, java.util.Set.of());
    }

    /** True when the scenario declares (with {@code expect: failed}) that this variant fails by design. */
    public boolean failureExpected(String variant) {
        return expectedFailures.contains(variant);
    }

    /**
     * A message-size sweep: every written variant runs once per size, as {@code messages}
     * back-to-back descriptors of that size (like perftest's {@code -a -n}). Null when absent.
     *
     * @param series the written variants, each a line in the sweep chart
     */
    public record Sweep(List<String> series, List<Long> messageSizes, int messages) {
        public Sweep {
            series = List.copyOf(series);
            messageSizes = List.copyOf(messageSizes);
        }

        /** Name of the expanded variant for one series and size. */
        public static String variantName(String series, long size) {
            return series + "@" + sizeLabel(size);
        }

        public static String sizeLabel(long size) {
            return org.rdmasim.hardware.Units.exactSizeLabel(size, "");
        }
    }

    /** A bandwidth drawn across the scenario's bandwidth chart (a line rate, a published ceiling). */
    public record Reference(String label, double gbps) {
    }
}
