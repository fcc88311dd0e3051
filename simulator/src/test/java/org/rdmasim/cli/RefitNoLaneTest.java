package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.VariantOutcome;

/**
 * A refit picks its lanes while it runs, so a rail limit of 0 (which leaves UCX no RMA lane) is found only then. It is
 * bad input all the same: exit 2, placed as the loader places the same value under a transfer list (file, line and
 * the field that holds it), not a failed variant; and a study point that sets it fails its row with that message.
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
    void aRailLimitOfZeroIsBadInputAtItsLineAndField() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Scenario s = ScenarioLoader.load(f);
        assertEquals(VariantOutcome.Status.OK, VariantRunner.runRefitOnly(s.variants().get(0)).status());
        ScenarioException e = assertThrows(ScenarioException.class, () -> VariantRunner.runRefitOnly(s.variants().get(1)));
        assertEquals(25, e.line(), e.getMessage());

        Path out = dir.resolve("out");
        for (String command : new String[] {"run", "explain"}) {
            CliTestSupport.Outcome run = "run".equals(command)
                    ? CliTestSupport.run("run", f.toString(), "--out", out.toString(), "--skip-without", "-q")
                    : CliTestSupport.run("explain", f.toString(), "--variant", "no-rail", "-q");
            assertEquals(2, run.code(), command + ": " + run.err());
            assertTrue(run.err().startsWith("rdmasim: error: " + f + ":25: variants[1].transport.env: "
                    + "UCX_MAX_RMA_RAILS='0'") && run.err().contains("expected at least 1"), command + ": " + run.err());
            assertFalse(run.err().contains("\tat "), run.err());
        }
        assertFalse(Files.exists(out), "nothing is written for a refused scenario");
    }

    @Test
    void aStudyPointThatSetsItFailsItsRowWithTheStudysLine() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
        Files.writeString(dir.resolve("base.yaml"), SCENARIO.substring(0, SCENARIO.indexOf("variants:")));
        Path study = dir.resolve("study.yaml");
        Files.writeString(study, """
                study: rails
                scenario: base.yaml
                knobs:
                  transport.env: ["export UCX_MAX_RMA_RAILS=0", "export UCX_MAX_RMA_RAILS=1"]
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("sweep", study.toString(), "--out", dir.resolve("sw").toString(),
                "--threads", "1", "-q");
        assertEquals(1, o.code(), o.err());
        assertFalse(o.err().contains("Exception"), o.err());
        String csv = Files.readString(dir.resolve("sw").resolve("results.csv"));
        assertTrue(csv.contains("refused: " + study + ":4: transport.env: UCX_MAX_RMA_RAILS='0'"), csv);
        assertTrue(csv.contains("export UCX_MAX_RMA_RAILS=1,ok"), csv);
    }
}
