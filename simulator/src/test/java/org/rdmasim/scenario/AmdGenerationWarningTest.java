package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A variant whose UCX release tells AMD generations apart (1.12.0 to 1.17.x) and whose hosts are AMD says what it
 * assumes of them, naming the host groups; a later UCX, or Intel hosts, say nothing.
 */
class AmdGenerationWarningTest {
    @TempDir
    Path dir;

    private List<String> warnings(String cpu, String ucx) throws IOException {
        Path yaml = dir.resolve("s.yaml");
        String host = "{preset: generic, count: 2, prefix: h, generic: {sockets: 2, gpusPerSocket: 1, nicsPerGpu: 1, cpu: "
                + cpu + "}}";
        Files.writeString(yaml, "name: s\nseed: 1\nhosts:\n  nodes: " + host + "\ntransport:\n  operation: read\n  ucx: \""
                + ucx + "\"\nworkload:\n  transfers:\n    - {from: \"h0:GPU0\", to: \"h1:GPU0\", size: 1 GB}\n"
                + "variants:\n  - name: v\n");
        return ScenarioLoader.load(yaml).variants().get(0).warnings();
    }

    @Test
    void amdHostsUnderUcx115AreWarnedByGroup() throws IOException {
        List<String> w = warnings("amd-zen", "1.15.0");
        assertTrue(w.stream().anyMatch(x -> x.startsWith("hosts nodes: ASSUMED: UCX 1.15.0 treats AMD CPUs by "
                + "generation")), w.toString());
    }

    @Test
    void aLaterUcxOrAnIntelHostSaysNothing() throws IOException {
        assertEquals(List.of(), warnings("amd-zen", "1.20.0"));
        assertEquals(List.of(), warnings("intel-sapphire-rapids", "1.15.0"));
    }
}
