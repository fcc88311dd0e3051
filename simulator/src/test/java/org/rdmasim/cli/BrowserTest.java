package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every committed report page loads in a real browser (Debian's chromium, headless): the page renders,
 * its answer comes first, and every image it shows exists. Skipped, with a notice, where chromium is not
 * installed (.ci/run installs it when it can).
 */
class BrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path profile;

    @Test
    void everyReportPageRendersWithItsAnswerFirstAndNoMissingImage() throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            System.out.println("NOTICE: BrowserTest skipped: " + CHROMIUM + " is not installed (apt-get install chromium)");
        }
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed");
        List<Path> pages;
        try (Stream<Path> s = Files.list(CliTestSupport.repo().resolve("reports"))) {
            pages = s.map(d -> d.resolve("index.html")).filter(Files::exists).sorted().toList();
        }
        assertTrue(pages.size() >= 9, "committed report pages: " + pages);
        for (Path page : pages) {
            String dom = render(page);
            assertTrue(dom.contains("</html>"), page + " did not render");
            boolean scenario = !page.getParent().getFileName().toString().equals("validation");
            if (scenario) {
                int verdict = dom.indexOf("id=\"verdict\"");
                int firstImage = dom.indexOf("<img");
                assertTrue(verdict > 0 && (firstImage < 0 || verdict < firstImage), page + ": the answer comes first");
            }
            Matcher m = Pattern.compile("<img[^>]* src=\"([^\"]+)\"").matcher(dom);
            List<String> missing = new ArrayList<>();
            while (m.find()) {
                if (!Files.exists(page.getParent().resolve(m.group(1)))) {
                    missing.add(m.group(1));
                }
            }
            assertEquals(List.of(), missing, page + ": missing images");
        }
    }

    /** The page's DOM after chromium loaded it headless. */
    private String render(Path page) throws IOException, InterruptedException {
        Path dom = Files.createTempFile(profile, "dom", ".html");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile.resolve("chromium"), "--dump-dom",
                page.toUri().toString()).redirectOutput(dom.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), page + ": chromium did not finish in 60 s");
        assertEquals(0, p.exitValue(), page + ": chromium exit code");
        return Files.readString(dom, StandardCharsets.UTF_8);
    }
}
