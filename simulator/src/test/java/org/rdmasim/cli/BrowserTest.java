package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every committed report page (scenario pages, the validation page, any study page under reports/) loads in
 * a real browser (Debian's chromium, headless) in a 1280 x 800 frame, and there: it has no horizontal
 * scroll, its answer (the element {@code id="verdict"}) starts on the first screen (above 800 px) and before
 * any image, and every image it shows loaded. Skipped, with a notice, where chromium is not installed
 * (.ci/run installs it when it can).
 */
class BrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    /** A laptop screen: the width every page must fit and the height of its first screen. */
    static final int WIDTH = 1280;
    static final int HEIGHT = 800;

    @TempDir
    Path profile;

    @Test
    void everyReportPageFitsTheScreenWithItsAnswerFirstAndNoMissingImage() throws Exception {
        assumeChromium();
        List<Path> pages = reportPages(CliTestSupport.repo().resolve("reports"));
        assertTrue(pages.size() >= 9, "committed report pages: " + pages);
        List<String> problems = new ArrayList<>();
        for (Path page : pages) {
            problems.addAll(problems(page, measure(page)));
        }
        assertEquals(List.of(), problems);
    }

    /** The check itself fails on a page with a table wider than the screen and on an answer below the fold. */
    @Test
    void aWideTableAndALateAnswerAreCaught() throws Exception {
        assumeChromium();
        Path wide = Files.writeString(profile.resolve("wide.html"), "<!DOCTYPE html><html><body>"
                + "<div id=\"verdict\">answer</div><table><tr><td style=\"white-space:nowrap\">" + "wide cell ".repeat(300)
                + "</td></tr></table></body></html>");
        List<String> found = problems(wide, measure(wide));
        assertTrue(found.size() == 1 && found.get(0).contains("horizontal scroll"), found.toString());
        Path late = Files.writeString(profile.resolve("late.html"), "<!DOCTYPE html><html><body>"
                + "<div style=\"height:900px\">preamble</div><div id=\"verdict\">answer</div></body></html>");
        found = problems(late, measure(late));
        assertTrue(found.size() == 1 && found.get(0).contains("first screen"), found.toString());
    }

    private static void assumeChromium() {
        if (!Files.isExecutable(CHROMIUM)) {
            System.out.println("NOTICE: BrowserTest skipped: " + CHROMIUM + " is not installed (apt-get install chromium)");
        }
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed");
    }

    /** Every index.html in a folder of reports/ or one level further down (a study's folder may nest). */
    static List<Path> reportPages(Path reports) throws IOException {
        try (Stream<Path> s = Files.walk(reports, 3)) {
            return s.filter(p -> p.getFileName().toString().equals("index.html")).sorted().toList();
        }
    }

    /** What is wrong with the page as measured; empty when nothing is. */
    private static List<String> problems(Path page, JsonNode m) {
        List<String> out = new ArrayList<>();
        if (m.has("error")) {
            out.add(page + ": " + m.get("error").asText());
            return out;
        }
        int scrollWidth = m.get("scrollWidth").asInt();
        int clientWidth = m.get("clientWidth").asInt();
        if (scrollWidth > WIDTH || scrollWidth > clientWidth) {
            out.add(page + ": horizontal scroll at " + WIDTH + " px (document " + scrollWidth + " px wide, "
                    + clientWidth + " px shown; widest: " + m.get("widest").asText() + ")");
        }
        double top = m.get("verdictTop").asDouble();
        if (top < 0 || top >= HEIGHT) {
            out.add(page + ": the answer (id=verdict) is not on the first screen: its top at " + top + " px");
        }
        if (m.get("imageBeforeVerdict").asBoolean()) {
            out.add(page + ": an image comes before the answer");
        }
        for (JsonNode broken : m.get("brokenImages")) {
            out.add(page + ": image did not load: " + broken.asText());
        }
        return out;
    }

    /**
     * Loads the page in a {@value #WIDTH} x {@value #HEIGHT} frame of a wrapper page; once it has loaded (images
     * included), the wrapper writes the page's measurements as JSON into its own DOM, which chromium dumps.
     */
    private JsonNode measure(Path page) throws IOException, InterruptedException {
        String script = """
                var f = document.getElementById('page');
                f.addEventListener('load', function () {
                  var r = {};
                  try {
                    var d = f.contentDocument, e = d.documentElement, v = d.getElementById('verdict');
                    r.scrollWidth = e.scrollWidth;
                    r.clientWidth = e.clientWidth;
                    r.verdictTop = v ? v.getBoundingClientRect().top : -1;
                    var imgs = Array.from(d.images);
                    r.imageBeforeVerdict = !!v && imgs.length > 0
                        && !!(v.compareDocumentPosition(imgs[0]) & Node.DOCUMENT_POSITION_PRECEDING);
                    r.brokenImages = imgs.filter(function (i) { return !i.complete || i.naturalWidth === 0; })
                        .map(function (i) { return i.getAttribute('src'); });
                    var widest = '', w = 0;
                    d.querySelectorAll('body *').forEach(function (x) {
                      var right = x.getBoundingClientRect().right;
                      if (right > w) { w = right; widest = x.tagName + (x.id ? '#' + x.id : '') + ' to ' + Math.round(right) + ' px'; }
                    });
                    r.widest = widest;
                  } catch (err) {
                    r.error = 'could not measure: ' + err;
                  }
                  var out = document.createElement('pre');
                  out.id = 'measured';
                  out.textContent = JSON.stringify(r);
                  document.body.appendChild(out);
                });
                """;
        Path wrapper = Files.createTempFile(profile, "measure", ".html");
        Files.writeString(wrapper, "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"page\" src=\""
                + page.toUri() + "\" style=\"width:" + WIDTH + "px;height:" + HEIGHT + "px;border:0\"></iframe><script>"
                + script + "</script></body></html>", StandardCharsets.UTF_8);
        Path dom = Files.createTempFile(profile, "dom", ".html");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile.resolve("chromium"), "--window-size=" + WIDTH + "," + HEIGHT,
                "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", wrapper.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), page + ": chromium did not finish in 90 s");
        assertEquals(0, p.exitValue(), page + ": chromium exit code");
        String html = Files.readString(dom, StandardCharsets.UTF_8);
        int start = html.indexOf("<pre id=\"measured\">");
        assertTrue(start >= 0, page + ": the page did not load in the frame");
        String json = html.substring(start + "<pre id=\"measured\">".length(), html.indexOf("</pre>", start))
                .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        return new ObjectMapper().readTree(json);
    }
}
