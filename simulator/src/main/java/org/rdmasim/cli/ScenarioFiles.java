package org.rdmasim.cli;

import java.nio.file.Path;
import org.rdmasim.run.RunBudget;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import picocli.CommandLine.Option;

/** The option block of every command that reads a scenario: which files the scenario may name. */
final class ScenarioFiles {
    @Option(names = "--allow-outside", description = "read files the scenario names (envFile, nvidia-smi, nccl-topo) "
            + "even when they are outside the scenario's folder")
    boolean allowOutside;

    /**
     * The scenario at {@code file}, reading only the files these options allow, refused when its least
     * cost is over the run's limits ({@link RunBudget}): every command that simulates it reads it here.
     */
    Scenario load(Path file) {
        Scenario scenario = ScenarioLoader.load(file, allowOutside);
        RunBudget.of(scenario).check(Runtime.getRuntime().maxMemory());
        return scenario;
    }
    /**
     * The refusal of {@code --variant NAME} that names no variant of the scenario: the nearest name by edit
     * distance when it is a slip of a few characters ("striped4" for "striped-4"), then every name.
     */
    static String noSuchVariant(String variant, Path scenarioFile, java.util.List<String> names) {
        java.util.function.ToIntFunction<String> distance = n -> org.rdmasim.transport.config.KnownVariables
                .editDistance(variant, n);
        int near = Math.max(2, variant.length() / 3);
        String nearest = names.stream().filter(n -> distance.applyAsInt(n) <= near)
                .min(java.util.Comparator.comparingInt(distance).thenComparing(n -> n)).orElse(null);
        return "no variant named '" + variant + "' in " + scenarioFile
                + (nearest == null ? "" : "; did you mean '" + nearest + "'?") + " (variants: " + String.join(", ", names)
                + ")";
    }
}
