package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without GPUDirect RDMA a GPU pull is UCX's software emulation, one AM lane: explain says which of the lanes its
 * table marks "picked" that lane is taken to be, so the two do not read as a contradiction.
 */
class ExplainEmulationLaneTest {
    @TempDir
    Path dir;

    @Test
    void theEmulationsOneLaneIsNamedAmongThePickedOnes() throws IOException {
        Path yaml = Files.writeString(dir.resolve("s.yaml"), """
                name: s
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  gpudirect: false
                  env: |
                    export UCX_NET_DEVICES=mlx5_0:1,mlx5_3:1
                    export UCX_MAX_RMA_RAILS=2
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """);
        var r = CliTestSupport.run("explain", yaml.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertEquals(2, r.out().split("  picked\n", -1).length - 1, "two bandwidth lanes picked: " + r.out());
        assertTrue(r.out().contains("one lane (max_lanes 1; the AM lane, taken as the first of the 2 lanes picked above)"),
                r.out());
    }
}
