package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.VariantOutcome;

/**
 * A refit pull reads the trainer GPU's buffer over the lanes its memory key covers: with UCX_MAX_HCA_PER_GPU=1
 * (UCX 1.21) the key is on the trainer GPU's nearest HCA only, so four listed NICs and four rails carry the
 * model over one trainer NIC, where with {@code inf} they stripe over all four.
 */
class RefitLanesFollowKeysTest {
    @TempDir
    Path dir;

    private static final String SCENARIO = """
            name: refit-keys
            seed: 1
            hosts:
              trainers: {preset: generic, count: 1, prefix: t, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
              inference: {preset: generic, count: 1, prefix: i, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.21.0"
              modelexpress: kavink/multi-nic-stripe-mode
              env: |
                export MX_RDMA_NIC_PIN=stripe
                export UCX_MAX_RMA_RAILS=4
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 1}
                inference: {hosts: inference, tp: 1, dp: 1}
                method: rdma-pull
                registration: arena
                registrationHcas: 4
                cycles: 1
            variants:
              - name: every-hca
                transport:
                  env: |
                    export UCX_MAX_HCA_PER_GPU=inf
              - name: nearest-hca
                transport:
                  env: |
                    export UCX_MAX_HCA_PER_GPU=1
            """;

    private double wire(Scenario s, String name) {
        VariantOutcome o = VariantRunner.runRefitOnly(s.variants().stream().filter(v -> v.name().equals(name))
                .findFirst().orElseThrow());
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return o.result().refit().cycles().get(0).stageSeconds().get("wire");
    }

    /**
     * Left out, registrationHcas is what UCX maps a trainer GPU buffer on: all four listed HCAs with inf, one with
     * UCX_MAX_HCA_PER_GPU=1; a broadcast (NCCL registers its own buffers) keeps 1; a stated value wins.
     */
    @Test
    void registrationHcasDefaultsToWhatUcxMaps() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO.replace("    registrationHcas: 4\n", "") + """
                  - name: broadcast
                    workload: {refit: {method: nccl-broadcast, bucket: 1 GiB}}
                  - name: stated
                    workload: {refit: {registrationHcas: 2}}
                """);
        Scenario s = ScenarioLoader.load(f);
        assertEquals(4, hcas(s, "every-hca"));
        assertEquals(1, hcas(s, "nearest-hca"));
        assertEquals(1, hcas(s, "broadcast"));
        assertEquals(2, hcas(s, "stated"));
    }

    private static int hcas(Scenario s, String name) {
        VariantOutcome o = VariantRunner.runRefitOnly(s.variants().stream().filter(v -> v.name().equals(name))
                .findFirst().orElseThrow());
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        String line = o.result().refit().plan().stream().filter(l -> l.startsWith("registration ")).findFirst()
                .orElseThrow();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(", (\\d+) HCA\\(s\\) per GPU").matcher(line);
        assertEquals(true, m.find(), line);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void theKeysHcasBoundThePull() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Scenario s = ScenarioLoader.load(f);
        double four = wire(s, "every-hca");
        double one = wire(s, "nearest-hca");
        // the same bytes over one trainer NIC instead of four: four times the wire, within the lanes' protocol costs
        assertEquals(4.0, one / four, 0.2, "one HCA " + one + " s, four " + four + " s");
    }
}
