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
}
