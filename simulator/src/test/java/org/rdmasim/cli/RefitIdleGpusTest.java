package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.scenario.ScenarioLoader;

/**
 * A refit layout that leaves GPUs without work runs as written, with a warning (VariantSpec.warnings, the path
 * every loader warning takes to stderr, summary.json and the page) at the line of the field that decides it,
 * saying which GPUs idle and why: GPUs of a host group the layout does not fill, trainer ranks no inference rank
 * reads from, inference ranks outside checkpoint-engine's P2P update. A layout that uses every GPU warns of
 * nothing. Found by the RL refit QA pass: such a layout passed silently.
 */
class RefitIdleGpusTest {
    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void shippedModelBeside() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
    }

    /** Qwen3-4B from one GB200 tray (4 GPUs) to four (16), as scenarios/refit-qwen3-4b-gb200.yaml. */
    private static String scenario(String trainer, String inference, String method) {
        return """
                name: idle
                seed: 1
                hosts:
                  trainers: {preset: gb200-tray, count: 1, prefix: train}
                  inference: {preset: gb200-tray, count: 4, prefix: infer}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                workload:
                  refit:
                    model: qwen3-4b
                    trainer: {hosts: trainers, %s}
                    inference: {hosts: inference, %s}
                    method: %s
                    cycles: 1
                variants:
                  - name: only
                """.formatted(trainer, inference, method);
    }

    private List<String> warnings(String yaml) throws IOException {
        Path f = dir.resolve("s" + Integer.toHexString(yaml.hashCode()) + ".yaml");
        Files.writeString(f, yaml);
        return ScenarioLoader.load(f).variants().get(0).warnings();
    }

    @Test
    void aLayoutThatFillsItsHostsWarnsOfNothing() throws IOException {
        assertEquals(List.of(), warnings(scenario("dp: 4, fsdp: true", "tp: 1, dp: 16", "rdma-pull")));
    }

    @Test
    void gpusALayoutLeavesWithoutARankAreNamedAtTheHostsField() throws IOException {
        List<String> w = warnings(scenario("dp: 2, fsdp: true", "tp: 1, dp: 8", "rdma-pull"));
        assertEquals(2, w.size(), w.toString());
        // trainer: 2 ranks on a 4-GPU tray, placed in GPU order
        assertTrue(w.get(0).matches(".*s[0-9a-f]+\\.yaml:13:\\d+: workload\\.refit\\.trainer\\.hosts: .*"), w.get(0));
        assertTrue(w.get(0).contains("the trainer layout (tp 1 x pp 1 x cp 1 x dp 2) has 2 rank(s) and its hosts "
                + "1 x 4 GPUs = 4: 2 GPU(s) hold no rank and take no part in the refit (GPU2, GPU3 on train0)"), w.get(0));
        // inference: 8 ranks fill infer0 and infer1; infer2 and infer3 hold none at all
        assertTrue(w.get(1).matches(".*:14:\\d+: workload\\.refit\\.inference\\.hosts: .*"), w.get(1));
        assertTrue(w.get(1).contains("has 8 rank(s) and its hosts 4 x 4 GPUs = 16: 8 GPU(s) hold no rank")
                && w.get(1).contains("hosts infer2 .. infer3 (2 hosts), every GPU"), w.get(1));
    }

    @Test
    void trainerRanksNoInferenceRankReadsFromAreNamedWithWhy() throws IOException {
        // DP replicas without FSDP: every rank holds the whole model; the first replica serves every read
        List<String> first = warnings(scenario("dp: 4", "tp: 1, dp: 16, replicaReads: first", "rdma-pull"));
        assertEquals(1, first.size(), first.toString());
        assertTrue(first.get(0).contains("workload.refit.inference.replicaReads: 3 of the 4 trainer ranks send nothing "
                + "(ranks 1-3, on train0)") && first.get(0).contains("replicaReads: first reads every such byte from the "
                + "first replica"), first.get(0));
        // spread over the replicas by inference rank, 16 readers reach all four
        assertEquals(List.of(), warnings(scenario("dp: 4", "tp: 1, dp: 16", "rdma-pull")));
        // a broadcast's senders are the method's own choice: the slice map's readers say nothing of them
        assertEquals(List.of(), warnings(scenario("dp: 4", "tp: 1, dp: 16", "nccl-broadcast\n    bucket: 1 GiB")));
    }

    @Test
    void inferenceRanksOutsideACheckpointEngineP2pUpdateAreNamedAtUpdateRanks() throws IOException {
        String yaml = """
                name: p2p
                seed: 1
                hosts:
                  nodes: {preset: dgx-h100, count: 2, prefix: n}
                workload:
                  refit:
                    model: qwen3-4b
                    trainer: {hosts: nodes, dp: 16, fsdp: true}
                    inference: {hosts: nodes, tp: 1, dp: 16}
                    method: checkpoint-engine
                    bucket: 1 GiB
                    mode: p2p
                    updateRanks: 8
                variants:
                  - name: only
                """;
        List<String> w = warnings(yaml);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).matches(".*:13:\\d+: workload\\.refit\\.updateRanks: 8 of the 16 inference ranks receive "
                + "nothing \\(ranks 8-15, on n1\\): updateRanks 8 updates ranks 0 to 7 only.*"), w.get(0));
        assertEquals(List.of(), warnings(yaml.replace("updateRanks: 8", "updateRanks: 16")));
    }

    @Test
    void explainPrintsTheWarningsUnderAPlanThatNamesTheHostsHoldingRanks() throws IOException {
        Path f = dir.resolve("half.yaml");
        Files.writeString(f, scenario("dp: 2, fsdp: true", "tp: 1, dp: 8", "rdma-pull"));
        CliTestSupport.Outcome r = CliTestSupport.run("explain", f.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        // the plan names the hosts the ranks are on, not the whole group
        assertTrue(r.out().contains("inference tp1 dp8: 8 ranks on infer0 .. infer1 (2 of the group's 4 hosts)"), r.out());
        assertTrue(r.out().contains("  warning: " + f + ":14:"), r.out());
        assertTrue(r.out().contains("  warning: " + f + ":13:"), r.out());
        // a layout filling its hosts names the group as before
        Path full = dir.resolve("full.yaml");
        Files.writeString(full, scenario("dp: 4, fsdp: true", "tp: 1, dp: 16", "rdma-pull"));
        CliTestSupport.Outcome all = CliTestSupport.run("explain", full.toString(), "-q");
        assertTrue(all.out().contains("inference tp1 dp16: 16 ranks on infer0 .. infer3 (4 hosts)"), all.out());
        assertTrue(!all.out().contains("warning:"), all.out());
    }

    @Test
    void theWarningReachesStderrAndSummaryJson() throws IOException {
        Path f = dir.resolve("idle.yaml");
        Files.writeString(f, scenario("dp: 2, fsdp: true", "tp: 1, dp: 16", "rdma-pull"));
        Path out = dir.resolve("out");
        CliTestSupport.Outcome r = CliTestSupport.run("run", f.toString(), "-o", out.toString(), "-q", "--skip-without");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("rdmasim: warning: variant only: " + f + ":13:"), r.err());
        assertTrue(r.err().contains("GPU2, GPU3 on train0"), r.err());
        JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        JsonNode warnings = s.get("variants").get(0).get("warnings");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).asText().startsWith("idle.yaml:13:"), warnings.toString());
    }
}
