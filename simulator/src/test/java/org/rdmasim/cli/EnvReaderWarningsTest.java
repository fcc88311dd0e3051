package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an env reader keeps as written or passes over (a '$' it does not expand, a Kubernetes valueFrom it skips, a
 * YAML file with no env: list) is said, at the line and field it concerns. It was read and dropped: a value written
 * as {@code $SL} ran as the text "$SL", and {@code memory register --env} given a file holding no variables ran
 * with none, all in silence.
 */
class EnvReaderWarningsTest {
    @TempDir
    Path dir;

    @Test
    void aScenariosEnvFileAndEnvBlockWarnAtTheirLines() throws IOException {
        Files.writeString(dir.resolve("site.env"), "# site\nexport UCX_IB_SL=$SL\n");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, """
                name: env-warnings
                hosts:
                  trainer: {preset: gb200-tray, count: 1}
                  receiver: {preset: gb200-tray, count: 1}
                transport:
                  envFile: site.env
                  env: |
                    export UCX_MAX_RMA_RAILS=2
                    export UCX_IB_GID_INDEX=$GID
                workload:
                  transfers:
                    - {from: trainer0:GPU0, to: receiver0:GPU0, size: 1GB}
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out").toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.err().contains(dir.resolve("site.env") + ":2: transport.envFile: value of UCX_IB_SL contains '$'; "
                + "variables are not expanded"), o.err());
        assertTrue(o.err().contains(f + ":9: transport.env: value of UCX_IB_GID_INDEX contains '$'"), o.err());
    }

    @Test
    void aKubernetesBlocksValueFromIsSaidSkipped() throws IOException {
        Path f = dir.resolve("k.yaml");
        Files.writeString(f, """
                name: env-k8s
                hosts:
                  trainer: {preset: gb200-tray, count: 1}
                  receiver: {preset: gb200-tray, count: 1}
                transport:
                  env: |
                    env:
                      - name: UCX_MAX_RMA_RAILS
                        value: "2"
                      - name: UCX_NET_DEVICES
                        valueFrom: {configMapKeyRef: {name: nics, key: devices}}
                workload:
                  transfers:
                    - {from: trainer0:GPU0, to: receiver0:GPU0, size: 1GB}
                """);
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("out").toString(), "-q");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.err().contains(f + ":10: transport.env: UCX_NET_DEVICES uses valueFrom; skipped"), o.err());
        // explain's text says it under the variant, as its --json does
        CliTestSupport.Outcome e = CliTestSupport.run("explain", f.toString(), "-q");
        assertEquals(0, e.code(), e.err());
        assertTrue(e.out().contains("  warning: " + f + ":10: transport.env: UCX_NET_DEVICES uses valueFrom"), e.out());
    }

    @Test
    void memoryRegisterSaysAnEnvFileSetNothing() throws IOException {
        Path env = dir.resolve("pod.yaml");
        Files.writeString(env, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
        CliTestSupport.Outcome o = CliTestSupport.run("memory", "register", "--host", "gb200-tray", "--buffer", "1GiB",
                "--env", env.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.err().contains("rdmasim: warning: " + env + ":1: no env: list found in the YAML; no variables read"),
                o.err());
    }
}
