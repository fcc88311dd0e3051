package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an importer assumes about a scenario's host file reaches the variant's warnings, with file and line. */
class ImportedHostWarningsTest {
    @TempDir
    Path dir;

    private static final String MATRIX = "\tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
            + "GPU0\t X \tPIX\t0-31\t0\t\tN/A\nNIC0\tPIX\t X \n\nNIC Legend:\n\n  NIC0: mlx5_0\n";

    private List<String> warnings(String host) throws IOException {
        Files.writeString(dir.resolve("node.txt"), MATRIX);
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, "name: s\nseed: 1\nhosts:\n  a: " + host + "\n  b: " + host + "\nworkload:\n  transfers:\n"
                + "    - {from: \"a:GPU0\", to: \"b:GPU0\", size: 1 GB}\nvariants:\n  - name: v\n    transport:\n      lanes:\n"
                + "        - {source: mlx5_0, sink: mlx5_0}\n");
        return ScenarioLoader.load(yaml).variants().get(0).warnings();
    }

    @Test
    void defaultsAreWarnedWithTheirLine() throws IOException {
        List<String> w = warnings("{nvidia-smi: node.txt}");
        assertTrue(w.stream().anyMatch(x -> x.endsWith("node.txt:1: the text does not name the GPU product: GPUs taken as "
                + "H100-SXM5-80GB; pass --gpu-model (scenario: gpuModel), or paste nvidia-smi -L above the matrix")), w.toString());
        assertTrue(w.stream().anyMatch(x -> x.contains("node.txt:1: nvidia-smi does not say what the NICs are")), w.toString());
        assertTrue(w.stream().anyMatch(x -> x.contains("node.txt:1: nvidia-smi does not say what the CPUs are")), w.toString());
    }

    @Test
    void toldModelsAreNotWarned() throws IOException {
        assertEquals(List.of(), warnings("{nvidia-smi: node.txt, gpuModel: h100, nicModel: cx7, cpu: intel_sapphire_rapids}"));
    }
}
