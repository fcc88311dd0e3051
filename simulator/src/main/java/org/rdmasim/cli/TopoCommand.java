package org.rdmasim.cli;

import java.util.concurrent.Callable;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.TopoMatrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rdmasim topo PRESET}: the GPU/NIC matrix as nvidia-smi topo -m prints it. */
@Command(name = "topo", mixinStandardHelpOptions = true,
        description = "Print a host's GPU/NIC relations in the form of 'nvidia-smi topo -m'.")
public final class TopoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PRESET", description = "a preset: ${COMPLETION-CANDIDATES}",
            completionCandidates = PresetNames.class)
    String preset;

    @Override
    public Integer call() {
        if (!Presets.exists(preset)) {
            throw new BadInputException("unknown preset '" + preset + "' (expected one of "
                    + String.join(", ", Presets.names()) + ")");
        }
        Host host = new Host(preset, Presets.get(preset));
        spec.commandLine().getOut().print(TopoMatrix.render(host));
        spec.commandLine().getOut().flush();
        return Main.OK;
    }

    /** Preset names for help and completion. */
    static final class PresetNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Presets.names().iterator();
        }
    }
}
