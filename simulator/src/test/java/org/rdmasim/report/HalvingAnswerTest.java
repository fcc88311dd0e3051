package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Answer of every committed refit report heads its reruns by what they found: "What would halve it" only
 * over a list where some change halves the refit, "No single change tried halves it" only where none does.
 */
class HalvingAnswerTest {
    private static final Pattern STATEMENT = Pattern.compile(
            "(What would halve it \\(each change tried alone|No single change tried halves it)[^<]*</span>\\s*<ul>(.*?)</ul>",
            Pattern.DOTALL);

    @Test
    void theHeadingSaysWhatTheRerunsFound() throws IOException {
        Path reports = Path.of(System.getProperty("rdmasim.repo", "..")).resolve("reports");
        int halving = 0;
        int none = 0;
        try (Stream<Path> folders = Files.list(reports)) {
            for (Path f : folders.filter(p -> p.getFileName().toString().startsWith("refit-")).sorted().toList()) {
                Matcher m = STATEMENT.matcher(Files.readString(f.resolve("index.html"), StandardCharsets.UTF_8));
                while (m.find()) {
                    boolean listed = m.group(2).contains("halves it or better");
                    if (m.group(1).startsWith("What")) {
                        halving++;
                        assertTrue(listed, f + ": 'What would halve it' over no change that halves it: " + m.group(2));
                    } else {
                        none++;
                        assertFalse(listed, f + ": 'No single change' over one that halves it: " + m.group(2));
                    }
                }
            }
        }
        assertTrue(halving > 0 && none > 0, "both headings occur in the committed refit reports: " + halving + ", " + none);
    }
}
