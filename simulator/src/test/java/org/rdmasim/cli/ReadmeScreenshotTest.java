package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's first image is a screenshot of a report page, and it must show what that page says today: a
 * screenshot taken in the morning named a bound ("one QP's RDMA READ rate ... CALIBRATED") that the page
 * regenerated in the evening no longer named, and nothing noticed.
 *
 * <p>The retake ({@code mvn -o test -Dtest=ReadmeScreenshotTest -Dreadme.retake=true}, needs Debian's chromium)
 * screenshots the page's first screen and writes into the PNG, beside the pixels, which page it shows and the
 * text of that page's head and answer as they were then. The check fails when README's first image carries no
 * such record, when README does not name the page it shows, or when the page (as {@code ./rdmasim demo} writes
 * it) now reads otherwise: then retake it.
 */
class ReadmeScreenshotTest {
    /** PNG text keys (iTXt chunks) of the retake's record. */
    static final String PAGE_KEY = "rdmasim-page";
    static final String SHOWS_KEY = "rdmasim-shows";
    /** The page README's first image shows, and its first screen (BrowserTest's laptop screen). */
    static final String PAGE = "reports/seed003-nic-pin-vs-stripe/index.html";
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path tmp;

    @Test
    void readmesFirstImageShowsTheAnswerItsPageGivesToday() throws IOException {
        Path repo = CliTestSupport.repo();
        String readme = Files.readString(repo.resolve("README.md"));
        Matcher first = Pattern.compile("!\\[[^\\]]*\\]\\(([^)]+)\\)").matcher(readme);
        assertTrue(first.find(), "README has no image");
        Path image = repo.resolve(first.group(1));
        assertTrue(Files.isRegularFile(image), "README's first image is missing: " + first.group(1));
        Map<String, String> record = texts(Files.readAllBytes(image));
        String page = record.get(PAGE_KEY);
        assertNotNull(page, first.group(1) + " carries no record of the page it shows: retake it with "
                + "-Dreadme.retake=true (see this test's class comment)");
        assertTrue(readme.contains(page), "README does not name the page its first image shows: " + page);
        String today = shows(Files.readString(repo.resolve(page)));
        assertEquals(today, record.get(SHOWS_KEY), first.group(1) + " shows what " + page + " said when it was taken, "
                + "not what it says now: retake it with -Dreadme.retake=true (see this test's class comment)");
    }

    /** The check can fail: a record of another answer differs from the page's, and a PNG without one has none. */
    @Test
    void aScreenshotOfAnOlderAnswerIsCaught() throws IOException {
        String then = "<h1>s</h1><div class=\"verdict\" id=\"verdict\"><h2>Answer</h2><p>limited by one QP's READ</p></div>";
        String now = then.replace("one QP's READ", "GPU0's PCIe link");
        byte[] png = withTexts(minimalPng(), Map.of(PAGE_KEY, PAGE, SHOWS_KEY, shows(then)));
        assertEquals(shows(then), texts(png).get(SHOWS_KEY));
        assertTrue(!shows(now).equals(texts(png).get(SHOWS_KEY)));
        assertEquals(Map.of(), texts(minimalPng()));
        // nested markup inside the answer is kept up to the answer's own closing tag, entities read as text
        assertEquals("s Answer a & b c", shows("<h1>s</h1><div id=\"verdict\"><h2>Answer</h2><div>a &amp; b</div>c</div>"
                + "<h2>later</h2>"));
    }

    /** Retakes README's screenshot from the page as it is now (run only when asked: it rewrites the PNG). */
    @Test
    @EnabledIfSystemProperty(named = "readme.retake", matches = "true")
    void retake() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed");
        Path repo = CliTestSupport.repo();
        Path page = repo.resolve(PAGE).toAbsolutePath().normalize();
        Path shot = tmp.resolve("shot.png");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + tmp.resolve("chromium"),
                "--window-size=" + BrowserTest.WIDTH + "," + BrowserTest.HEIGHT, "--virtual-time-budget=5000",
                "--screenshot=" + shot, page.toUri().toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "chromium did not finish in 90 s");
        assertEquals(0, p.exitValue(), "chromium exit code");
        Map<String, String> record = new LinkedHashMap<>();
        record.put(PAGE_KEY, PAGE);
        record.put(SHOWS_KEY, shows(Files.readString(page)));
        Files.write(repo.resolve("reports/answer-seed003.png"), withTexts(Files.readAllBytes(shot), record));
    }

    /**
     * What the first screen of a report page says: its text from the title to the end of the answer (the
     * element {@code id="verdict"}, nested elements included), tags dropped, entities read, spaces squeezed.
     */
    static String shows(String html) {
        int start = Math.max(0, html.indexOf("<h1"));
        int verdict = html.indexOf("id=\"verdict\"");
        assertTrue(verdict > 0, "the page has no answer (id=verdict)");
        int open = html.lastIndexOf("<div", verdict);
        int depth = 0;
        int end = -1;
        Matcher tag = Pattern.compile("<(/?)div\\b").matcher(html);
        tag.region(open, html.length());
        while (tag.find()) {
            depth += tag.group(1).isEmpty() ? 1 : -1;
            if (depth == 0) {
                end = html.indexOf('>', tag.start()) + 1;
                break;
            }
        }
        assertTrue(end > 0, "the answer's element is not closed");
        String text = html.substring(start, end).replaceAll("<[^>]*>", " ");
        text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&apos;", "'").replace("&middot;", "\u00b7").replace("&amp;", "&");
        return text.replaceAll("\\s+", " ").trim();
    }

    /** The iTXt records of a PNG, key to text. */
    static Map<String, String> texts(byte[] png) {
        Map<String, String> out = new LinkedHashMap<>();
        ByteBuffer b = ByteBuffer.wrap(png);
        b.position(SIGNATURE.length);
        while (b.remaining() >= 12) {
            int length = b.getInt();
            byte[] type = new byte[4];
            b.get(type);
            byte[] data = new byte[length];
            b.get(data);
            b.getInt(); // CRC
            if (new String(type, StandardCharsets.US_ASCII).equals("iTXt")) {
                // keyword NUL, compression flag and method, language NUL, translated keyword NUL, text
                int k = indexOf(data, 0);
                int lang = indexOf(data, k + 3);
                int translated = indexOf(data, lang + 1);
                out.put(new String(data, 0, k, StandardCharsets.ISO_8859_1),
                        new String(data, translated + 1, data.length - translated - 1, StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** {@code png} with {@code texts} as uncompressed iTXt chunks just before its end chunk. */
    static byte[] withTexts(byte[] png, Map<String, String> texts) throws IOException {
        int iend = png.length - 12; // IEND: length 0, type, CRC
        assertEquals("IEND", new String(png, iend + 4, 4, StandardCharsets.US_ASCII), "not a PNG ending in IEND");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(png, 0, iend);
        for (var e : texts.entrySet()) {
            ByteArrayOutputStream data = new ByteArrayOutputStream();
            data.write(e.getKey().getBytes(StandardCharsets.ISO_8859_1));
            data.write(new byte[] {0, 0, 0, 0, 0});
            data.write(e.getValue().getBytes(StandardCharsets.UTF_8));
            byte[] body = data.toByteArray();
            out.write(ByteBuffer.allocate(4).putInt(body.length).array());
            byte[] typed = new byte[4 + body.length];
            System.arraycopy("iTXt".getBytes(StandardCharsets.US_ASCII), 0, typed, 0, 4);
            System.arraycopy(body, 0, typed, 4, body.length);
            out.write(typed);
            CRC32 crc = new CRC32();
            crc.update(typed);
            out.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        }
        out.write(png, iend, 12);
        return out.toByteArray();
    }

    private static int indexOf(byte[] data, int from) {
        for (int i = from; i < data.length; i++) {
            if (data[i] == 0) {
                return i;
            }
        }
        throw new AssertionError("malformed iTXt chunk");
    }

    /** A 1 x 1 PNG written by ImageIO. */
    private static byte[] minimalPng() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB),
                "png", out);
        return out.toByteArray();
    }
}
