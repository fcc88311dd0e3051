package org.rdmasim.cli;

import java.nio.file.Path;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import picocli.CommandLine.Option;

/** The option block of every command that reads a scenario: which files the scenario may name. */
final class ScenarioFiles {
    @Option(names = "--allow-outside", description = "read files the scenario names (envFile, nvidia-smi, nccl-topo) "
            + "even when they are outside the scenario's folder")
    boolean allowOutside;

    /** The scenario at {@code file}, reading only the files these options allow. */
    Scenario load(Path file) {
        return ScenarioLoader.load(file, allowOutside);
    }
}
