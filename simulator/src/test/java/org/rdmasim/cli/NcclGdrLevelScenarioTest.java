package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NCCL_NET_GDR_LEVEL is NCCL's: a NIXL/UCX pull over a NODE NIC runs the same with it set. */
class NcclGdrLevelScenarioTest {
    @TempDir
    Path dir;

    @Test
    void theNodePullIsTheSameWithAndWithoutNcclsLevel() throws Exception {
        Path scenario = CliTestSupport.repo().resolve("scenarios/gpudirect-vs-staging.yaml");
        assertEquals(0, CliTestSupport.run("run", scenario.toString(), "--out", dir.toString(), "-q").code());
        String csv = Files.readString(dir.resolve("transfers.csv"));
        String direct = rowTimes(csv, "node-gpudirect,");
        String withLevel = rowTimes(csv, "node-nccl-gdr-level-pxb,");
        assertTrue(!direct.isEmpty(), csv);
        assertEquals(direct, withLevel);
    }

    @Test
    void explainSaysNcclCountsNodeAsPhb() {
        // the table shows nvidia-smi's word beside NCCL's path type; without the note NODE next to PHB reads as a slip
        Path scenario = CliTestSupport.repo().resolve("scenarios/gpudirect-vs-staging.yaml");
        CliTestSupport.Outcome o = CliTestSupport.run("explain", scenario.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().matches("(?s).*mlx5_1 +NODE +PHB > PXB .*"), o.out());
        assertTrue(o.out().contains("(NCCL has no NODE: a path through the CPU's PCIe host bridge is PHB to it"), o.out());
    }

    /** The start/finish/seconds/Gbps columns of a variant's transfer row. */
    private static String rowTimes(String csv, String prefix) {
        for (String line : csv.split("\n")) {
            if (line.startsWith(prefix) && line.contains(",transfer,")) {
                String[] f = line.split(",");
                return f[9] + "," + f[10] + "," + f[11] + "," + f[12];
            }
        }
        return "";
    }
}
