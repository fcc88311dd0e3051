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

    private static List<String> sockets(String text) {
        List<String> out = new java.util.ArrayList<>();
        for (HostSpec.SocketSpec s : SmiTopologyReader.read(text, "t.txt", ImportOptions.defaults()).sockets()) {
            out.add(s.numaNode() + ":" + DeviceNames.of(s.devices()));
        }
        return out;
    }


    /**
     * A socket with NIC0 alone must come before the socket of GPU0 and NIC1, or a depth-first walk would
     * number the NICs the other way round; sorting by lowest GPU alone would put it last.
     */
    @Test
    void aNicOnlySocketGoesFirstWhenItHoldsTheLowestNic() {
        String text = "\tGPU0\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tSYS\tPIX\n"
                + "NIC0\tSYS\t X \tSYS\n"
                + "NIC1\tPIX\tSYS\t X \n";
        assertEquals(List.of("1:[mlx5_0]", "0:[GPU0, mlx5_1]"), sockets(text));
    }

    /**
     * Constraints that cycle (GPU0's socket before GPU1's, GPU1's holding NIC0 before NIC1's, NIC1's
     * before NIC2's which holds GPU0) are broken at the lowest GPU: GPU0's socket, then GPU1's, then NIC1's.
     */
    @Test
    void cyclingConstraintsStartAtTheLowestGpu() {
        String text = "\tGPU0\tGPU1\tNIC0\tNIC1\tNIC2\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tSYS\tSYS\tSYS\tPIX\n"
                + "GPU1\tSYS\t X \tPIX\tSYS\tSYS\n"
                + "NIC0\tSYS\tPIX\t X \tSYS\tSYS\n"
                + "NIC1\tSYS\tSYS\tSYS\t X \tSYS\n"
                + "NIC2\tPIX\tSYS\tSYS\tSYS\t X \n";
        assertEquals(List.of("0:[GPU0, mlx5_2]", "1:[GPU1, mlx5_0]", "2:[mlx5_1]"), sockets(text));
    }
}
