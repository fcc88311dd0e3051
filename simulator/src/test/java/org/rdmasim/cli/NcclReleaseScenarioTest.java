package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transport.nccl} names the NCCL release whose GPUDirect rule explain shows beside the NIXL/UCX
 * decision. On a GB200 tray the GPU's own Grace NIC is NODE (NCCL: PHB, P2C from 2.27.3): NCCL stages it
 * at 2.26.2 (NET_GDR_C2C off by default) and uses GPUDirect from 2.27.3 (NVIDIA/nccl src/graph/paths.cc).
 */
class NcclReleaseScenarioTest {
    @TempDir
    Path dir;

    private Path scenario(String nccl) throws Exception {
        Path file = dir.resolve("nccl.yaml");
        Files.writeString(file, """
                name: nccl-release
                seed: 1
                hosts:
                  source: {preset: gb200-tray}
                  receiver: {preset: gb200-tray}
                transport:
                  ucx: "1.20.0"
                  nccl: %s
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 1 GB}
                variants:
                  - name: only
                """.formatted(nccl));
        return file;
    }

    /** The explain line of NCCL's decision for one NIC. */
    private static String ncclLine(String out, String nic) {
        boolean inTable = false;
        for (String line : out.split("\n")) {
            if (line.startsWith("NCCL ")) {
                inTable = true;
            } else if (inTable && line.strip().startsWith(nic + " ")) {
                return line;
            }
        }
        return "";
    }

    @Test
    void explainShowsNcclsGpuDirectVerdictAtTheNamedRelease() throws Exception {
        var old = CliTestSupport.run("explain", scenario("\"2.26.2\"").toString());
        assertEquals(0, old.code(), old.err());
        assertTrue(old.out().contains("NCCL 2.26.2"), old.out());
        String oldLine = ncclLine(old.out(), "mlx5_0");
        assertTrue(oldLine.contains("PHB") && oldLine.contains("staged"), old.out());

        var current = CliTestSupport.run("explain", scenario("\"2.27.3\"").toString());
        assertEquals(0, current.code(), current.err());
        String line = ncclLine(current.out(), "mlx5_0");
        assertTrue(line.contains("P2C counted as C2C") && line.contains("GPUDirect RDMA"), current.out());
        // the other Grace's NICs are SYS: staged at every release
        assertTrue(ncclLine(current.out(), "mlx5_3").contains("SYS"), current.out());
    }

    @Test
    void aReleaseThatIsNoVersionIsRejectedWithItsLine() throws Exception {
        var bad = CliTestSupport.run("run", scenario("two").toString(), "--out", dir.resolve("out").toString(), "-q");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("nccl.yaml:8") && bad.err().contains("transport.nccl") && bad.err().contains("two"), bad.err());
    }
}
