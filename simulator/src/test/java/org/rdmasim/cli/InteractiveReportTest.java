package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * interactive.html and its data: the lines it draws are the records of nic-throughput.csv and the
 * per-receiver times of transfers.csv, uPlot is in the folder (and in its manifest), the same run writes
 * the same bytes, and the page draws its charts in a browser from file:// with no network.
 */
class InteractiveReportTest {
    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

    @TempDir
    Path dir;

    private static JsonNode data(Path report) throws IOException {
        String js = Files.readString(report.resolve("interactive-data.js"), StandardCharsets.UTF_8);
        String prefix = "window.RDMASIM_DATA = ";
        assertTrue(js.startsWith(prefix) && js.endsWith(";\n"), report + ": data file shape");
        return new ObjectMapper().readTree(js.substring(prefix.length(), js.length() - 2));
    }

    private static List<Path> committedReports() throws IOException {
        try (Stream<Path> s = Files.list(CliTestSupport.repo().resolve("reports"))) {
            return s.filter(d -> Files.exists(d.resolve("interactive.html"))).sorted().toList();
        }
    }

    private static void close(double want, double got, String what) {
        // the CSV keeps about nine significant digits, the page's data every digit of the double
        assertEquals(want, got, Math.abs(want) * 1e-8 + 1e-12, what);
    }

    /** Each NIC line of the page is that NIC's rows of nic-throughput.csv, in order, and nothing else. */
    private static void timelinesAreTheCsv(Path report) throws IOException {
        Map<String, List<double[]>> csv = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(report.resolve("nic-throughput.csv"), StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            csv.computeIfAbsent(f[0] + "|" + f[1], k -> new ArrayList<>())
                    .add(new double[] {Double.parseDouble(f[2]), Double.parseDouble(f[3])});
        }
        int seen = 0;
        for (JsonNode t : data(report).get("timelines")) {
            assertFalse(t.has("omitted"), report + ": the committed reports are small enough to draw whole");
            for (JsonNode nic : t.get("nics")) {
                String key = t.get("variant").asText() + "|" + nic.get("nic").asText();
                List<double[]> rows = csv.get(key);
                assertTrue(rows != null, report + ": " + key + " is not in nic-throughput.csv");
                assertEquals(rows.size(), nic.get("from_s").size(), report + " " + key);
                for (int i = 0; i < rows.size(); i++) {
                    close(rows.get(i)[0], nic.get("from_s").get(i).asDouble(), key + " from_s " + i);
                    close(rows.get(i)[1], nic.get("gbps").get(i).asDouble(), key + " gbps " + i);
                }
                seen++;
            }
        }
        assertEquals(csv.size(), seen, report + ": every NIC of nic-throughput.csv is drawn");
    }

