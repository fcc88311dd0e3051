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
import java.util.ArrayList;
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

    /**
     * Each fan-out receiver timeline is the receivers of summary.json (name, arrival as startSeconds, finish)
     * and of transfers.csv (a receiver's transfers are named c&lt;cycle&gt;/&lt;host&gt;:&lt;GPU&gt;; its post is
     * the start of its last attempt, its finish the last finish), every receiver once, in arrival order.
     */
    private static int receiverTimelinesAreTheRecords(Path report) throws IOException {
        Map<String, Map<String, double[]>> csv = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(report.resolve("transfers.csv"), StandardCharsets.UTF_8);
        List<String> header = List.of(lines.get(0).split(","));
        int variant = header.indexOf("variant");
        int row = header.indexOf("row");
        int transfer = header.indexOf("transfer");
        int to = header.indexOf("to");
        int start = header.indexOf("start_s");
        int finish = header.indexOf("finish_s");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            // a fan-out's transfers only (other workloads name theirs otherwise)
            if (!f[row].equals("transfer") || f[transfer].indexOf('/') < 0 || f[to].indexOf(':') < 0) {
                continue;
            }
            String key = f[transfer].substring(0, f[transfer].indexOf('/')) + "/" + f[to].substring(0, f[to].indexOf(':'));
            double[] s = csv.computeIfAbsent(f[variant], k -> new LinkedHashMap<>())
                    .computeIfAbsent(key, k -> new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY});
            s[0] = Math.max(s[0], Double.parseDouble(f[start]));
            s[1] = Math.max(s[1], Double.parseDouble(f[finish]));
        }
        Map<String, Map<String, JsonNode>> summary = new LinkedHashMap<>();
        for (JsonNode v : new ObjectMapper().readTree(report.resolve("summary.json").toFile()).get("variants")) {
            Map<String, JsonNode> byId = new LinkedHashMap<>();
            v.path("receivers").forEach(r -> byId.put(r.get("id").asText(), r));
            summary.put(v.get("name").asText(), byId);
        }
        int checked = 0;
        for (JsonNode t : data(report).get("receivers")) {
            String v = t.get("variant").asText();
            String what = report.getFileName() + " " + v;
            JsonNode names = t.get("names");
            JsonNode arrival = t.get("arrival_s");
            JsonNode post = t.get("post_s");
            JsonNode done = t.get("finish_s");
            assertEquals(1, t.get("every").asInt(), what + ": the committed fan-outs are small enough to draw whole");
            assertEquals(summary.get(v).size(), t.get("of").asInt(), what + ": receivers");
            assertEquals(summary.get(v).size(), names.size(), what + ": every receiver drawn");
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i).asText();
                assertTrue(seen.add(name), what + ": " + name + " drawn once");
                assertTrue(i == 0 || arrival.get(i).asDouble() >= arrival.get(i - 1).asDouble(), what + ": arrival order");
                JsonNode r = summary.get(v).get(name);
                assertTrue(r != null, what + ": " + name + " is not a receiver of summary.json");
                close(r.get("startSeconds").asDouble(), arrival.get(i).asDouble(), what + " " + name + " arrival");
                close(r.get("finishSeconds").asDouble(), done.get(i).asDouble(), what + " " + name + " finish");
                int at = name.indexOf("@cycle");
                String key = at < 0 ? "c0/" + name : "c" + name.substring(at + 6) + "/" + name.substring(0, at);
                double[] rows = csv.get(v).get(key);
                assertTrue(rows != null, what + ": " + key + " has no transfer in transfers.csv");
                close(rows[0], post.get(i).asDouble(), what + " " + name + " post (its last attempt's start)");
                close(rows[1], done.get(i).asDouble(), what + " " + name + " finish");
                assertTrue(arrival.get(i).asDouble() <= post.get(i).asDouble() && post.get(i).asDouble() < done.get(i).asDouble(),
                        what + " " + name + ": arrives, then posts, then finishes");
            }
            checked++;
        }
        return checked;
    }

    @Test
    void everyCommittedInteractivePageDrawsTheCsvRecords() throws IOException {
        List<Path> reports = committedReports();
        assertTrue(reports.size() >= 15, "committed reports with an interactive page: " + reports);
        int cdfs = 0;
        int receiverTimelines = 0;
        for (Path report : reports) {
            timelinesAreTheCsv(report);
            cdfs += cdfsAreTheTransfers(report);
            receiverTimelines += receiverTimelinesAreTheRecords(report);
        }
        assertTrue(cdfs >= 10, "CDFs checked against transfers.csv: " + cdfs);
        // the fan-outs of fanout-256, faults-source-loss and sizing-1024 (three variants each)
        assertTrue(receiverTimelines >= 9, "receiver timelines checked against the records: " + receiverTimelines);
    }

    /**
     * A NIC chart's calibrated notes are on the interactive page too: for every committed NIC chart (SVG), the
     * page's timeline of the same variant carries a note exactly when the chart does, and the same sentences.
     */
    @Test
    void everyCalibratedNoteUnderANicChartIsUnderTheInteractiveTimelineToo() throws IOException {
        Pattern text = Pattern.compile("<text[^>]*>([^<]*)</text>");
        Pattern title = Pattern.compile("^Sending (?:hosts' )?NICs, stacked: (.+?)(?: \\((?:per host|averaged over).*)?$");
        int calibrated = 0;
        int charts = 0;
        for (Path report : committedReports()) {
            Map<String, List<String>> notes = new LinkedHashMap<>();
            for (JsonNode t : data(report).get("timelines")) {
                List<String> lines = new ArrayList<>();
                t.get("notes").forEach(n -> lines.add(n.asText()));
                notes.put(t.get("variant").asText(), lines);
            }
            List<Path> svgs;
            try (Stream<Path> s = Files.list(report)) {
                svgs = s.filter(f -> f.getFileName().toString().matches("nic-throughput-.*\\.svg")).sorted().toList();
            }
            for (Path svg : svgs) {
                List<String> texts = new ArrayList<>();
                Matcher m = text.matcher(Files.readString(svg, StandardCharsets.UTF_8));
                while (m.find()) {
                    texts.add(m.group(1).replace("&apos;", "'").replace("&amp;", "&"));
                }
                String variant = texts.stream().map(title::matcher).filter(Matcher::matches).map(x -> x.group(1))
                        .findFirst().orElseThrow(() -> new AssertionError(svg + ": no title naming its variant"));
                String chart = String.join("", texts).replaceAll("\\s+", "");
                List<String> page = notes.get(variant);
                assertTrue(page != null, svg + ": the interactive page has no timeline of " + variant);
                boolean marked = chart.contains("CALIBRATED,notamechanism") || chart.contains("ASSUMED,notamechanism");
                assertEquals(marked, !page.isEmpty(), svg + ": calibrated on the chart vs on the page: " + page);
                for (String note : page) {
                    assertTrue(chart.contains(note.replaceAll("\\s+", "")), svg + " lacks the page's note: " + note);
                }
                calibrated += marked ? 1 : 0;
                charts++;
            }
        }
        assertTrue(charts >= 40 && calibrated >= 10, charts + " NIC charts, " + calibrated + " of them calibrated");
        String page = Files.readString(CliTestSupport.repo().resolve("reports/seed003-nic-pin-vs-stripe/interactive.html"));
        assertTrue(page.contains("notes(t.notes)"), "the page prints a timeline's notes");
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
            String hash = org.rdmasim.report.ReportFolder.checksum(fresh.resolve(f));
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
        int charts = data(report).get("timelines").size() + 1 + data(report).get("receivers").size();
        Matcher m = Pattern.compile("<canvas").matcher(html);
        int canvases = 0;
        while (m.find()) {
            canvases++;
        }
        assertEquals(charts, canvases, "one uPlot canvas per chart (the CDF, each variant's NIC timeline and"
                + " each fan-out's receiver timeline)");
        assertTrue(html.contains("fraction of receivers done"), "the CDF chart's title is drawn");
        assertTrue(html.contains("stripe-tree-2 (256 receivers in arrival order)"), "the receiver timeline's title is drawn");
    }

    @Test
    void hoveringAReceiverBarNamesTheReceiverAndItsTimes() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        Assumptions.assumeTrue(Files.isExecutable(chromium), "chromium is not installed");
        Path report = CliTestSupport.repo().resolve("reports/fanout-256-pin-vs-stripe-vs-tree");
        Path copy = dir.resolve("copy");
        Files.createDirectories(copy);
        for (String f : List.of("interactive-data.js", "uPlot.iife.min.js", "uPlot.min.css")) {
            Files.copy(report.resolve(f), copy.resolve(f));
        }
        // the page as written, plus a mouse move over the middle row of the tree's timeline, at 90% of its
        // time axis; the line under the chart is copied to an attribute the dumped DOM shows
        String page = Files.readString(report.resolve("interactive.html"), StandardCharsets.UTF_8).replace("</body>", """
                <script>
                var info = document.querySelectorAll(".hover")[2];
                var o = info.parentNode.querySelector(".u-over"), r = o.getBoundingClientRect();
                o.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + 0.9 * r.width, clientY: r.top + 0.5 * r.height,
                  bubbles: true }));
                document.body.setAttribute("data-hover", info.textContent);
                </script></body>""");
        Files.writeString(copy.resolve("interactive.html"), page, StandardCharsets.UTF_8);
        Path dom = dir.resolve("hover.html");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + dir.resolve("profile"), "--virtual-time-budget=5000", "--dump-dom",
                copy.resolve("interactive.html").toUri().toString()).redirectOutput(dom.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "chromium did not finish in 90 s");
        Matcher m = Pattern.compile("data-hover=\"([^\"]*)\"").matcher(Files.readString(dom, StandardCharsets.UTF_8));
        assertTrue(m.find(), "the probe ran");
        JsonNode tree = data(report).get("receivers").get(2);
        assertEquals("stripe-tree-2", tree.get("variant").asText());
        // rows are centred on 0..n-1 over a range of -0.5..n-0.5: the middle of the plot is row (n-1)/2
        int n = tree.get("names").size();
        String hover = m.group(1);
        Matcher h = Pattern.compile("(\\S+): arrived (\\S+) s, posted (\\S+) s \\(waited \\S+ s\\), finished (\\S+) s"
                + " \\(pulled \\S+ s\\)").matcher(hover);
        assertTrue(h.matches(), hover);
        int row = -1;
        for (int i = 0; i < n; i++) {
            if (tree.get("names").get(i).asText().equals(h.group(1))) {
                row = i;
            }
        }
        assertTrue(Math.abs(row - (n - 1) / 2.0) <= 1, "the hovered row is the middle one: " + hover);
        String[] fields = {"arrival_s", "post_s", "finish_s"};
        for (int k = 0; k < 3; k++) {
            double want = tree.get(fields[k]).get(row).asDouble();
            // the page shows five significant digits
            assertEquals(want, Double.parseDouble(h.group(k + 2)), Math.abs(want) * 1e-4, hover);
        }
    }
}
