package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A dgx-b200 run that names the devices as a real DGX B200 does (NVIDIA/nccl #1646's NCCL_IB_HCA). */
class DgxB200RealNamesRunTest {

    private static final List<String> OTHERS = List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_5", "mlx5_6",
            "mlx5_11", "mlx5_12");

    /** The NCCL_IB_HCA of nccl #1646 as a scenario's device list: a run over the real names, lanes on GPU0's port. */
    @Test
    void aRunNamingNccl1646sDevicesUsesGpuZerosRealPort() throws Exception {
        String yaml = """
                name: dgx-b200-real-names
                seed: 1
                hosts:
                  a: {preset: dgx-b200}
                  b: {preset: dgx-b200}
                transport:
                  operation: read
                  ucx: "1.20.0"
                  env: |
                    export UCX_NET_DEVICES=mlx5_4:1,mlx5_7:1,mlx5_8:1,mlx5_9:1,mlx5_10:1,mlx5_13:1,mlx5_14:1,mlx5_15:1
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """;
        var file = Files.createTempFile("dgx-b200-names", ".yaml");
        Files.writeString(file, yaml);
        var run = CliTestSupport.run("explain", file.toString(), "--transfers", "1");
        assertEquals(0, run.code(), run.err());
        String out = run.out();
        assertFalse(out.contains("not available"), out);
        assertTrue(out.matches("(?s).*\\n    mlx5_4 +path0 mlx5_4 .*picked.*"), out);
        // the HCA rows of UCX's candidate and lane tables (before the NCCL GPUDirect table, which rates every
        // device) are the eight compute ports and no other device
        List<String> rows = out.substring(0, out.indexOf("\nNCCL ")).lines().filter(l -> l.startsWith("    mlx5_")).map(l -> l.strip().split(" +")[0]).toList();
        assertTrue(rows.containsAll(List.of("mlx5_4", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10", "mlx5_13", "mlx5_14",
                "mlx5_15")), rows.toString());
        for (String s : OTHERS) {
            assertFalse(rows.contains(s), s + " in\n" + out);
        }
        assertTrue(out.contains("not candidates: storage/management port(s) " + String.join(", ", OTHERS)), out);
    }
}
