package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.report.SummaryJson;

/**
 * {@code size} says at each point which NICs carry data and which UCX's lane selection dropped, and which UCX
 * install it assumed: the decision {@code explain} prints, for the same process and configuration.
 */
class SizeNicLanesTest {
    @TempDir
    Path dir;

    // Two GB200 receivers pulling from one source: mlx5_0 and mlx5_1 hang off GPU0's Grace, mlx5_2 and mlx5_3 off
    // the other one. Without ucx.conf UCX rates the other Grace's NICs at its built-in distance and its ratio filter
    // (UCX_MULTI_LANE_MAX_RATIO=4) drops them; with ucx.conf's Grace section all four are rated alike.
    private static final String SCENARIO = """
            name: size-nic-lanes
            hosts:
              receivers: {preset: gb200-tray, count: 2, prefix: r}
              sources: {preset: gb200-tray, count: 1, prefix: s}
            transport:
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              fanout:
                receivers: {hosts: receivers, gpus: [GPU0]}
                sources: {hosts: sources, gpus: [GPU0]}
                model: 1 GB
            """;

    private CliTestSupport.Outcome size(String scenario, String knob, String... more) throws IOException {
        Path f = dir.resolve(knob + more.length + ".yaml");
        Files.writeString(f, scenario);
        List<String> args = new ArrayList<>(List.of("size", f.toString(), "--target-p99", "1ms", "--vary", knob, "-q",
                "--out", dir.resolve("out-" + knob + more.length).toString()));
        args.addAll(List.of(more));
        CliTestSupport.Outcome o = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, o.code(), o.err());
        return o;
    }

    private JsonNode point(String knob, int extra, int value) throws IOException {
        JsonNode json = SummaryJson.mapper().readTree(dir.resolve("out-" + knob + extra).resolve("sizing.json").toFile());
        for (JsonNode p : json.get("sweep")) {
            if (p.get("value").asInt() == value) {
                return p;
            }
        }
        throw new AssertionError("no point " + value + " in " + json);
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.isObject() ? n.get("nic").asText() : n.asText()));
        return out;
    }

    @Test
    void fourNicsListedWithoutUcxConfCarryOnTwoAndTheOtherGracesAreMarkedDropped() throws IOException {
        CliTestSupport.Outcome o = size(SCENARIO, "nics");
        assertTrue(o.out().contains("NICs at each point (UCX's lane choice for r0:GPU0's first transfer, as explain "
                + "shows it):"), o.out());
        assertTrue(o.out().contains("  nics=1  carry data: mlx5_0\n"), o.out());
        assertTrue(o.out().contains("  nics=4  carry data: mlx5_0, mlx5_1; listed, dropped by UCX: mlx5_2, mlx5_3 "
                + "(bandwidth x UCX_MULTI_LANE_MAX_RATIO=4 below the best wired lane's, at wireup)"), o.out());
        assertTrue(o.out().contains("UCX install assumed: nixl-wheel (not stated: the common install for this stack): "
                + "UCX finds no ucx.conf"), o.out());
        JsonNode four = point("nics", 0, 4).get("lanes");
        assertEquals("r0:GPU0", four.get("process").asText());
        assertEquals(List.of("mlx5_0", "mlx5_1"), texts(four.get("carrying")));
        assertEquals(List.of("mlx5_2", "mlx5_3"), texts(four.get("dropped")));
        // the run agrees: the dropped NICs moved no byte of the 4-NIC point, which is no faster than 2 NICs
        assertEquals(point("nics", 0, 2).get("p99PullSeconds").asDouble(), point("nics", 0, 4).get("p99PullSeconds")
                .asDouble(), 1e-12);
        JsonNode install = SummaryJson.mapper().readTree(dir.resolve("out-nics0").resolve("sizing.json").toFile())
                .get("ucxInstall");
        assertEquals(false, install.get("readsUcxConf").asBoolean());
    }

    @Test
    void aPrefixInstallReadsUcxConfAndAllFourNicsCarry() throws IOException {
        String prefix = SCENARIO.replace("  ucx: \"1.20.0\"\n", "  ucx: \"1.20.0\"\n  ucxInstall: prefix\n");
        CliTestSupport.Outcome o = size(prefix, "nics", "--max", "4");
        assertTrue(o.out().contains("  nics=4  carry data: mlx5_0, mlx5_1, mlx5_2, mlx5_3\n"), o.out());
        assertTrue(o.out().contains("UCX install assumed: prefix (transport.ucxInstall): UCX reads its ucx.conf"),
                o.out());
        assertTrue(point("nics", 2, 4).get("lanes").get("dropped").isEmpty());
        assertTrue(point("nics", 2, 4).get("p99PullSeconds").asDouble()
                < point("nics", 2, 2).get("p99PullSeconds").asDouble() * 0.6, "four NICs carry: about half the time");
    }

    @Test
    void oneRailLeavesTheSameGraceNicOverTheRailLimit() throws IOException {
        CliTestSupport.Outcome o = size(SCENARIO, "rails", "--max", "2");
        assertTrue(o.out().contains("  rails=1  carry data: mlx5_0; listed, dropped by UCX: mlx5_1 (over the rail "
                + "limit UCX_MAX_RMA_RAILS=1); mlx5_2, mlx5_3 (bandwidth x UCX_MULTI_LANE_MAX_RATIO=4 below the best "
                + "wired lane's, at wireup)"), o.out());
        assertEquals(List.of("mlx5_0", "mlx5_1"), texts(point("rails", 2, 2).get("lanes").get("carrying")));
    }
    /**
     * The NICs a point shows are explain's: the 4-NIC point is the variant with the four NICs listed and four rails
     * (FanoutSizing), and explain's lanes considered for it pick lanes on exactly the NICs the point says carry data.
     */
    @Test
    void aPointsNicsAreTheLanesExplainPicksForTheSameSetting() throws IOException {
        size(SCENARIO, "nics");
        String listed = SCENARIO.replace("  ucx: \"1.20.0\"\n", "  ucx: \"1.20.0\"\n  env: |\n"
                + "    export UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1\n    export UCX_MAX_RMA_RAILS=4\n");
        Path f = dir.resolve("listed.yaml");
        Files.writeString(f, listed);
        CliTestSupport.Outcome e = CliTestSupport.run("explain", f.toString(), "--json");
        assertEquals(0, e.code(), e.err());
        JsonNode considered = SummaryJson.mapper().readTree(e.out()).get("variants").get(0).get("transfers").get(0)
                .get("decision").get("lanesConsidered");
        java.util.Set<String> picked = new java.util.LinkedHashSet<>();
        java.util.Set<String> all = new java.util.LinkedHashSet<>();
        for (JsonNode l : considered) {
            all.add(l.get("nic").asText());
            if (l.get("verdict").asText().equals("picked")) {
                picked.add(l.get("nic").asText());
            }
        }
        JsonNode four = point("nics", 0, 4).get("lanes");
        assertEquals(List.copyOf(picked), texts(four.get("carrying")));
        all.removeAll(picked);
        assertEquals(List.copyOf(all), texts(four.get("dropped")));
    }
    /**
     * When the knob moves the first transfer to another process (inference TP 2 makes infer0:GPU1 read first), each
     * point's line names the process whose lanes it shows, the same one sizing.json gives, and no heading names a
     * process that is not every point's.
     */
    @Test
    void eachPointNamesTheProcessWhoseLanesItShows() throws IOException {
        Path out = dir.resolve("out-tp");
        CliTestSupport.Outcome o = CliTestSupport.run("size", CliTestSupport.repo()
                .resolve("scenarios/refit-qwen3-4b-gb200.yaml").toString(), "--target-refit", "0.5s", "--vary",
                "inference-tp", "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        JsonNode sweep = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile()).get("sweep");
        java.util.Set<String> processes = new java.util.TreeSet<>();
        for (JsonNode p : sweep) {
            JsonNode lanes = p.get("lanes");
            String process = lanes.get("process").asText();
            processes.add(process);
            String line = "  inference-tp=" + p.get("shown").asText() + "  " + process + ": carry data: "
                    + String.join(", ", texts(lanes.get("carrying")));
            assertTrue(o.out().contains(line), "expected '" + line + "' in\n" + o.out());
        }
        assertEquals(java.util.Set.of("infer0:GPU0", "infer0:GPU1"), processes, "TP 2's first transfer is GPU1's");
        assertTrue(!o.out().contains("lane choice for infer0:GPU0's first transfer"), o.out());
    }
}
