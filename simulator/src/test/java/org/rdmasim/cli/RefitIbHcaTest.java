package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.Units;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.RefitSummary;
import org.rdmasim.workload.VariantOutcome;

/**
 * {@code NCCL_IB_HCA} in a refit scenario's environment reaches the broadcast methods: a list leaving each host
 * one NIC gives NCCL one channel, so the wire takes the model's bytes at one NIC's line rate; {@code ^} and
 * {@code =} select as NCCL's {@code matchIfList} does; a list that leaves a host no NIC exits 2 naming the
 * variable and the scenario line.
 */
class RefitIbHcaTest {
    @TempDir
    Path dir;

    /** Qwen3-4B as inference loads it (BF16): the bytes every broadcast carries. */
    private static final double MODEL_BYTES = 8.05e9;

    // One trainer GPU and one inference GPU, each beside twelve 100G ConnectX-5 (mlx5_0 .. mlx5_11), so that
    // the prefix mlx5_1 matches mlx5_1, mlx5_10 and mlx5_11. One 8 GiB bucket: one broadcast of the whole model.
    private static final String SCENARIO = """
            name: refit-ibhca
            seed: 1
            hosts:
              trainers: {preset: generic, count: 1, prefix: t, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 12, nic: cx5}}
              inference: {preset: generic, count: 1, prefix: i, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 12, nic: cx5}}
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers}
                inference: {hosts: inference, tp: 1, dp: 1}
                method: nccl-broadcast
                bucket: 8 GiB
                cycles: 1
            variants:
              - name: all
              - name: exact
                transport:
                  env: |
                    export NCCL_IB_HCA==mlx5_1,mlx5_99
              - name: prefix
                transport:
                  env: |
                    export NCCL_IB_HCA=mlx5_1
              - name: exclude-prefix
                transport:
                  env: |
                    export NCCL_IB_HCA=^mlx5_1
              - name: exclude-exact
                transport:
                  env: |
                    export NCCL_IB_HCA=^=mlx5_1
              - name: port
                transport:
                  env: |
                    export NCCL_IB_HCA=mlx5_4:1
              - name: ckpt-all
                workload: {refit: {method: checkpoint-engine}}
              - name: ckpt-one
                transport:
                  env: |
                    export NCCL_IB_HCA==mlx5_3
                workload: {refit: {method: checkpoint-engine}}
            """;

