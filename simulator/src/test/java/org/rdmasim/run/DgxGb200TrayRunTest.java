package org.rdmasim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.RunResult;
import org.rdmasim.workload.VariantOutcome;

/**
 * A run between two dgx-gb200-tray hosts: 4 GiB from each of the four GPUs, striped by ModelExpress,
 * moves only through the four ConnectX-7 compute ports (each GPU over its own Grace's two); a user list
 * written for gb200-tray ({@code mlx5_0-3}) puts bytes on the left BlueField-3's two ports.
 */
class DgxGb200TrayRunTest {

    private static Map<String, Long> rxByNic(String env, String modelExpress) throws IOException {
        StringBuilder text = new StringBuilder("name: dgx-gb200\nseed: 1\nhosts:\n"
                + "  s: {preset: dgx-gb200-tray}\n  r: {preset: dgx-gb200-tray}\n"
                + "transport:\n  operation: read\n  nixl: \"1.1.0\"\n  ucx: \"1.20.0\"\n");
        if (modelExpress != null) {
            text.append("  modelexpress: \"").append(modelExpress).append("\"\n");
        }
        text.append("  env: |\n").append(env.indent(4)).append("workload:\n  transfers:\n");
        for (int g = 0; g < 4; g++) {
            text.append("    - {from: \"s:GPU").append(g).append("\", to: \"r:GPU").append(g)
                    .append("\", size: 4 GiB, at: 0 s}\n");
        }
        text.append("variants:\n  - name: only\n");
        Path file = Files.createTempFile("dgx-gb200-", ".yaml");
        try {
            Files.writeString(file, text.toString());
            Scenario s = ScenarioLoader.load(file);
            VariantOutcome out = VariantRunner.run(s.variants().get(0), s.seed());
            assertEquals(VariantOutcome.Status.OK, out.status(), out.error());
            Map<String, Long> rx = new TreeMap<>();
            for (RunResult.NicTraffic n : out.result().nics()) {
                if (n.host().equals("r")) {
                    rx.merge(n.name(), n.rxBytes(), Long::sum);
                }
            }
            return rx;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void stripeMovesEveryByteThroughTheFourComputePorts() throws IOException {
        Map<String, Long> rx = rxByNic("export MX_RDMA_NIC_PIN=stripe", "kavink/multi-nic-stripe-mode");
        long total = 4 * (4L << 30);
        assertEquals(total, rx.values().stream().mapToLong(Long::longValue).sum(), rx.toString());
        for (String c : new String[] {"mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5"}) {
            assertTrue(rx.getOrDefault(c, 0L) > 0, c + " carries bytes: " + rx);
        }
        for (String b : new String[] {"mlx5_2", "mlx5_3", "mlx5_6", "mlx5_7"}) {
            assertEquals(0L, rx.getOrDefault(b, 0L), b + " is a BlueField-3 port: " + rx);
        }
    }

    @Test
    void gb200TraysListNamesTwoBlueFieldPortsHere() throws IOException {
        Map<String, Long> rx = rxByNic("export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1\n"
                + "export UCX_MAX_RMA_RAILS=4", null);
        for (String listed : new String[] {"mlx5_2", "mlx5_3"}) {
            assertTrue(rx.getOrDefault(listed, 0L) > 0, listed + " named, so a lane: " + rx);
        }
        // the right bay's compute ports are not listed, so nothing crosses them
        assertEquals(0L, rx.getOrDefault("mlx5_4", 0L) + rx.getOrDefault("mlx5_5", 0L), rx.toString());
    }
}
