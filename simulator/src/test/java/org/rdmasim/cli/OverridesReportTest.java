package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A value the stack replaces or ignores is said in summary.json and on the page, never only on stderr. */
class OverridesReportTest {
    @TempDir
    Path dir;

    @Test
    void modelExpressReplacingTheUsersDevicesAndAnUnknownVariableAreReportedWithTheirLines() throws Exception {
        Path f = dir.resolve("o.yaml");
        Files.writeString(f, """
                name: overrides
                hosts:
                  source: {preset: gb200-tray}
                  receiver: {preset: gb200-tray}
                transport:
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                  env: |
                    export MX_RDMA_NIC_PIN=auto
                workload:
                  transfers:
                    - {from: "source:GPU0", to: "receiver:GPU0", size: 1 GB}
                variants:
                  - name: listed
                    transport:
                      env: |
                        export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1
                        export UCX_MAX_HCA_PER_GPU=1
                """);
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", f.toString(), "--out", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode v = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("variants").get(0);
        JsonNode devices = null;
        JsonNode hca = null;
        for (JsonNode o : v.get("overrides")) {
            if (o.get("variable").asText().equals("UCX_NET_DEVICES")) {
                devices = o;
            } else if (o.get("variable").asText().equals("UCX_MAX_HCA_PER_GPU")) {
                hca = o;
            }
        }
        assertTrue(devices != null, v.get("overrides").toString());
        assertEquals("mlx5_0:1,mlx5_1:1", devices.get("userValue").asText());
        assertEquals("mlx5_0:1", devices.get("effectiveValue").asText());
        assertEquals("ModelExpress", devices.get("layer").asText());
        assertEquals("o.yaml:17", devices.get("sourceLine").asText(), "the file and line, without the machine's folders");
        // UCX_MAX_HCA_PER_GPU arrived in UCX 1.21: 1.20 ignores it and keeps registering on every HCA
        assertTrue(hca != null, v.get("overrides").toString());
        assertEquals("the library's default", hca.get("layer").asText());
        assertEquals(2, v.get("nicUse").get("listed").size());
        assertEquals(1, v.get("nicUse").get("used").size());
        String page = Files.readString(out.resolve("index.html"), StandardCharsets.UTF_8);
        assertTrue(page.contains("Not as written"), "the answer says it");
        assertTrue(page.contains("listed lists 2 NICs (mlx5_0, mlx5_1) for receiver:GPU0 and uses 1 (mlx5_0)"), page);
        assertTrue(page.contains("listed <b>(not as written: see the answer)</b>"), "the variants table marks it");
    }
}
