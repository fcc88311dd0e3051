package org.rdmasim.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rdmasim.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim memory register|mtt|va}: the memory model on its own, without a scenario.
 * {@code register} registers GPU buffers on a preset host under one or several UCX/NIXL
 * configurations and checks them against caps; {@code mtt} sizes an mlx4 MTT ([linuxcluster-mtt]); {@code va}
 * counts the virtual address space CUDA pools reserve (NVIDIA/nccl PR #2064 [nccl-pr-2064]).
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
        description = "Memory registration, MTT sizing and CUDA pool address space, without a scenario.",
        subcommands = {MemoryRegisterCommand.class, MemoryMttCommand.class, MemoryVaCommand.class})
public final class MemoryCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Prepares {@code dir} for charts: refuses a folder holding files rdmasim did not write
     * ({@link ReportWriter#safeToWrite}), then marks it as rdmasim output.
     */
    static void prepareOutput(Path dir) throws IOException {
        if (!ReportWriter.safeToWrite(dir)) {
            throw new BadInputException("will not write into " + dir + ": it holds files rdmasim did not write "
                    + "(choose an empty or new folder)");
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(ReportWriter.MARKER), "written by rdmasim; safe to replace\n",
                StandardCharsets.UTF_8);
    }
}
