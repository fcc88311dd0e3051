package org.rdmasim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jfree.data.category.DefaultCategoryDataset;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.memory.CudaPoolAddressSpace;
import org.rdmasim.memory.VirtualAddressSpace;
import org.rdmasim.report.ChartFiles;
import org.rdmasim.report.Charts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rdmasim memory va}: virtual address space reserved by NCCL's CUDA pools as communicators
 * are created (NVIDIA/nccl PR #2064 [nccl-pr-2064]), against a 47-, 48- or 57-bit space.
 */
@Command(name = "va", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Virtual address space CUDA memory pools reserve, per NCCL communicator.",
                "Example:",
                "  rdmasim memory va --gpu gb300 --communicators 200 --pools-per-comm 2 \\",
                "      --va-bits 48",
                "",
                "Exit codes: 0 the pools fit the address space, 1 they do not, 2 bad input, " + Main.INTERNAL_ERROR_WORDS + "."})
final class MemoryVaCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--gpu", paramLabel = "MODEL", required = true,
            description = "GPU model: t4, a100, h100, h200, b200, gb300")
    String gpu;

    @Option(names = "--communicators", paramLabel = "N", required = true, description = "NCCL communicators created")
    long communicators;

    @Option(names = "--pools-per-comm", paramLabel = "1|2", defaultValue = "1",
            description = "CUDA pools per communicator (default: ${DEFAULT-VALUE})")
    int poolsPerCommunicator;

    @Option(names = "--va-bits", paramLabel = "BITS", defaultValue = "48",
            description = "address space width in bits, 1 to 62: e.g. 47 (x86-64 4-level user space), 48, 57 (default: ${DEFAULT-VALUE})")
    int vaBits;

    @Option(names = "--shadow-max", paramLabel = "SIZE", converter = ByteSize.class,
            description = "each pool's maxSize as NCCL_SHADOW_MEMPOOL_MAX_SIZE sets it since NCCL PR #2064 (NCCL's "
                    + "default 1GiB; 0 = the driver's default). Left out: NCCL before the PR, whose pools ask for "
                    + "maxSize 0 and so reserve the driver's default, twice device memory")
    Long shadowMax;

    @Option(names = "--start-va", paramLabel = "SIZE", defaultValue = "0", converter = ByteSize.class,
            description = "VA already in use before the first pool, e.g. 0.04TiB (default: 0)")
    long startVa;

    @Option(names = "--out", paramLabel = "DIR", description = "write the VA chart (PNG and SVG) into DIR")
    Path out;

    @Override
    public Integer call() throws IOException {
        return call(spec.commandLine().getOut());
    }

    @picocli.CommandLine.Mixin
    JsonOutput output = new JsonOutput();

    private Integer call(PrintWriter w) throws IOException {
        if (communicators < 0) {
            throw new BadInputException("--communicators must be >= 0, got " + communicators);
        }
        if (out != null) {
            out = MemoryCommand.prepareOutput(out);
        }
        GpuModel model;
        try {
            model = GpuModel.parse(gpu);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--gpu: " + e.getMessage());
        }
        CudaPoolAddressSpace pools = CudaPoolAddressSpace.forDevice(model.hbmBytes())
                .withPoolsPerCommunicator(poolsPerCommunicator);
        if (shadowMax != null) {
            pools = pools.withNcclShadowMempoolMaxSize(shadowMax);
        }
        VirtualAddressSpace space = VirtualAddressSpace.ofBits(vaBits);
        long total;
        try {
            total = pools.vaAfterCommunicators(startVa, communicators);
        } catch (ArithmeticException e) {
            throw new BadInputException("--communicators " + communicators + ": the address space they reserve is "
                    + "beyond a 64-bit count of bytes (limit: the total must stay under 8 EiB)");
        }

        if (output.json) {
            var o = JsonOutput.start("memory va");
            o.put("gpu", model.product());
            o.put("deviceMemoryBytes", model.hbmBytes());
            if (shadowMax == null) {
                o.putNull("poolMaxSizeBytes");
            } else {
                o.put("poolMaxSizeBytes", shadowMax);
            }
            o.put("vaPerPoolBytes", pools.vaPerPoolBytes());
            if (pools.roundedUp()) {
                o.put("vaPerPoolUnroundedBytes", pools.unroundedVaPerPoolBytes());
                o.put("assumption", roundingAssumption(pools));
            }
            o.put("poolsPerCommunicator", poolsPerCommunicator);
            o.put("vaPerCommunicatorBytes", pools.vaPerCommunicatorBytes());
            o.put("communicators", communicators);
            o.put("startVaBytes", startVa);
            o.put("totalBytes", total);
            var list = o.putArray("spaces");
            for (VirtualAddressSpace s : spaces(space)) {
                long fit = pools.communicatorsUntilExhaustion(s, startVa);
                var e = list.addObject();
                e.put("name", s.name());
                e.put("bytes", s.bytes());
                e.put("fits", total <= s.bytes());
                e.put("usedFraction", (double) total / s.bytes());
                if (fit == Long.MAX_VALUE) {
                    e.putNull("roomForCommunicators");
                } else {
                    e.put("roomForCommunicators", fit);
                }
            }
            JsonOutput.print(w, o);
            if (out != null) {
                writeChart(model, pools);
                MemoryCommand.recordCharts(out, List.of("memory-va"));
            }
            return total <= space.bytes() ? Main.OK : Main.VARIANT_FAILED;
        }
        w.printf(Locale.ROOT, "%s: %s device memory; pool maxSize %s%n", model.product(),
                ByteSize.format(model.hbmBytes()), shadowMax == null ? "0 (NCCL before PR #2064: driver default, "
                        + "2x device memory)" : shadowMax == 0 ? "0 (NCCL_SHADOW_MEMPOOL_MAX_SIZE=0: driver default)"
                        : ByteSize.format(shadowMax) + " (NCCL_SHADOW_MEMPOOL_MAX_SIZE)");
        w.printf(Locale.ROOT, "VA per pool: %s; per communicator (%d pool%s): %s%n",
                ByteSize.format(pools.vaPerPoolBytes()), poolsPerCommunicator, poolsPerCommunicator == 1 ? "" : "s",
                ByteSize.format(pools.vaPerCommunicatorBytes()));
        // the driver's default is 2 x device memory rounded up to an assumed granularity: 2 x 79.65 GiB printed as
        // 160.00 GiB with no word of the rounding or that its granularity is assumed
        if (pools.roundedUp()) {
            w.println("  " + roundingAssumption(pools));
        }
        w.printf(Locale.ROOT, "after %d communicators (%d pools): %s (from %s)%n", communicators,
                communicators * poolsPerCommunicator, ByteSize.format(total), ByteSize.format(startVa));
        for (VirtualAddressSpace s : spaces(space)) {
            long fit = pools.communicatorsUntilExhaustion(s, startVa);
            w.printf(Locale.ROOT, "%s space (%s): %s, %.1f%% used; room for %s communicators%n", s.name(),
                    ByteSize.format(s.bytes()), total <= s.bytes() ? "fits" : "EXHAUSTED",
                    100.0 * total / s.bytes(), fit == Long.MAX_VALUE ? "unlimited" : Long.toString(fit));
        }
        w.flush();
        if (out != null) {
            writeChart(model, pools);
            MemoryCommand.recordCharts(out, List.of("memory-va"));
            w.println("chart written to " + out);
            w.flush();
        }
        return total <= space.bytes() ? Main.OK : Main.VARIANT_FAILED;
    }

    /** The granularity the per-pool figure rests on, and the figure without it. */
    private static String roundingAssumption(CudaPoolAddressSpace pools) {
        return "ASSUMED: the driver rounds 2 x device memory (" + ByteSize.format(pools.unroundedVaPerPoolBytes())
                + ") up to a reservation granularity of " + ByteSize.format(pools.granularityBytes())
                + "; NVIDIA/nccl PR #2064's one measurement (280.00 GiB a pool for H200's 139.80 GiB) fits any "
                + "granularity from 512 MiB to 8 GiB; without the rounding, "
                + ByteSize.format(pools.unroundedVaPerPoolBytes()) + " a pool";
    }

    /** The chosen space, and the x86-64 4-level user half (128 TiB) when it is narrower. */
    private static List<VirtualAddressSpace> spaces(VirtualAddressSpace chosen) {
        List<VirtualAddressSpace> list = new ArrayList<>(List.of(chosen));
        if (chosen.bits() > VirtualAddressSpace.X86_64_FOUR_LEVEL_USER.bits()) {
            list.add(VirtualAddressSpace.X86_64_FOUR_LEVEL_USER);
        }
        return list;
    }

    private void writeChart(GpuModel model, CudaPoolAddressSpace pools) throws IOException {
        double tib = 0x1p40;
        long step = Math.max(1, (communicators + 9) / 10);
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (long n = 0; ; n = Math.min(communicators, n + step)) {
            data.addValue(pools.vaAfterCommunicators(startVa, n) / tib, "reserved VA", Long.toString(n));
            if (n >= communicators) {
                break;
            }
        }
        List<Charts.Reference> refs = new ArrayList<>(List.of(
                new Charts.Reference("256 TiB: 48-bit", VirtualAddressSpace.SEED_48_BIT.bytes() / tib),
                new Charts.Reference("128 TiB: x86-64 4-level user space",
                        VirtualAddressSpace.X86_64_FOUR_LEVEL_USER.bytes() / tib)));
        if (vaBits != 47 && vaBits != 48 && vaBits <= 52) {
            refs.add(new Charts.Reference(vaBits + "-bit", VirtualAddressSpace.ofBits(vaBits).bytes() / tib));
        }
        ChartFiles.write(Charts.bars(String.format(Locale.ROOT, "%s: VA reserved by %d pool(s) per communicator",
                model.product(), poolsPerCommunicator), "TiB", data, refs), out, "memory-va");
    }
}
