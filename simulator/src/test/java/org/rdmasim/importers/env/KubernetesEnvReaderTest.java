package org.rdmasim.importers.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.transport.config.EnvEntry;

class KubernetesEnvReaderTest {

    @Test
    void aSyntaxErrorNamesTheLineWhereTheParserStoppedAndItsProblemOnly() {
        // the flow sequence opened on line 3 is still open at the end of the text, line 4
        String text = "containers:\n  - name: w\n    env: [\n";
        EnvBlockException e = assertThrows(EnvBlockException.class, () -> KubernetesEnvReader.read(text, "bad.yaml"));
        assertEquals("bad.yaml:4: YAML syntax error (expected the node content, but found '<stream end>'), "
                + "expected a Kubernetes manifest or a list of containers with env: lists", e.getMessage());
        // a scanner error has no context mark: the line is the problem's
        e = assertThrows(EnvBlockException.class, () -> KubernetesEnvReader.read("env:\n  a: b: c\n", "bad.yaml"));
        assertEquals("bad.yaml:2: YAML syntax error (mapping values are not allowed here), "
                + "expected a Kubernetes manifest or a list of containers with env: lists", e.getMessage());
    }

    @Test
    void fiftyFiveNestedMappingsAreWithinTheDepthLimit() {
        // SnakeYAML's own default stops at 50 levels; the reader allows InputLimits.MAX_DEPTH (64)
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 55; i++) {
            text.append("  ".repeat(i)).append("k").append(i).append(":\n");
        }
        String pad = "  ".repeat(55);
        text.append(pad).append("env:\n").append(pad).append("- name: A\n").append(pad).append("  value: \"x\"\n");
        EnvBlock block = KubernetesEnvReader.read(text.toString(), "deep.yaml");
        assertEquals(List.of(new EnvEntry("A", "x", "deep.yaml", 57)), block.entries());
    }

    /**
     * An alias puts one sequence inside another, so the walk goes deeper than the text is nested. The
     * document's mapping is depth 0, each '[' one more: 32 levels around an alias of 32 levels is depth
     * 64, the limit, and passes; one more level fails at the line of the aliased node.
     */
    @Test
    void aliasesCannotNestPastTheLimit() {
        EnvBlock ok = KubernetesEnvReader.read(aliased(32, 32, "[", "]"), "a.yaml");
        assertEquals(List.of("a.yaml:1: no env: list found in the YAML; no variables read"), ok.warnings());
        EnvBlockException e = assertThrows(EnvBlockException.class,
                () -> KubernetesEnvReader.read(aliased(32, 33, "[", "]"), "a.yaml"));
        assertEquals("a.yaml:2: YAML nested deeper than 64 levels, expected a Kubernetes manifest", e.getMessage());
        e = assertThrows(EnvBlockException.class,
                () -> KubernetesEnvReader.read(aliased(40, 30, "{k: ", "}"), "m.yaml"));
        assertEquals("m.yaml:2: YAML nested deeper than 64 levels, expected a Kubernetes manifest", e.getMessage());
    }

    private static String aliased(int outer, int inner, String open, String close) {
        String innermost = open.equals("[") ? "" : "1";
        return "# an alias nests deeper than the text shows\n"
                + "a: &x " + open.repeat(inner) + innermost + close.repeat(inner) + "\n"
                + "b: " + open.repeat(outer) + "*x" + close.repeat(outer) + "\n";
    }
}
