package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * explain writes a count of things the way it writes every other count, with thousands separators: Qwen3-30B-A3B's
 * 18,867 tensors sit on the same line as its 30,532,122,624 parameters and 61,064,245,248 bytes.
 */
class ExplainCountsTest {
    private static final Pattern BARE_COUNT = Pattern.compile("\\b\\d{4,} (tensors|parameters|bytes|ranks|routes)\\b");

    @Test
    void theRefitPlanWritesItsTensorCountWithSeparators() {
        CliTestSupport.Outcome o = CliTestSupport.run("explain",
                CliTestSupport.repo().resolve("scenarios/refit-moe-methods.yaml").toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("30,532,122,624 parameters, 18,867 tensors, 61,064,245,248 bytes"),
                o.out().lines().filter(l -> l.contains("tensors,")).findFirst().orElse("no model line"));
        Matcher bare = BARE_COUNT.matcher(o.out());
        assertTrue(!bare.find(), () -> "a count without separators: " + bare.group());
    }
}
