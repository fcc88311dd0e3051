package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * A refit picks its lanes while it runs, so a rail limit of 0 (which leaves UCX no RMA lane) fails that variant
 * with the variable, its value and the line that set it, as any refusal of the plan does (exit 1, the other
 * variants still run), rather than ending the whole run.
 */
class RefitNoLaneTest {
    @TempDir
    Path dir;

    private static final String SCENARIO = """
            name: refit-no-lane
            seed: 1
            hosts:
              trainers: {preset: gb200-tray, count: 1, prefix: train}
              inference: {preset: gb200-tray, count: 1, prefix: infer}
            transport:
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 4}
                method: rdma-pull
                cycles: 1
            variants:
              - name: pinned
                transport:
                  env: |
                    export MX_RDMA_NIC_PIN=auto
              - name: no-rail
                transport:
                  env: |
                    export UCX_NET_DEVICES=all
                    export UCX_MAX_RMA_RAILS=0
            """;

    @Test
    void aRailLimitOfZeroFailsTheVariantNamingTheLine() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Scenario s = ScenarioLoader.load(f);
        VariantSpec ok = s.variants().get(0);
        VariantSpec bad = s.variants().get(1);
        assertEquals(VariantOutcome.Status.OK, VariantRunner.runRefitOnly(ok).status());
        VariantOutcome o = VariantRunner.runRefitOnly(bad);
        assertEquals(VariantOutcome.Status.FAILED, o.status());
        assertTrue(o.error().contains("UCX_MAX_RMA_RAILS='0'") && o.error().contains("s.yaml:25")
                && o.error().contains("expected at least 1"), o.error());

        CliTestSupport.Outcome run = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out").toString(),
                "--skip-without", "-q");
        assertEquals(1, run.code(), run.err());
        assertTrue(run.out().contains("pinned") && run.out().contains("FAILED"), run.out());
    }
}
