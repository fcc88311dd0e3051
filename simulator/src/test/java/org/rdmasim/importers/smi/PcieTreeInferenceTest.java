package org.rdmasim.importers.smi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.importers.ImportOptions;
import org.rdmasim.importers.ImportResult;
import org.rdmasim.importers.ImportWarning;

class PcieTreeInferenceTest {

    /**
     * Two GPUs SYS to each other, one on NUMA node 1 and one the text gives no node: that one's socket
     * takes the lowest node nobody uses, 0. An unmodelled product is named with its line; with no NIC in
     * the matrix nothing is said about NICs.
     */
    @Test
    void aSocketWithoutNumaNodeTakesTheLowestFreeOne() {
        String text = "GPU 0: Tesla V100-SXM2-32GB (UUID: GPU-1)\n"
                + "GPU 1: Tesla V100-SXM2-32GB (UUID: GPU-2)\n"
                + "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tSYS\t8-15\t1\n"
                + "GPU1\tSYS\t X \tN/A\tN/A\n";
        ImportResult r = SmiTopologyReader.importText(text, "v100.txt", ImportOptions.defaults());
        assertEquals(List.of("v100.txt:1: warning: GPU product 'Tesla V100-SXM2-32GB' is not modelled: its memory and "
                        + "PCIe figures are H100-SXM5-80GB's; pass --gpu-model (scenario: gpuModel) to choose",
                "v100.txt:3: warning: nvidia-smi does not say what the CPUs are: taken as Sapphire Rapids (memory and "
                        + "socket-link figures); pass --cpu (scenario: cpu)"),
                r.warnings().stream().map(ImportWarning::text).toList());
        List<HostSpec.SocketSpec> sockets = r.single().spec().sockets();
        assertEquals(List.of(1, 0), sockets.stream().map(HostSpec.SocketSpec::numaNode).toList());
        assertEquals(List.of("8-15", ""), sockets.stream().map(HostSpec.SocketSpec::cpuAffinity).toList());
    }
}
