package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim demo}: every scenario of the catalog into reports/. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run every scenario in scenarios/ and write its report to reports/<scenario-name>/.")
public final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--scenarios", paramLabel = "DIR", description = "scenario folder (default: ${DEFAULT-VALUE})",
            defaultValue = "${sys:rdmasim.home:-.}/scenarios")
    Path scenarios;

    @Option(names = "--reports", paramLabel = "DIR", description = "report folder (default: ${DEFAULT-VALUE})",
            defaultValue = "${sys:rdmasim.home:-.}/reports")
    Path reports;

    @Option(names = "--allow-outside", description = "read files the scenario names (envFile, nvidia-smi, nccl-topo) "
            + "even when they are outside the scenario's folder")
    boolean allowOutside;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(scenarios)) {
            throw new BadInputException("no scenario folder at " + scenarios);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(scenarios)) {
            files = s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new BadInputException("no .yaml scenario in " + scenarios);
        }
        int worst = Main.OK;
        for (Path f : files) {
            Scenario scenario = ScenarioLoader.load(f, allowOutside);
            int code = RunCommand.runInto(scenario, reports.resolve(scenario.name()), false, false, out, err);
            if (code == Main.INTERRUPTED) {
                return code;
            }
            worst = Math.max(worst, code);
        }
        out.println("reports written under " + reports + " (open " + reports.resolve("<scenario>/index.html") + ")");
        // A variant that fails by design says so with 'expect: failed' and does not count here.
        if (worst != Main.OK) {
            err.println("rdmasim: demo: a scenario failed (exit " + worst + "); see the FAILED lines above");
        }
        return worst;
    }
}
