package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario the README shows under "Scenarios", taken from the README's own text, does what it says. */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    static String firstYamlBlockUnder(String readme, String heading) {
        int at = readme.indexOf("\n## " + heading);
        assertTrue(at >= 0, "README has a '" + heading + "' section");
        int open = readme.indexOf("```yaml\n", at);
        int close = readme.indexOf("\n```", open + 8);
        return readme.substring(open + 8, close + 1);
    }

    @Test
    void theScenarioExampleRunsAsTheReadmeSaysAndItsStripedVariantStripes() throws Exception {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"), StandardCharsets.UTF_8);
        Path scenario = dir.resolve("my-pull.yaml");
        Files.writeString(scenario, firstYamlBlockUnder(readme, "Scenarios"), StandardCharsets.UTF_8);
        Path out = dir.resolve("out");
        var r = CliTestSupport.run("run", scenario.toString(), "--out", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode variants = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("variants");
        List<String> said = new ArrayList<>();
        for (JsonNode v : variants) {
            said.add(String.format(java.util.Locale.ROOT, "%s %.4f s %.0f Gbps", v.get("name").asText(),
                    v.get("makespanSeconds").asDouble(), v.get("aggregateGbps").asDouble()));
        }
        // the README states the answer in these words: a change that moves it must move the README too
        for (String line : said) {
            String name = line.substring(0, line.indexOf(' '));
            assertTrue(readme.contains("`" + line + "`"), "README states '" + line + "' for " + name);
        }
        JsonNode striped = variants.get(1);
        assertEquals("striped", striped.get("name").asText());
        assertEquals(0, striped.get("overrides").size(), "nothing replaces the striped variant's devices");
        assertTrue(striped.get("nicUse").get("used").size() > 1, "the striped variant uses more than one NIC");
        assertEquals(4, striped.get("nicUse").get("listed").size());
    }
}
