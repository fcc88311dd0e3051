package org.rdmasim.importers.env;

import org.rdmasim.transport.config.EnvEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvBlockTest {

    @Test
    void readsExportLinesWithQuotesCommentsAndBlankLines() {
        String text = """
                # deployment tweaks from ModelExpress #449, layer 1

                export UCX_NET_DEVICES="mlx5_0:1,mlx5_1:1"
                export UCX_MAX_RMA_RAILS='4'   # override NIXL's 2
                UCX_RNDV_SCHEME=get_zcopy
                  export   UCX_RNDV_THRESH=0 # trailing comment
                MSG="a \\"quoted\\" word"
                EMPTY=
                """;
        EnvBlock block = EnvBlock.parse(text, "env.sh");

        assertEquals(EnvFormat.SHELL, block.format());
        assertEquals(List.of(
                new EnvEntry("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1", "env.sh", 3),
                new EnvEntry("UCX_MAX_RMA_RAILS", "4", "env.sh", 4),
                new EnvEntry("UCX_RNDV_SCHEME", "get_zcopy", "env.sh", 5),
                new EnvEntry("UCX_RNDV_THRESH", "0", "env.sh", 6),
                new EnvEntry("MSG", "a \"quoted\" word", "env.sh", 7),
                new EnvEntry("EMPTY", "", "env.sh", 8)), block.entries());
        assertTrue(block.warnings().isEmpty());
    }

    @Test
    void singleQuotesKeepDollarAndHashLiterally() {
        EnvBlock block = EnvBlock.parse("A='$HOME # not a comment'\nB=$HOME\n", "x");
        assertEquals("$HOME # not a comment", block.entries().get(0).value());
        assertEquals("$HOME", block.entries().get(1).value());
        assertEquals(1, block.warnings().size(), "only the unquoted $ is reported");
        assertTrue(block.warnings().get(0).startsWith("x:2: value of B contains '$'"));
    }

    @Test
    void lineWithoutEqualsNamesFileLineAndExpectation() {
        EnvBlockException e = assertThrows(EnvBlockException.class,
                () -> EnvBlock.parse("A=1\n\nexport UCX_TLS\n", "env.sh"));
        assertEquals("env.sh:3: no '=' in 'UCX_TLS', expected NAME=VALUE or export NAME=VALUE", e.getMessage());
        assertEquals(3, e.line());
    }

    @Test
    void badNameIsRejectedWithItsLine() {
        EnvBlockException e = assertThrows(EnvBlockException.class,
                () -> EnvBlock.parse("OK=1\nUCX-TLS=rc\n", "env.sh"));
        assertEquals("env.sh:2: bad variable name 'UCX-TLS', expected letters, digits and '_', "
                + "not starting with a digit", e.getMessage());
        assertThrows(EnvBlockException.class, () -> EnvBlock.parse("1X=1", "env.sh"));
    }

    @Test
    void unterminatedQuotesAreRejected() {
        EnvBlockException single = assertThrows(EnvBlockException.class,
                () -> EnvBlock.parse("A=1\nB='abc\n", "env.sh"));
        assertEquals("env.sh:2: unterminated single quote, expected a closing ' on the same line",
                single.getMessage());
        EnvBlockException dbl = assertThrows(EnvBlockException.class,
                () -> EnvBlock.parse("B=\"abc", "env.sh"));
        assertTrue(dbl.getMessage().startsWith("env.sh:1: unterminated double quote"));
    }

    @Test
    void textAfterAValueIsRejected() {
        EnvBlockException e = assertThrows(EnvBlockException.class,
                () -> EnvBlock.parse("A=b c", "env.sh"));
        assertTrue(e.getMessage().startsWith("env.sh:1: unexpected text 'c' after the value"));
    }

    private static final String TWO_CONTAINERS = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: receiver-0
            spec:
              containers:
                - name: worker
                  image: dynamo:latest
                  env:
                    - name: MX_RDMA_NIC_PIN
                      value: "auto"
                    - name: UCX_MAX_RMA_RAILS
                      value: "4"
                    - name: POD_IP
                      valueFrom:
                        fieldRef:
                          fieldPath: status.podIP
                - env:
                    - name: UCX_NET_DEVICES
                      value: mlx5_0:1,mlx5_1:1
                    - name: EMPTY
                  name: sidecar
            """;

    @Test
    void readsEnvListsOfEveryContainerWithLinesAndContainerNames() {
        EnvBlock block = EnvBlock.parse(TWO_CONTAINERS, "pod.yaml");

        assertEquals(EnvFormat.KUBERNETES_YAML, block.format());
        assertEquals(List.of(
                new EnvEntry("MX_RDMA_NIC_PIN", "auto", "pod.yaml[worker]", 10),
                new EnvEntry("UCX_MAX_RMA_RAILS", "4", "pod.yaml[worker]", 12),
                new EnvEntry("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1", "pod.yaml[sidecar]", 19),
                new EnvEntry("EMPTY", "", "pod.yaml[sidecar]", 21)), block.entries());
        assertEquals(List.of("pod.yaml:14: POD_IP uses valueFrom; skipped, its value is only known "
                + "inside a running pod"), block.warnings());
    }

    @Test
    void readsABareListAndSeveralDocuments() {
        String text = """
                ---
                - name: a
                  env:
                    - name: NCCL_IB_HCA
                      value: "=mlx5_0,mlx5_1"
                ---
                kind: Deployment
                spec:
                  template:
                    spec:
                      containers:
                        - name: b
                          env: [{name: NCCL_NET_GDR_LEVEL, value: "PHB"}]
                """;
        EnvBlock block = EnvBlock.parse(text, "all.yaml");
        assertEquals(List.of(
                new EnvEntry("NCCL_IB_HCA", "=mlx5_0,mlx5_1", "all.yaml[a]", 4),
                new EnvEntry("NCCL_NET_GDR_LEVEL", "PHB", "all.yaml[b]", 13)), block.entries());
    }

    @Test
    void yamlEntryWithoutNameIsAnErrorAtItsLine() {
        String text = """
                containers:
                  - name: w
                    env:
                      - name: A
                        value: "1"
                      - value: "2"
                """;
        EnvBlockException e = assertThrows(EnvBlockException.class, () -> EnvBlock.parse(text, "p.yaml"));
        assertEquals("p.yaml:6: env entry without 'name', expected '- name: VAR' followed by 'value: \"...\"'",
                e.getMessage());
    }

    @Test
    void yamlSyntaxErrorCarriesTheParserLine() {
        String text = "containers:\n  - name: w\n    env: [\n";
        EnvBlockException e = assertThrows(EnvBlockException.class, () -> EnvBlock.parse(text, "bad.yaml"));
        assertTrue(e.getMessage().startsWith("bad.yaml:"), e.getMessage());
        assertTrue(e.getMessage().contains("YAML syntax error"), e.getMessage());
    }

    @Test
    void unquotedNumbersAreReadButFlagged() {
        EnvBlock block = EnvBlock.parse("env:\n  - name: UCX_MAX_RMA_RAILS\n    value: 4\n", "n.yaml");
        assertEquals("4", block.entries().get(0).value());
        assertEquals(1, block.warnings().size());
        assertTrue(block.warnings().get(0).startsWith("n.yaml:3: env value '4' is not a string"));
    }

    @Test
    void detectsFormatFromFirstMeaningfulLine() {
        assertEquals(EnvFormat.SHELL, EnvBlock.detect("# c\nexport A=b:c\n"));
        assertEquals(EnvFormat.SHELL, EnvBlock.detect("A=b: c\n"));
        assertEquals(EnvFormat.KUBERNETES_YAML, EnvBlock.detect("# c\napiVersion: v1\n"));
        assertEquals(EnvFormat.KUBERNETES_YAML, EnvBlock.detect("- name: x\n"));
    }

    @Test
    void parsesFilesUsingTheirPathAsSource(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("env.sh");
        Files.writeString(file, "export UCX_MAX_RMA_RAILS=4\n");
        EnvBlock block = EnvBlock.parse(file);
        assertEquals(file.toString() + ":1", block.entries().get(0).location());
    }
}
