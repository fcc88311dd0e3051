package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.VariantOutcome;

/**
 * Which replica a pull reads a byte from when several trainer ranks hold it: spread over the replicas by receiver
 * rank (ModelExpress' opt-in MX_RESHARD_SPREAD_SOURCES rotation, the default the README names as an assumption) or
 * the first replica (ModelExpress' default, merge_shard_tables keeping the first offered). Qwen3-30B-A3B from
 * Megatron TP 2, PP 2, EP 8, DP 4 on two DGX H100 (the non-expert weights held by four DP replicas) to vLLM TP 4 x
 * DP 4 with EP on two more, as scenarios/refit-moe-methods.yaml; its pull is bound by the trainers' NICs.
 */
class RefitReplicaReadsTest {
    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void shippedModelBeside() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-30b-a3b");
    }

    private static String scenario(String reads, String method) {
        return """
                name: replica-reads
                seed: 1
                hosts:
                  trainers: {preset: dgx-h100, count: 2, prefix: t}
                  inference: {preset: dgx-h100, count: 2, prefix: i}
                transport:
                  operation: read
                  nixl: "1.1.0"
                  ucx: "1.20.0"
                workload:
                  refit:
                    model: qwen3-30b-a3b
                    trainer: {hosts: trainers, tp: 2, pp: 2, ep: 8, etp: 1, dp: 4}
                    inference: {hosts: inference, tp: 4, dp: 4, ep: true%s}
                    method: %s
                    cycles: 2
                """.formatted(reads, method);
    }

    private RefitSummary run(String reads) throws IOException {
        Path f = dir.resolve("s" + reads.hashCode() + ".yaml");
        Files.writeString(f, scenario(reads, "rdma-pull"));
        VariantOutcome o = VariantRunner.runRefitOnly(ScenarioLoader.load(f).variants().get(0));
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return o.result().refit();
    }

    @Test
    void readingTheFirstReplicaLoadsItsSendersNicsAndSlowsTheCycle() throws IOException {
        RefitSummary spread = run("");
        RefitSummary first = run(", replicaReads: first");
        assertTrue(spread.conserved() && first.conserved(), "every inference rank gets exactly its bytes");
        assertEquals(spread.minimumBytes(), first.minimumBytes());
        // first, every replicated byte leaves replica 0's ranks: fewer (sender, reader) pairs, and those senders'
        // NICs, which bound the cycle, carry what spread shares with three other replicas
        assertTrue(first.routes() < spread.routes(), first.routes() + " routes against " + spread.routes());
        // the plan says which replica is read, and that spread is an assumption
        assertTrue(spread.plan().stream().anyMatch(l -> l.contains("modulo the replicas (ASSUMED")), spread.plan().toString());
        assertTrue(first.plan().stream().anyMatch(l -> l.contains("from the first replica (ModelExpress' default)")),
                first.plan().toString());
        assertTrue(first.steadyCycleSeconds() > 1.1 * spread.steadyCycleSeconds(),
                first.steadyCycleSeconds() + " s against " + spread.steadyCycleSeconds() + " s");
    }

    @Test
    void replicaReadsIsRefusedAtItsLineOutsideAPullAndWhenMisspelt() throws IOException {
        Path broadcast = dir.resolve("b.yaml");
        Files.writeString(broadcast, scenario(", replicaReads: first", "nccl-broadcast"));
        CliTestSupport.Outcome b = CliTestSupport.run("run", "-q", "--out", dir.resolve("ob").toString(),
                broadcast.toString());
        assertEquals(2, b.code(), b.err());
        assertTrue(b.err().contains("b.yaml:14:") && b.err().contains("replicaReads applies to rdma-pull only"), b.err());
        Path typo = dir.resolve("t.yaml");
        Files.writeString(typo, scenario(", replicaReads: firts", "rdma-pull"));
        CliTestSupport.Outcome t = CliTestSupport.run("run", "-q", "--out", dir.resolve("ot").toString(),
                typo.toString());
        assertEquals(2, t.code(), t.err());
        assertTrue(t.err().contains("t.yaml:14:") && t.err().contains("expected spread"), t.err());
        assertTrue(!t.err().contains("Exception"), t.err());
        // miles' P2P update (source: host-replica) picks its senders by its own plan: the field is refused there
        Path miles = dir.resolve("m.yaml");
        Files.writeString(miles, scenario(", replicaReads: first", "rdma-pull\n    source: host-replica"));
        CliTestSupport.Outcome m = CliTestSupport.run("run", "-q", "--out", dir.resolve("om").toString(),
                miles.toString());
        assertEquals(2, m.code(), m.err());
        assertTrue(m.err().contains("m.yaml:14:") && m.err().contains("does not apply to source: host-replica"), m.err());
    }
}
