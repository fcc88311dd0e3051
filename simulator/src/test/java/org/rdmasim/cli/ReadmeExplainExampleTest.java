package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The refit excerpt of {@code explain} the README prints is what the command prints today, line for line: a
 * change of wording (a bound becoming a tie) left it stale once, and only a new user noticed.
 */
class ReadmeExplainExampleTest {
    private static final String LEAD = "`./rdmasim explain scenarios/refit-qwen3-4b-gb200.yaml` prints, for its `pinned` variant:";

    @Test
    void theReadmesRefitExplainExcerptIsWhatExplainPrints() throws Exception {
        String readme = Files.readString(CliTestSupport.repo().resolve("README.md"), StandardCharsets.UTF_8);
        int at = readme.indexOf(LEAD);
        assertTrue(at >= 0, "README introduces the excerpt with: " + LEAD);
        int open = readme.indexOf("```\n", at) + 4;
        int close = readme.indexOf("\n```", open);
        List<String> excerpt = Arrays.asList(readme.substring(open, close).split("\n", -1));
        CliTestSupport.Outcome o = CliTestSupport.run("explain",
                CliTestSupport.repo().resolve("scenarios/refit-qwen3-4b-gb200.yaml").toString(), "--variant", "pinned");
        assertEquals(0, o.code(), o.err());
        List<String> printed = Arrays.asList(o.out().split("\n", -1));
        int from = printed.indexOf(excerpt.get(0));
        assertTrue(from >= 0, "explain prints the excerpt's first line: " + excerpt.get(0));
        for (int k = 0; k < excerpt.size(); k++) {
            assertEquals(printed.get(from + k), excerpt.get(k), "README excerpt line " + (k + 1));
        }
        // the prose under the excerpt quotes its method lines, rounded: the same figures
        String after = readme.substring(close).replaceAll("\\s+", " ");
        String p2p = seconds(excerpt, "method nccl-p2p", 3);
        assertTrue(after.contains("host work on every inference rank (`refit.reshardCallSeconds`, calibrated on one "
                + "NeMo-RL PR #2971 row), so the cycle takes " + p2p + " s."), "README should say " + p2p
                + " s for nccl-p2p, as its excerpt line does");
        String broadcast = seconds(excerpt, "method nccl-broadcast (bucket 8GiB), all trainer ranks sending", 3);
        assertTrue(after.contains("The NCCL broadcast (" + broadcast + " s)"), "README should say " + broadcast
                + " s for the NCCL broadcast, as its excerpt line does");
        String engine = seconds(excerpt, "method checkpoint-engine (bucket 8GiB)", 2);
        assertTrue(after.contains("the checkpoint engine (" + engine + " s)"), "README should say " + engine
                + " s for the checkpoint engine, as its excerpt line does");
    }

    /** The seconds of the excerpt's "what would halve it" line ending in {@code change}, to {@code places}. */
    private static String seconds(List<String> excerpt, String change, int places) {
        String line = excerpt.stream().filter(l -> l.endsWith(change)).findFirst().orElseThrow(
                () -> new AssertionError("no excerpt line ends in " + change));
        return String.format(java.util.Locale.ROOT, "%." + places + "f", Double.parseDouble(line.trim().split("\\s+")[0]));
    }
}
