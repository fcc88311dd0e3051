package org.rdmasim.sweep;

import java.nio.file.Path;
import java.util.List;
import org.rdmasim.scenario.FileScope;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.scenario.YamlTree;

/**
 * A study as read from its file: the base scenario (its YAML tree, before any knob), the variant run
 * at each point, the knobs, how points are chosen, the replications and the figures recorded.
 *
 * @param fingerprint a digest of the study's and the base scenario's text: shards carry it, and merge
 *                    refuses shards whose fingerprints differ (they are of different studies)
 * @param fixed       values the study lays over the base for every point (its seed and replications)
 */
public record Study(String name, Path file, Path scenarioFile, String variant, int replications, List<Knob> knobs,
        Sample sample, List<Figure> figures, String fingerprint, YamlTree base, List<YamlTree> fixed,
        boolean allowOutside) {

    /** A seeded random sample of {@code points} distinct grid points instead of the whole grid. */
    public record Sample(int points, long seed) {
    }

    public Study {
        knobs = List.copyOf(knobs);
        figures = List.copyOf(figures);
        fixed = List.copyOf(fixed);
    }

    /** Points on the full grid: the product of the knobs' value counts. */
    public long gridSize() {
        long n = 1;
        for (Knob k : knobs) {
            n = Math.multiplyExact(n, k.values().size());
        }
        return n;
    }

    /**
     * The base scenario with the fixed values and each knob at the value {@code choice} picks (one index
     * per knob), read through the scenario loader so every value meets the same checks as in a file.
     * A bad value fails with the study file's line.
     */
    public Scenario scenarioAt(int[] choice) {
        YamlTree tree = base;
        for (YamlTree f : fixed) {
            tree = tree.overlay(f);
        }
        for (int k = 0; k < knobs.size(); k++) {
            if (choice[k] >= 0) {
                YamlTree over = knobs.get(k).overlay(choice[k]);
                if (knobs.get(k).keys().equals(List.of("transport", "env")) && tree.has("transport")
                        && tree.get("transport").isMap() && tree.get("transport").has("env")) {
                    // a knob on transport.env adds to the base env variable by variable, as a variant's env does,
                    // rather than replacing the whole block (and with it the base's other variables)
                    over = over.renamedIn("transport", "env", ScenarioLoader.KNOB_ENV);
                }
                tree = tree.overlay(over);
            }
        }
        YamlTree t = tree;
        return FileScope.with(allowOutside, () -> ScenarioLoader.read(t, scenarioFile));
    }

    /** The variant a point runs: the one the study names, or the scenario's first. */
    public VariantSpec variantOf(Scenario s, YamlTree variantAt) {
        if (variant == null) {
            return s.variants().get(0);
        }
        return s.variants().stream().filter(v -> v.name().equals(variant)).findFirst()
                .orElseThrow(() -> variantAt == null ? new IllegalArgumentException("no variant '" + variant + "'")
                        : variantAt.error("no variant named '" + variant + "' in " + scenarioFile + "; it has "
                                + String.join(", ", s.variants().stream().map(VariantSpec::name).toList())));
    }

    /** A {@link ScenarioException} at the study file's top. */
    ScenarioException error(String message) {
        return new ScenarioException(file.toString(), 1, 1, message);
    }
}
