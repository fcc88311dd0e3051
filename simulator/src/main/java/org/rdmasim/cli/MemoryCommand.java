package org.rdmasim.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.rdmasim.report.ReportFolder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim memory register|mtt|va}: the memory model on its own, without a scenario.
 * {@code register} registers GPU buffers on a host (preset or file) under one or several UCX/NIXL
 * configurations and checks them against caps; {@code mtt} sizes an mlx4 MTT ([linuxcluster-mtt]); {@code va}
 * counts the virtual address space CUDA pools reserve (NVIDIA/nccl PR #2064 [nccl-pr-2064]).
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
        description = "Memory registration, MTT sizing and CUDA pool address space, without a scenario.",
        subcommands = {MemoryRegisterCommand.class, MemoryMttCommand.class, MemoryVaCommand.class})
public final class MemoryCommand implements Runnable {
    @Spec
    CommandSpec spec;

    /**
     * {@code rdmasim memory} with no subcommand: a usage error, as {@code rdmasim} with no command is, so a script
     * that left out {@code register}, {@code mtt} or {@code va} stops (exit 2) instead of reading the usage as a
     * result.
     */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing a command: one of " + String.join(", ", spec.commandLine().getSubcommands().keySet()));
    }

    /**
     * Prepares {@code dir} for charts under the rules every report folder follows
     * ({@link ReportFolder#claim}): a file, FIFO or device is refused, and so is a folder holding entries
     * rdmasim did not write; a symlinked folder is followed.
     */
    static Path prepareOutput(Path dir) throws IOException {
        Path target = ReportFolder.claim(dir, List.of(), false, Set.of(), new ReportFolder.Remedies("--out", false));
        Files.createDirectories(target);
        return target;
    }

    /**
     * Records in {@code dir}'s manifest the charts just written (each base name's PNG and SVG) beside the
     * files rdmasim wrote there before, so a later write replaces them and nothing else.
     */
    static void recordCharts(Path dir, List<String> baseNames) throws IOException {
        Set<String> foreign = new TreeSet<>(ReportFolder.foreignEntries(dir, Set.of()));
        Set<String> ours = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> !foreign.contains(n)
                    && !n.equals(ReportFolder.MANIFEST)).forEach(ours::add);
        }
        for (String b : baseNames) {
            ours.add(b + ".png");
            ours.add(b + ".svg");
        }
        ReportFolder.recordWritten(dir, ours);
    }
}
