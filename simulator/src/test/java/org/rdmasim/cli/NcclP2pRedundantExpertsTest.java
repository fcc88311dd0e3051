package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * xferdtensor plans a parameter as one region a rank (NVIDIA-NeMo/RL e40aa046e
 * nemo_rl/weight_sync/xferdtensor_python.py, _rank_regions), and vLLM's redundant experts give a rank experts that
 * are no one range: nccl-p2p with redundantExperts is refused at that field (exit 2), not an internal error.
 */
class NcclP2pRedundantExpertsTest {
    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void shippedModelBeside() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-30b-a3b");
    }

    private CliTestSupport.Outcome run(int redundant) throws IOException {
        Path f = dir.resolve("s" + redundant + ".yaml");
        Files.writeString(f, """
                name: p2p-eplb
                seed: 1
                hosts:
                  trainers: {preset: dgx-h100, count: 1, prefix: t}
                  inference: {preset: dgx-h100, count: 1, prefix: i}
                workload:
                  refit:
                    model: qwen3-30b-a3b
                    trainer: {hosts: trainers, ep: 8, dp: 8}
                    inference: {hosts: inference, tp: 8, dp: 1, ep: true, redundantExperts: %d}
                    method: nccl-p2p
                    cycles: 1
                variants:
                  - name: only
                """.formatted(redundant));
        return CliTestSupport.run("explain", f.toString());
    }

    @Test
    void redundantExpertsAreRefusedAtTheirField() throws IOException {
        CliTestSupport.Outcome o = run(8);
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains(":10:") && o.err().contains("workload.refit.inference.redundantExperts: nccl-p2p "
                + "plans each parameter as one region a rank"), o.err());
        assertFalse(o.err().contains("internal error"), o.err());
        assertEquals(0, run(0).code(), "without redundant experts the same refit plans");
    }
}
