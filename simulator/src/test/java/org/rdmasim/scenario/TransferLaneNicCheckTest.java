package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An explicit lane whose NIC a host lacks is refused at load, naming the first transfer's host that lacks
 * it and the lane's line, though the check runs once per pair of host shapes.
 */
class TransferLaneNicCheckTest {
    @TempDir
    Path dir;

    private Path scenario(String transfers) throws IOException {
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, "name: s\nseed: 1\nhosts:\n"
                + "  wide: {preset: generic, count: 3, prefix: w, generic: {sockets: 1, gpusPerSocket: 4, nicsPerGpu: 1}}\n"
                + "  narrow: {preset: generic, count: 3, prefix: n, generic: {sockets: 1, gpusPerSocket: 2, nicsPerGpu: 1}}\n"
                + "transport:\n  lanes:\n    - {source: mlx5_0, sink: mlx5_0}\n    - {source: mlx5_3, sink: mlx5_3}\n"
                + "workload:\n  transfers:\n" + transfers);
        return yaml;
    }

    @Test
    void theFirstTransferToAHostWithoutTheNicIsNamed() throws IOException {
        Path yaml = scenario("    - {from: \"w0:CPU0\", to: \"w1:CPU0\", size: 1 GB}\n"
                + "    - {from: \"w0:CPU0\", to: \"w2:CPU0\", size: 1 GB}\n"
                + "    - {from: \"w1:CPU0\", to: \"n2:CPU0\", size: 1 GB}\n"
                + "    - {from: \"w2:CPU0\", to: \"n0:CPU0\", size: 1 GB}\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(yaml));
        assertTrue(e.getMessage().contains("s.yaml:9:30: transport.lanes[1].sink: "), e.getMessage());
        assertTrue(e.getMessage().contains("host 'n2' has no NIC named 'mlx5_3' (NICs: mlx5_0, mlx5_1)"), e.getMessage());
    }

    @Test
    void aSourceWithoutTheNicIsNamedAtTheLanesSource() throws IOException {
        Path yaml = scenario("    - {from: \"w0:CPU0\", to: \"w1:CPU0\", size: 1 GB}\n"
                + "    - {from: \"n1:CPU0\", to: \"w1:CPU0\", size: 1 GB}\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(yaml));
        assertTrue(e.getMessage().contains("host 'n1' has no NIC named 'mlx5_3'"), e.getMessage());
    }

    @Test
    void hostsThatAllHaveTheNicsLoad() throws IOException {
        Path yaml = scenario("    - {from: \"w0:CPU0\", to: \"w1:CPU0\", size: 1 GB}\n"
                + "    - {from: \"w2:CPU0\", to: \"w0:CPU0\", size: 1 GB}\n");
        assertEquals(1, ScenarioLoader.load(yaml).variants().size());
    }
}