    /**
     * For a variant without a fan-out, the CDF is of each receiving GPU's span in transfers.csv (first
     * start to last finish): at each drawn time, the fraction of spans at or below it.
     */
    private static int cdfsAreTheTransfers(Path report) throws IOException {
        Map<String, Map<String, double[]>> spans = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(report.resolve("transfers.csv"), StandardCharsets.UTF_8);
        List<String> header = List.of(lines.get(0).split(","));
        int variant = header.indexOf("variant");
        int row = header.indexOf("row");
        int to = header.indexOf("to");
        int start = header.indexOf("start_s");
        int finish = header.indexOf("finish_s");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (!f[row].equals("transfer")) {
                continue;
            }
            double[] s = spans.computeIfAbsent(f[variant], k -> new LinkedHashMap<>())
                    .computeIfAbsent(f[to], k -> new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY});
            s[0] = Math.min(s[0], Double.parseDouble(f[start]));
            s[1] = Math.max(s[1], Double.parseDouble(f[finish]));
        }
        int checked = 0;
        for (JsonNode c : data(report).get("cdf")) {
            JsonNode xs = c.get("seconds");
            JsonNode ys = c.get("fraction");
            assertEquals(1.0, ys.get(ys.size() - 1).asDouble(), 1e-12, report + ": a CDF ends at 1");
            if (c.get("fanout").asBoolean()) {
                continue;
            }
            double[] want = spans.get(c.get("variant").asText()).values().stream().mapToDouble(s -> s[1] - s[0]).sorted()
                    .toArray();
            // each drawn step stands for (rise of the fraction) x n receivers at its time: spelled out, the
            // receivers' times are the spans of transfers.csv, one for one
            List<Double> got = new ArrayList<>();
            double before = 0;
            for (int i = 0; i < xs.size(); i++) {
                double x = xs.get(i).asDouble();
                assertTrue(i == 0 || x > xs.get(i - 1).asDouble(), "times rise strictly");
                long k = Math.round((ys.get(i).asDouble() - before) * want.length);
                assertTrue(k >= 1, "every drawn step is at least one receiver");
                for (long j = 0; j < k; j++) {
                    got.add(x);
                }
                before = ys.get(i).asDouble();
            }
            assertEquals(want.length, got.size(), report + " " + c.get("variant").asText() + ": receivers");
            for (int i = 0; i < want.length; i++) {
                close(want[i], got.get(i), report + " " + c.get("variant").asText() + " receiver " + i);
            }
            close(want[want.length - 1], xs.get(xs.size() - 1).asDouble(), "slowest span");
            checked++;
        }
        return checked;
    }

    @Test
    void everyCommittedInteractivePageDrawsTheCsvRecords() throws IOException {
        List<Path> reports = committedReports();
        assertTrue(reports.size() >= 15, "committed reports with an interactive page: " + reports);
        int cdfs = 0;
        for (Path report : reports) {
            timelinesAreTheCsv(report);
            cdfs += cdfsAreTheTransfers(report);
        }
        assertTrue(cdfs >= 10, "CDFs checked against transfers.csv: " + cdfs);
    }

    @Test
    void aRunWritesTheCommittedBytesWithUplotBesideThemAndInTheManifest() throws Exception {
        Path repo = CliTestSupport.repo();
        Path fresh = dir.resolve("faults");
        int code = CliTestSupport.run("run", repo.resolve("scenarios/faults-nic-down.yaml").toString(), "--out",
                fresh.toString(), "-q", "--threads", "2").code();
        assertEquals(0, code);
        Path committed = repo.resolve("reports/faults-nic-down");
        for (String f : List.of("interactive.html", "interactive-data.js")) {
            assertArrayEquals(Files.readAllBytes(committed.resolve(f)), Files.readAllBytes(fresh.resolve(f)),
                    f + ": the same scenario and seed give the same bytes as reports/");
        }
        for (String lib : List.of("uPlot.iife.min.js", "uPlot.min.css")) {
            try (InputStream in = getClass().getClassLoader().getResourceAsStream(UPLOT + lib)) {
                assertTrue(in != null, lib + " on the class path");
                assertArrayEquals(in.readAllBytes(), Files.readAllBytes(fresh.resolve(lib)), lib + " copied whole");
            }
        }
        String manifest = Files.readString(fresh.resolve(".rdmasim-report"), StandardCharsets.UTF_8);
        for (String f : List.of("interactive.html", "interactive-data.js", "uPlot.iife.min.js", "uPlot.min.css",
                "uPlot-LICENSE.txt")) {
            String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(fresh.resolve(f))));
            assertTrue(manifest.contains(hash + "  " + f + "\n"), f + " is listed in the manifest with its hash");
        }
        String page = Files.readString(fresh.resolve("interactive.html"), StandardCharsets.UTF_8);
        assertFalse(page.contains("http://") || page.contains("https://cdn") || page.contains("//unpkg"),
                "the page loads nothing from the network");
        assertTrue(Files.readString(fresh.resolve("index.html"), StandardCharsets.UTF_8).contains("href=\"interactive.html\""),
                "the report page links the interactive page");
    }

    @Test
    void theInteractivePageDrawsItsChartsOfflineInABrowser() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        if (!Files.isExecutable(chromium)) {
            System.out.println("NOTICE: InteractiveReportTest browser check skipped: " + chromium + " is not installed");
        }
        Assumptions.assumeTrue(Files.isExecutable(chromium), "chromium is not installed");
        Path report = CliTestSupport.repo().resolve("reports/fanout-256-pin-vs-stripe-vs-tree");
        Path dom = dir.resolve("dom.html");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + dir.resolve("profile"), "--virtual-time-budget=5000", "--dump-dom",
                report.resolve("interactive.html").toUri().toString()).redirectOutput(dom.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "chromium did not finish in 90 s");
        String html = Files.readString(dom, StandardCharsets.UTF_8);
        int charts = data(report).get("timelines").size() + 1;
        Matcher m = Pattern.compile("<canvas").matcher(html);
        int canvases = 0;
        while (m.find()) {
            canvases++;
        }
        assertEquals(charts, canvases, "one uPlot canvas per chart (the CDF and each variant's timeline)");
        assertTrue(html.contains("fraction of receivers done"), "the CDF chart's title is drawn");
    }
}
