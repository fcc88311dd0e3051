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
 * Which trainer replica sends a byte several hold in NeMo-RL's send/recv (nccl-p2p), as its Python plan decides
 * (NVIDIA-NeMo/RL e40aa046e nemo_rl/weight_sync/xferdtensor_python.py), call by call: a parameter whose inference
 * ranks include replicas (ranks needing the same region) is striped over them, the holders of a region taking
 * turns; any other goes from the first holder. Qwen3-4B (dense: every FFN projection goes shard to shard) from
 * Megatron DP 8 on one DGX H100, where each trainer rank holds the whole model, to vLLM on another: one engine of
 * TP 8, whose only replicas are the 145 norm weights every rank holds whole, against two engines of TP 4.
 */
class NcclP2pSendersTest {
    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void shippedModelBeside() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
    }

    private RefitSummary run(int tp, int dp) throws IOException {
        Path f = dir.resolve("tp" + tp + ".yaml");
        Files.writeString(f, """
                name: p2p-senders
                seed: 1
                hosts:
                  trainers: {preset: dgx-h100, count: 1, prefix: t}
                  inference: {preset: dgx-h100, count: 1, prefix: i}
                workload:
                  refit:
                    model: qwen3-4b
                    trainer: {hosts: trainers, tp: 1, dp: 8}
                    inference: {hosts: inference, tp: %d, dp: %d, engines: separate}
                    method: nccl-p2p
                    shardToShard: all
                    cycles: 1
                variants:
                  - name: only
                """.formatted(tp, dp));
        VariantOutcome o = VariantRunner.runRefitOnly(ScenarioLoader.load(f).variants().get(0));
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return o.result().refit();
    }

    @Test
    void withoutReplicasAParameterGoesFromItsFirstHolder() throws IOException {
        RefitSummary one = run(8, 1);
        RefitSummary two = run(4, 2);
        assertTrue(one.conserved() && two.conserved(), "every inference rank gets exactly its bytes");
        // one engine: the 253 tensor-parallel parameters have no replicas, each rank's eighth from trainer rank 0,
        // the first holder; only the 145 norms (36 layers' four and the final one), whole on every rank, are
        // striped over all 8 ranks. Two engines: every parameter has a replica in the other engine.
        assertTrue(one.plan().stream().anyMatch(l -> l.contains("each of 398 calls (145 with inference replicas, 145 "
                + "of them striped")), one.plan().toString());
        assertTrue(two.plan().stream().anyMatch(l -> l.contains("each of 398 calls (398 with inference replicas, 398 "
                + "of them striped")), two.plan().toString());
        // each byte crosses once: only which NIC sends it moves (no parameter is broadcast apart when every
        // parameter goes shard to shard)
        assertEquals(one.minimumBytes(), one.cycles().get(0).wireBytes());
        // so the cycle waits for trainer rank 0's one NIC to carry the whole model, where two engines' stripes
        // leave through several trainer NICs at once
        String bound = one.cycles().get(0).boundWords();
        assertTrue(bound.contains("t0") && !bound.contains("tie"), bound);
        assertTrue(one.steadyCycleSeconds() > 3 * two.steadyCycleSeconds(),
                one.steadyCycleSeconds() + " s against " + two.steadyCycleSeconds() + " s");
    }
}
