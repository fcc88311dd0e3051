package org.rdmasim.cli;

import java.util.Locale;
import org.rdmasim.hardware.CpuFamily;
import org.rdmasim.hardware.GpuModel;
import org.rdmasim.hardware.LinkLayer;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.importers.ImportOptions;
import picocli.CommandLine.Option;

/**
 * The option block of commands that read a host file (an NCCL topology XML or saved nvidia-smi topo -m
 * output): what the file may leave unsaid, as a scenario's gpuModel, nicModel, cpu and linkLayer say it.
 */
final class HostFileOptions {
    @Option(names = {"--gpu", "--gpu-model"}, paramLabel = "MODEL",
            description = "GPU model for an imported file that does not say (t4, a100, h100, h200, b200, gb300); default: from the file, else h100 with a warning")
    String gpu;

    @Option(names = {"--nic", "--nic-model"}, paramLabel = "MODEL|NAME=MODEL[:ROLE]",
            description = "NIC model for an imported file (cx5, cx6, cx7, cx8, efa2, efa3, efa4), for every NIC or per device "
                    + "with role compute or storage, comma-separated: cx7,mlx5_1=storage,mlx5_7=cx6:storage; default: from the "
                    + "file's device ids or port speed, else cx7 with a warning; a NIC PIX/PXB to no GPU, where others are, "
                    + "taken as storage with a warning")
    String nic;

    @Option(names = "--cpu", paramLabel = "FAMILY",
            description = "CPU family for an imported file that does not say (e.g. intel_sapphire_rapids, amd_genoa, amd_zen for an AMD EPYC of unstated generation, nvidia_grace); default: from the file, else Sapphire Rapids with a warning")
    String cpu;

    @Option(names = "--link-layer", paramLabel = "LAYER", description = "ib, roce or efa for an imported file's NICs; default ib")
    String linkLayer;

    /**
     * Refuses these options beside a preset: they fill in what an imported file leaves unsaid, and a preset says
     * all of it, so they would be ignored while the output read as if they had applied ({@code --gpu-model b200}
     * on {@code dgx-h100} printed H100s).
     */
    void refuseWithPreset(String preset) {
        java.util.List<String> given = new java.util.ArrayList<>();
        if (gpu != null) {
            given.add("--gpu-model");
        }
        if (nic != null) {
            given.add("--nic-model");
        }
        if (cpu != null) {
            given.add("--cpu");
        }
        if (linkLayer != null) {
            given.add("--link-layer");
        }
        if (!given.isEmpty()) {
            throw new BadInputException(String.join(", ", given) + (given.size() == 1 ? " applies" : " apply")
                    + " to an imported host file (nvidia-smi topo -m text or NCCL topology XML), not to preset '"
                    + preset + "', which names its own GPUs, NICs, CPU and fabric; leave " + (given.size() == 1
                    ? "it" : "them") + " out, or pick the preset of the hardware meant");
        }
    }

    /** A model for every NIC and per-device choices, from one comma list (entries with '=' are per device). */
    static ImportOptions withNics(ImportOptions options, String text) {
        StringBuilder perDevice = new StringBuilder();
        for (String entry : text.split(",")) {
            if (entry.contains("=")) {
                perDevice.append(entry).append(',');
            } else if (!entry.isBlank()) {
                options = options.withNicModel(NicModel.parse(entry));
            }
        }
        return options.withNics(org.rdmasim.importers.NicChoices.parse(perDevice.toString()));
    }

    /** The import options these say; a bad word is bad input naming what was expected. */
    ImportOptions options() {
        ImportOptions options = ImportOptions.defaults();
        try {
            if (gpu != null) {
                options = options.withGpuModel(GpuModel.parse(gpu));
            }
            if (nic != null) {
                options = withNics(options, nic);
            }
            if (cpu != null) {
                options = options.withCpuFamily(CpuFamily.parse(cpu));
            }
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        if (linkLayer != null) {
            options = options.withLinkLayer(switch (linkLayer.toLowerCase(Locale.ROOT)) {
                case "ib", "infiniband" -> LinkLayer.INFINIBAND;
                case "roce", "ethernet" -> LinkLayer.ROCE;
                case "efa", "srd" -> LinkLayer.EFA;
                default -> throw new BadInputException("unknown --link-layer '" + linkLayer + "' (expected ib, roce or efa)");
            });
        }
        return options;
    }
}
