package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Presets;
import org.rdmasim.hardware.Units;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.sizing.FanoutSizing;
import org.rdmasim.sizing.SizingSearch;

/** The size command on a case computed by hand, and fan-out input errors. */
class SizeCommandTest {
    @TempDir
    Path dir;

    // 8 pinned receivers, all at once, sources pinned too: with k sources the busiest serves ceil(8/k)
    // receivers through one NIC, so p99 = ceil(8/k) * B / C (while that share stays below one QP's READ rate).
    private static final String SCENARIO = """
            name: size-by-hand
            hosts:
              receivers: {preset: dgx-h100, count: 8, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            transport:
              env: |
                export MX_RDMA_NIC_PIN=auto
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
                assignment: least-loaded
            """;

    private static double oneShare() {
        HostSpec.NicSpec nic = new Host("x", Presets.get("dgx-h100")).nic("mlx5_0").nic();
        double c = Units.gbpsToBytesPerSecond(nic.lineRateGbps()) * nic.linkLayer().wireEfficiency();
        return 1e9 / c;
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.6f", s);
    }

    @Test
    void aMistypedVariantListsTheVariants() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO + "variants:\n  - name: pinned\n  - name: striped\n");
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "1s", "--vary", "sources",
                "--variant", "pined", "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("no variant named 'pined'") && o.err().contains("(variants: pinned, striped)"), o.err());
    }

    @Test
    void quietHidesTheProgressLineOnly() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        long before = Progress.quietStartMillis;
        Progress.quietStartMillis = 0;
        try {
            CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "10s", "--vary", "sources",
                    "-q", "--out", dir.resolve("q").toString());
            assertEquals(0, o.code(), o.err());
            assertTrue(o.out().contains("smallest sources that meets the target"), o.out());
            assertEquals("", o.err());
        } finally {
            Progress.quietStartMillis = before;
        }
    }

    @Test
    void aUnitSplitFromItsNumberSaysHowToWriteIt() {
        CliTestSupport.Outcome o = CliTestSupport.run("size", "x.yaml", "--target-refit", "500", "ms", "--vary", "nics");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("a value and its unit are one argument: write --target-refit 500ms "
                + "(or quote it: --target-refit '500 ms')"), o.err());
        // 'sec' is split off as a unit, and the hint spells it as the duration parser reads it
        CliTestSupport.Outcome sec = CliTestSupport.run("size", "x.yaml", "--target-p99", "1", "sec", "--vary", "nics");
        assertEquals(2, sec.code(), sec.err());
        assertTrue(sec.err().contains("write --target-p99 1s (or quote it: --target-p99 '1 s')"), sec.err());
        // so are the words spelt out
        CliTestSupport.Outcome words = CliTestSupport.run("size", "x.yaml", "--target-p99", "0.5", "seconds", "--vary",
                "nics");
        assertEquals(2, words.code(), words.err());
        assertTrue(words.err().contains("write --target-p99 0.5s (or quote it: --target-p99 '0.5 s')"), words.err());
        CliTestSupport.Outcome ms = CliTestSupport.run("size", "x.yaml", "--target-refit", "500", "milliseconds",
                "--vary", "nics");
        assertTrue(ms.err().contains("write --target-refit 500ms"), ms.err());
    }

    @Test
    void findsTheSmallestSourceCountComputedByHand() throws IOException {
        double oneShare = oneShare();
        // 4 sources: 2 receivers each (2 B/C); 3 sources leave one with 3 (3 B/C). Target between.
        double target = 2.5 * oneShare;
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", seconds(target),
                "--vary", "sources", "--threads", "2", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("smallest sources that meets the target: 4"), o.out());
        assertTrue(o.out().contains("assumes more sources never make p99 worse"), o.out());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertEquals(4, json.get("smallestMeeting").asInt());
        assertTrue(json.get("complete").asBoolean());
        // Bound: 8 receiver hosts. Gallop 1, 2, 4 (meets), bisect 3: 4 points, within log2(8) + 2.
        assertEquals(8, json.get("bound").asInt());
        JsonNode sweep = json.get("sweep");
        assertEquals(4, sweep.size());
        assertTrue(sweep.size() <= Math.log(8) / Math.log(2) + 2);
        for (int k = 1; k <= 4; k++) {
            assertEquals(k, sweep.get(k - 1).get("value").asInt(), "points in knob order");
            double expected = Math.ceil(8.0 / k) * oneShare;
            assertEquals(expected, sweep.get(k - 1).get("p99PullSeconds").asDouble(), expected * 1e-4, "sources=" + k);
        }
        List<String> csv = Files.readAllLines(out.resolve("sizing.csv"));
        assertEquals(5, csv.size());
        assertTrue(csv.get(0).endsWith(",searchComplete") && csv.stream().skip(1).allMatch(l -> l.endsWith(",true")), csv.toString());
        assertTrue(Files.exists(out.resolve("sizing-sources.png")));
        assertTrue(Files.exists(out.resolve("receivers-vs-time-sources.svg")));
    }

    @Test
    void agreesWithALinearScanOfEverySourceCount() throws IOException {
        double oneShare = oneShare();
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Scenario scenario = ScenarioLoader.load(f, false);
        VariantSpec base = scenario.variants().get(0);
        double[] p99 = new double[9];
        for (int k = 1; k <= 8; k++) {
            p99[k] = VariantRunner.run(FanoutSizing.apply(base, FanoutSizing.Knob.SOURCES, k), scenario.seed(), 1, 1)
                    .replicationStats().pooledP99PullSeconds();
        }
        for (double share : new double[] {1.5, 2.5, 4.5, 8.5, 0.5}) {
            double target = share * oneShare;
            int linear = 0;
            for (int k = 1; k <= 8 && linear == 0; k++) {
                linear = p99[k] <= Double.parseDouble(seconds(target)) ? k : 0;
            }
            Path out = dir.resolve("out-" + share);
            CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", seconds(target),
                    "--vary", "sources", "--threads", "1", "--out", out.toString());
            assertEquals(0, o.code(), o.err());
            JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
            int points = json.get("sweep").size();
            if (linear == 0) {
                assertTrue(json.get("smallestMeeting").isNull(), o.out());
                // only 1, 2, 4 and 8 ran: the conclusion names them and leaves the rest to the assumption
                assertTrue(o.out().contains("tried sources = 1, 2, 4, 8 (doubling from 1); not simulated: 3, 5-7\n"),
                        o.out());
                assertTrue(o.out().contains("no sources tried meets the target; under the monotonicity assumption "
                        + "none of those not simulated (3, 5-7) would meet it either"), o.out());
                assertTrue(!o.out().contains("up to 8 meets"), o.out());
                assertEquals(4, points, "1, 2, 4, 8: ceil(log2 8) + 1");
            } else {
                assertEquals(linear, json.get("smallestMeeting").asInt(), "target " + share + " shares");
                // Galloping then bisection: at most 2 ceil(log2 answer) points, a linear scan would take `linear`.
                int ceilLog2 = 32 - Integer.numberOfLeadingZeros(linear - 1);
                assertTrue(points <= Math.max(1, 2 * ceilLog2), o.out());
            }
            assertTrue(points <= SizingSearch.maxEvaluations(8), o.out());
        }
    }

    @Test
    void maxLowersTheBoundAndCannotRaiseIt() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        Path out = dir.resolve("out");
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", seconds(2.5 * oneShare()),
                "--vary", "sources", "--max", "3", "--threads", "1", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("tried sources = 1, 2, 3 (doubling from 1, the bound 3 last)\n"), o.out());
        assertTrue(o.out().contains("no sources tried meets the target (all 3 of its values were simulated)"), o.out());
        JsonNode sweep = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile()).get("sweep");
        assertEquals(List.of(1, 2, 3), List.of(sweep.get(0).get("value").asInt(), sweep.get(1).get("value").asInt(),
                sweep.get(2).get("value").asInt()));
        assertEquals(3, sweep.size());

        o = CliTestSupport.run("size", f.toString(), "--target-p99", "1", "--vary", "sources", "--max", "9",
                "--out", dir.resolve("o2").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("8 receiver host(s)"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());
    }

    @Test
    void badKnobValuesExitTwo() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        String o2 = dir.resolve("o2").toString();
        for (String[] args : List.of(new String[] {"--vary", "bogus"}, new String[] {"--vary", "sources", "--max", "0"},
                new String[] {"--vary", "nics", "--max", "100"}, new String[] {"--vary", "rails", "--max", "-3"},
                new String[] {"--vary", "tree-degree", "--max", "two"})) {
            List<String> line = new java.util.ArrayList<>(List.of("size", f.toString(), "--target-p99", "1", "--out", o2));
            line.addAll(List.of(args));
            CliTestSupport.Outcome o = CliTestSupport.run(line.toArray(String[]::new));
            assertEquals(2, o.code(), String.join(" ", args) + ": " + o.err());
            assertFalse(o.err().contains("Exception"), o.err());
        }
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "-1", "--vary", "sources");
        assertEquals(2, o.code(), o.err());
        assertFalse(Files.exists(dir.resolve("o2")));
    }

    @Test
    void railsAreBoundedByTheLanesAReceiverCanHave() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO);
        VariantSpec v = ScenarioLoader.load(f, false).variants().get(0);
        int nics = new Host("r0", v.hosts().get("r0")).computeNics().size();
        // ConnectX-7 ports run at NDR: UCX 1.20 opens 2 paths on each (ib_iface.c uct_ib_iface_set_num_paths).
        assertEquals(2 * nics, FanoutSizing.bound(v, FanoutSizing.Knob.RAILS).value());
        assertEquals(nics, FanoutSizing.bound(v, FanoutSizing.Knob.NICS).value());
        Files.writeString(f, SCENARIO.replace("MX_RDMA_NIC_PIN=auto", "MX_RDMA_NIC_PIN=auto\n    export UCX_IB_NUM_PATHS=1"));
        v = ScenarioLoader.load(f, false).variants().get(0);
        assertEquals(nics, FanoutSizing.bound(v, FanoutSizing.Knob.RAILS).value());
        assertEquals(8, FanoutSizing.bound(v, FanoutSizing.Knob.TREE_DEGREE).value());
    }

    @Test
    void nicsListTheReceivingGpusNearestFirstNotTheHostsFirst() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO.replace("receivers: receivers", "receivers: {hosts: receivers, gpus: [GPU6]}"));
        VariantSpec v = ScenarioLoader.load(f, false).variants().get(0);
        Host r = new Host("r0", v.hosts().get("r0"));
        List<org.rdmasim.hardware.TopologyNode> ranked = r.nicsByDistance(r.gpu("GPU6"));
        // GPU6's own NIC is not the host's first compute NIC, so a list in host order would send it across the host
        assertNotEquals(r.computeNics().get(0).name(), ranked.get(0).name());
        for (int n : new int[] {1, 2}) {
            VariantSpec sized = FanoutSizing.apply(v, FanoutSizing.Knob.NICS, n);
            String devices = sized.transport().stack().env().stream()
                    .filter(e -> e.name().equals("UCX_NET_DEVICES")).reduce((a, b) -> b).orElseThrow().value();
            assertEquals(String.join(",", ranked.subList(0, n).stream().map(x -> x.name() + ":1").toList()), devices);
        }
    }

    @Test
    void badFanoutInputExitsTwoWithItsLocation() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO.replace("receivers: receivers", "receivers: {hosts: receivers, gpus: [GPU9]}"));
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:10:"), o.err());
        assertTrue(o.err().contains("no GPU named 'GPU9'"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());

        Files.writeString(f, SCENARIO.replace("assignment: least-loaded", "arrival: {kind: poisson}"));
        o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:13:"), o.err());
        assertTrue(o.err().contains("meanGap"), o.err());

        Files.writeString(f, SCENARIO.replace("count: 8", "count: 0"));
        o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("s.yaml:3:"), o.err());

        Files.writeString(f, SCENARIO);
        o = CliTestSupport.run("size", f.toString(), "--target-p99", "1", "--vary", "bogus");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("tree-degree"), o.err());
    }

    /**
     * Tree degree is not assumed monotone: the powers of two below the bound (8 receiver hosts) and the bound are all
     * run, whatever meets first, and the answer is the fastest that meets, which the points themselves must bear out.
     */
    @Test
    void treeDegreeRunsItsWholeLadderAndAnswersWithTheFastestThatMeets() throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, SCENARIO.replace("assignment: least-loaded", "assignment: least-loaded\n    tree: {maxChildren: 1}"));
        Path out = dir.resolve("tree");
        CliTestSupport.Outcome o = CliTestSupport.run("size", f.toString(), "--target-p99", "100s", "--vary", "tree-degree",
                "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("does not assume more tree-degree helps"), o.out());
        assertTrue(o.out().contains("tried tree-degree = 1, 2, 4, 8 (the powers of two below 8, then 8"), o.out());
        JsonNode j = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertEquals("scan", j.get("search").asText());
        assertEquals(4, j.get("sweep").size(), "every point of the ladder, though 1 already meets");
        double bestP99 = Double.MAX_VALUE;
        int best = -1;
        for (JsonNode p : j.get("sweep")) {
            if (p.get("meetsTarget").asBoolean() && p.get("p99PullSeconds").asDouble() < bestP99) {
                bestP99 = p.get("p99PullSeconds").asDouble();
                best = p.get("value").asInt();
            }
        }
        assertEquals(best, j.get("bestMeeting").asInt());
        assertEquals(1, j.get("smallestMeeting").asInt());
        assertTrue(o.out().contains("best tree-degree that meets the target: " + best + " "), o.out());
    }
}
