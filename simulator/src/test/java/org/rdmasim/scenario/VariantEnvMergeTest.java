package org.rdmasim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.transport.config.EnvEntry;

/** A variant's env adds to the base env and overrides it variable by variable. */
class VariantEnvMergeTest {
    @TempDir
    Path dir;

    @Test
    void variantEnvAddsAndOverridesByName() throws Exception {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, """
                name: env-merge
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  nixl: "1.1.0"
                  env: |
                    export MX_RDMA_NIC_PIN=auto
                    export UCX_MAX_RMA_RAILS=2
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                variants:
                  - name: base
                  - name: more-rails
                    transport:
                      env: |
                        export UCX_MAX_RMA_RAILS=4
                        export UCX_IB_NUM_PATHS=1
                """);
        Scenario s = ScenarioLoader.load(f);
        assertEquals(List.of("MX_RDMA_NIC_PIN=auto", "UCX_MAX_RMA_RAILS=2"), names(s.variants().get(0).transport().env()));
        // the pin stays, the rails are the variant's, the new variable is added; each keeps its own line
        List<EnvEntry> merged = s.variants().get(1).transport().env();
        assertEquals(List.of("MX_RDMA_NIC_PIN=auto", "UCX_MAX_RMA_RAILS=4", "UCX_IB_NUM_PATHS=1"), names(merged));
        assertEquals(8, merged.get(0).line());
        assertEquals(18, merged.get(1).line());
    }

    @Test
    void aQuotedOneLineEnvIsCitedOnItsKeysLineWhateverItsEscapedNewlines() throws Exception {
        Path f = dir.resolve("q.yaml");
        Files.writeString(f, """
                name: env-quoted
                hosts:
                  a: {preset: dgx-h100}
                  b: {preset: dgx-h100}
                transport:
                  env: "UCX_NET_DEVICES=all\\nUCX_MAX_RMA_RAILS=4\\n"
                workload:
                  transfers:
                    - {from: "a:GPU0", to: "b:GPU0", size: 1 GB}
                """);
        List<EnvEntry> env = ScenarioLoader.load(f).variants().get(0).transport().env();
        assertEquals(List.of("UCX_NET_DEVICES=all", "UCX_MAX_RMA_RAILS=4"), names(env));
        // both on line 6, where the value is written (the escapes are not lines of the file)
        assertEquals(List.of(6, 6), env.stream().map(EnvEntry::line).toList());
    }

    private static List<String> names(List<EnvEntry> env) {
        return env.stream().map(e -> e.name() + "=" + e.value()).toList();
    }
}