    @BeforeEach
    void model() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
    }

    private Path scenario(String name, String text) throws IOException {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, text);
        return f;
    }

    private static RefitSummary run(Scenario s, String name) {
        VariantSpec v = s.variants().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        VariantOutcome o = VariantRunner.runRefitOnly(v);
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return o.result().refit();
    }

    private static double wire(RefitSummary r) {
        return r.cycles().get(0).stageSeconds().get("wire");
    }

    // miles' P2P update (rdma-pull from host replicas): the trainer's TP2 group spans two hosts, so each bucket's
    // all-gather is a ring through the trainer NICs NCCL may use, which the trainer's NCCL_IB_HCA decides.
    private static final String REPLICA = """
            name: refit-replica-ibhca
            seed: 1
            hosts:
              trainers: {preset: generic, count: 2, prefix: t, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
              inference: {preset: generic, count: 1, prefix: i, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, tp: 2}
                inference: {hosts: inference, tp: 1, dp: 1}
                method: rdma-pull
                source: host-replica
                bucket: 1 GiB
                cycles: 1
            variants:
              - name: all
              - name: one
                transport:
                  env: |
                    export NCCL_IB_HCA==mlx5_0
            """;

    @Test
    void aReplicasStageGatherTakesTheTrainersNcclIbHca() throws IOException {
        Scenario s = ScenarioLoader.load(scenario("replica", REPLICA));
        double all = run(s, "all").cycles().get(0).stageSeconds().get("gather");
        double one = run(s, "one").cycles().get(0).stageSeconds().get("gather");
        assertTrue(all > 0, "the TP2 group spans the two trainer hosts: its gathers cross the fabric");
        // one NIC a host instead of four for the ring's cross-host link
        assertEquals(4.0, one / all, 0.4, "one NIC " + one + " s, four " + all + " s");
    }

    @Test
    void theListSetsTheNicsEveryBroadcastHostUses() throws IOException {
        Scenario s = ScenarioLoader.load(scenario("ibhca", SCENARIO));
        double line = Units.gbpsToBytesPerSecond(NicModel.CX5.lineRateGbps());
        double oneNic = MODEL_BYTES / line;
        double exact = wire(run(s, "exact"));
        // =mlx5_1,mlx5_99 leaves mlx5_1 alone (mlx5_99 names no device): one channel, one NIC's line rate (within the protocol's overheads)
        assertTrue(exact >= oneNic && exact <= oneNic * 1.05, exact + " s against one NIC's " + oneNic + " s");
        // the prefix mlx5_1 also matches mlx5_10 and mlx5_11: three channels over three NICs
        assertEquals(3.0, exact / wire(run(s, "prefix")), 0.05);
        // mlx5_4:1 names port 1 of mlx5_4, the only port rdmasim's NICs have: one NIC again
        assertEquals(exact, wire(run(s, "port")), exact * 1e-9);
        double all = wire(run(s, "all"));
        double excludePrefix = wire(run(s, "exclude-prefix"));
        double excludeExact = wire(run(s, "exclude-exact"));
        // ^mlx5_1 drops three of twelve NICs, ^=mlx5_1 one: each leaves more channels than three NICs carry,
        // and never more than every NIC
        assertTrue(excludePrefix < exact / 3 * 0.99, excludePrefix + " vs three NICs' " + exact / 3);
        assertTrue(excludeExact <= excludePrefix * 1.0001 && all <= excludeExact * 1.0001,
                all + " <= " + excludeExact + " <= " + excludePrefix);
        assertTrue(all < exact / 3, "every NIC: " + all + " s, one: " + exact + " s");
        // the plan says the list, and the item NCCL would pass over in silence
        List<String> plan = run(s, "exact").plan();
        assertTrue(plan.stream().anyMatch(l -> l.contains("NCCL_IB_HCA==mlx5_1,mlx5_99")), plan.toString());
        assertTrue(plan.contains("NCCL_IB_HCA item 'mlx5_99' matches no device on host t0 (NCCL ignores it silently)"),
                plan.toString());
        assertFalse(run(s, "all").plan().stream().anyMatch(l -> l.contains("NCCL_IB_HCA")));
        // a checkpoint engine's broadcast reads the same variable
        double ckptOne = wire(run(s, "ckpt-one"));
        assertTrue(ckptOne >= oneNic && ckptOne <= oneNic * 1.05, ckptOne + " s against one NIC's " + oneNic + " s");
        assertTrue(wire(run(s, "ckpt-all")) < ckptOne / 3, "checkpoint engine, every NIC");
    }

    @Test
    void aListLeavingAHostNoNicExitsTwoAtItsLine() throws IOException {
        List<String[]> bad = List.of(new String[] {"=mlx5", "No device found"},
                new String[] {"^mlx5", "No device found"}, new String[] {"mlx5_0:2", "No device found"});
        for (String[] b : bad) {
            String text = SCENARIO.replace("export NCCL_IB_HCA=mlx5_4:1", "export NCCL_IB_HCA=" + b[0]);
            Path f = scenario("bad", text);
            int line = 1 + List.of(text.split("\n", -1)).indexOf("        export NCCL_IB_HCA=" + b[0]);
            CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
            assertEquals(2, o.code(), b[0] + ": " + o.out() + o.err());
            assertTrue(o.err().contains("NCCL_IB_HCA='" + b[0] + "'"), o.err());
            assertTrue(o.err().contains("bad.yaml:" + line), "line " + line + ": " + o.err());
            assertTrue(o.err().contains(b[1]), o.err());
            assertFalse(o.err().contains("Exception"), o.err());
            assertFalse(Files.exists(dir.resolve("o")), "nothing written");
        }
    }
}
