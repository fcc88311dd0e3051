package org.rdmasim.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rdmasim.memory.MttSizing;
import org.rdmasim.memory.RegistrationErrorText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim memory mtt}: how large an mlx4 MTT must be to register a multiple of host memory,
 * and whether the current setting draws Open MPI's "registerable memory" warning (as in [linuxcluster-mtt]).
 */
@Command(name = "mtt", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Size an mlx4 MTT: max_reg_mem = 2^log_num_mtt * 2^log_mtts_per_seg * PAGE_SIZE.",
                "Example: rdmasim memory mtt --memory 64GiB --factor 2",
                "",
                "Exit codes: 0 sized, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
final class MemoryMttCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--memory", "--mtt-for-memory"}, paramLabel = "SIZE", required = true, converter = ByteSize.HostMemory.class,
            description = "physical host memory, e.g. 64GiB")
    long memory;

    @Option(names = "--factor", paramLabel = "X", defaultValue = "2",
            description = "register this multiple of host memory (default: ${DEFAULT-VALUE}, as Open MPI's FAQ advises)")
    double factor;

    @Option(names = "--log-mtts-per-seg", paramLabel = "N", defaultValue = "3",
            description = "mlx4_core log_mtts_per_seg (default: ${DEFAULT-VALUE}, the driver's)")
    int logMttsPerSeg;

    @Option(names = "--log-num-mtt", paramLabel = "N", defaultValue = "20",
            description = "the current mlx4_core log_num_mtt, checked for Open MPI's warning "
                    + "(default: ${DEFAULT-VALUE}, the driver's)")
    int currentLogNumMtt;

    @Option(names = "--page-size", paramLabel = "SIZE", defaultValue = "4KiB", converter = ByteSize.class,
            description = "system page size (default: 4KiB)")
    long pageSize;

    @Option(names = "--host-name", paramLabel = "NAME", defaultValue = "node02",
            description = "host name for Open MPI's 'Local host:' line (default: ${DEFAULT-VALUE}, as in "
                    + "The Linux Cluster's MTT note)")
    String hostName;

    @picocli.CommandLine.Mixin
    JsonOutput output = new JsonOutput();

    @Override
    public Integer call() {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new BadInputException("--factor must be a number > 0, got " + factor);
        }
        int needed = MttSizing.smallestLogNumMtt(memory, factor, logMttsPerSeg, pageSize);
        long neededBytes = MttSizing.maxRegisterableBytes(needed, logMttsPerSeg, pageSize);
        long currentBytes = MttSizing.maxRegisterableBytes(currentLogNumMtt, logMttsPerSeg, pageSize);
        PrintWriter w = spec.commandLine().getOut();
        if (output.json) {
            var o = JsonOutput.start("memory mtt");
            o.put("memoryBytes", memory);
            o.put("factor", factor);
            o.put("logMttsPerSeg", logMttsPerSeg);
            o.put("pageSizeBytes", pageSize);
            o.put("neededLogNumMtt", needed);
            o.put("neededMaxRegisterableBytes", neededBytes);
            o.put("modprobeLine", String.format(Locale.ROOT, "options mlx4_core log_num_mtt=%d log_mtts_per_seg=%d",
                    needed, logMttsPerSeg));
            o.put("currentLogNumMtt", currentLogNumMtt);
            o.put("currentMaxRegisterableBytes", currentBytes);
            boolean warns = MttSizing.openMpiWarns(currentBytes, memory);
            o.put("openMpiWarns", warns);
            var lines = o.putArray("openMpiWarning");
            if (warns) {
                RegistrationErrorText.openMpiRegMemLimitLow(hostName, currentBytes, memory).forEach(lines::add);
            }
            JsonOutput.print(w, o);
            return Main.OK;
        }
        w.println("max_reg_mem = 2^log_num_mtt * 2^log_mtts_per_seg * PAGE_SIZE");
        w.printf(Locale.ROOT, "to register %sx %s (%s) with log_mtts_per_seg=%d and %s pages: log_num_mtt = %d "
                + "(max_reg_mem %s)%n", trim(factor), ByteSize.format(memory),
                ByteSize.format(Math.round(factor * memory)), logMttsPerSeg, ByteSize.format(pageSize), needed,
                ByteSize.format(neededBytes));
        w.printf(Locale.ROOT, "  /etc/modprobe.d/mlx4_mtt.conf: options mlx4_core log_num_mtt=%d log_mtts_per_seg=%d%n",
                needed, logMttsPerSeg);
        w.printf(Locale.ROOT, "with log_num_mtt=%d: registerable %d MiB of %d MiB total%n", currentLogNumMtt,
                currentBytes >> 20, memory >> 20);
        if (MttSizing.openMpiWarns(currentBytes, memory)) {
            w.println("  below 3/4 of physical memory, so Open MPI's openib BTL warns:");
            RegistrationErrorText.openMpiRegMemLimitLow(hostName, currentBytes, memory).forEach(l -> w.println("  " + l));
        } else {
            w.println("  at least 3/4 of physical memory: no Open MPI warning");
        }
        w.flush();
        return Main.OK;
    }

    private static String trim(double x) {
        return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
    }
}
