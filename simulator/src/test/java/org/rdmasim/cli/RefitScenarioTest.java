package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.TinyQwen3;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.scenario.ScenarioException;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.workload.RefitMethodKind;
import org.rdmasim.workload.RefitRegistrationMode;
import org.rdmasim.workload.RefitSpec;

/**
 * A refit run end to end from a scenario file, by each method, on a small Qwen3 model (hidden 256, 4 layers,
 * 8 heads, 4 KV heads): what each inference rank receives is exactly what its layout needs, bytes on the wire
 * are the slice map's minimum (pull, WRITE) or more (broadcasts reach relays); bad input exits 2 naming the
 * field; the same scenario and seed give the same summary.json byte for byte.
 */
class RefitScenarioTest {
    @TempDir
    Path dir;

    private Path scenario(String refitExtra, String variants) throws IOException {
        Files.writeString(dir.resolve("tiny.json"), TinyQwen3.config(4));
        Path f = dir.resolve("refit.yaml");
        Files.writeString(f, """
                # a tiny refit
                name: tiny-refit
                seed: 7
                hosts:
                  trainers: {preset: dgx-h100, count: 1, prefix: t}
                  inference: {preset: dgx-h100, count: 2, prefix: i}
                workload:
                  refit:
                    model: tiny.json
                    trainer: {hosts: trainers, tp: 2, dp: 2}
                    inference: {hosts: inference, tp: 4, dp: 2}
                    method: rdma-pull
                    cycles: 2
                """ + refitExtra + variants);
        return f;
    }

    /**
     * A tree with expert parallelism: inside one engine no two ranks hold the same experts, so it is refused; with
     * separate engines, each spreading the experts over its own TP ranks, the same TP rank of every engine holds the
     * same experts, and the tree shares them: every rank still gets what its layout needs.
     */
    @Test
    void aTreeWithExpertParallelismNeedsSeparateEngines() throws IOException {
        Files.writeString(dir.resolve("tiny-moe.json"), """
                {"architectures": ["Qwen3MoeForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,
                 "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 16, "intermediate_size": 128,
                 "moe_intermediate_size": 32, "num_experts": 8, "num_experts_per_tok": 2, "vocab_size": 128,
                 "torch_dtype": "bfloat16"}
                """);
        String one = "variants:\n  - name: x\n    workload: {refit: {model: tiny-moe.json, tree: 1, inference: "
                + "{hosts: inference, tp: 4, dp: 2, ep: true}}}\n";
        refused("", one, "tree", "separate engines");
        // without expert parallelism one engine splits every expert over all tp x dp ranks: the same TP rank of two
        // replicas holds different expert bytes of the same size, which a tree would hand over as if they were one
        refused("", one.replace(", ep: true", ""), "refit.yaml:16", "tree", "split over all 8 ranks", "engines: separate");
        Path f = scenario("", "variants:\n  - name: x\n    workload: {refit: {model: tiny-moe.json, tree: 1, inference: "
                + "{hosts: inference, tp: 4, dp: 2, ep: true, engines: separate}}}\n");
        var r = CliTestSupport.run("run", f.toString(), "-o", dir.resolve("tree").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode refit = new ObjectMapper().readTree(dir.resolve("tree/summary.json").toFile()).get("variants").get(0)
                .get("refit");
        assertTrue(refit.get("conserved").asBoolean(), refit.toString());
        assertEquals("rdma-pull-tree", refit.get("method").asText());
    }

    /**
     * A tree serves a shard only to the ranks holding the same one, the same TP rank of each DP replica: with dp 2
     * a holder has one such rank, so tree: 2 (or 99) would run as tree: 1 does; with dp 1 there is none. Both are
     * refused at the line of the field, with the valid range.
     */
    @Test
    void aTreeWiderThanTheOtherReplicasIsRefused() throws IOException {
        refused("", "variants:\n  - name: x\n    workload: {refit: {tree: 99}}\n", "refit.yaml:16", "tree",
                "tree 99", "the 2 DP replica(s)", "valid: 0 (no tree) to 1");
        refused("", "variants:\n  - name: x\n    workload: {refit: {tree: 2}}\n", "refit.yaml:16", "tree",
                "valid: 0 (no tree) to 1");
        refused("", "variants:\n  - name: x\n    workload: {refit: {tree: 1, inference: {hosts: inference, tp: 4, "
                + "dp: 1}}}\n", "refit.yaml:16", "tree", "0 only");
    }

    /** A refit word written another way is refused at its line with the word it is nearest (did you mean). */
    @Test
    void aMisspeltRefitWordGetsTheWordItMeant() throws IOException {
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: rdmapull}}\n", "refit.yaml:16", "method",
                "(did you mean 'rdma-pull'?)");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: write-schedule, bucket: 1 MiB, "
                + "writeOrder: receiver_staggered}}\n", "refit.yaml:16", "writeOrder",
                "(did you mean 'receiver-staggered'?)");
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {hosts: inference, tp: 4, dp: 2, "
                + "engines: seperate}}}\n", "refit.yaml:16", "engines", "(did you mean 'separate'?)");
        refused("", "variants:\n  - name: x\n    workload: {refit: {registration: pooled, poolSegments: 2}}\n",
                "refit.yaml:16", "registration", "(did you mean 'pool'?)");
    }

    /**
     * checkpoint-engine's P2P store splits a host's RDMA devices evenly over its GPUs: a list that leaves three for
     * eight GPUs, or a host with more compute NICs than GPUs, stopped the variant mid-run (exit 1, no field); it is
     * refused at load, at the NCCL_IB_HCA line or at mode: p2p.
     */
    @Test
    void aCheckpointEngineP2pUpdateOnDevicesItCannotSplitIsRefusedAtLoad() throws IOException {
        refused("", """
                variants:
                  - name: x
                    transport:
                      env: |
                        export NCCL_IB_HCA==mlx5_0,mlx5_1,mlx5_2
                    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, mode: p2p}}
                """, "refit.yaml:18", "transport.env", "NCCL_IB_HCA", "3 RDMA devices for 8 GPUs",
                "_get_my_rdma_device");
        Path f = scenario("", "variants:\n  - name: x\n    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, "
                + "mode: p2p}}\n");
        Files.writeString(f, Files.readString(f).replace("trainers: {preset: dgx-h100, count: 1, prefix: t}",
                "trainers: {preset: generic, generic: {sockets: 1, gpusPerSocket: 8, nicsPerGpu: 2}, count: 1, "
                        + "prefix: t}"));
        var r = CliTestSupport.run("run", f.toString(), "-o", dir.resolve("x").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("refit.yaml:16") && r.err().contains("workload.refit.mode")
                && r.err().contains("16 RDMA devices for 8 GPUs"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    private static final String EVERY_METHOD = """
            variants:
              - name: pull
              - name: pull-tree
                workload: {refit: {tree: 1}}
              - name: pull-host-replica
                workload: {refit: {source: host-replica, bucket: 256 KiB}}
              - name: write
                workload: {refit: {method: write-schedule, bucket: 64 KiB}}
              - name: broadcast-one
                workload: {refit: {method: nccl-broadcast, bucket: 128 KiB, senders: one}}
              - name: broadcast-all
                workload: {refit: {method: nccl-broadcast, bucket: 128 KiB, senders: all}}
              - name: checkpoint-engine
                workload: {refit: {method: checkpoint-engine, bucket: 256 KiB}}
              - name: nixl-ring
                workload: {refit: {method: nixl-ring, bucket: 128 KiB}}
              - name: nccl-p2p
                workload: {refit: {method: nccl-p2p}}
              - name: nccl-p2p-engines
                workload: {refit: {method: nccl-p2p, inference: {hosts: inference, tp: 4, dp: 2, engines: separate}}}
            """;

    private JsonNode run(Path scenario, String out) throws IOException {
        var r = CliTestSupport.run("run", scenario.toString(), "-o", dir.resolve(out).toString());
        assertEquals(0, r.code(), r.err());
        return new ObjectMapper().readTree(dir.resolve(out).resolve("summary.json").toFile());
    }

    @Test
    void everyMethodDeliversWhatEachLayoutNeeds() throws IOException {
        JsonNode s = run(scenario("", EVERY_METHOD), "out");
        assertEquals(10, s.get("variants").size());
        long minimum = -1;
        for (JsonNode v : s.get("variants")) {
            assertEquals("ok", v.get("status").asText(), v.toString());
            JsonNode refit = v.get("refit");
            assertTrue(refit.get("conserved").asBoolean(), v.get("name") + ": every inference rank gets its needs");
            if (minimum < 0) {
                minimum = refit.get("minimumBytes").asLong();
            }
            if (!v.get("name").asText().equals("nccl-p2p-engines")) {
                assertEquals(minimum, refit.get("minimumBytes").asLong(), "one slice map for every method");
            }
            assertEquals(2, refit.get("cycles").size());
            for (JsonNode c : refit.get("cycles")) {
                long wire = c.get("wireBytes").asLong();
                String m = refit.get("method").asText();
                if (m.startsWith("rdma-pull") && !m.contains("tree") || m.equals("write-schedule")) {
                    assertEquals(minimum, wire, v.get("name") + ": a pull or WRITE moves the slice map's bytes once");
                } else {
                    assertTrue(wire >= minimum, v.get("name") + ": " + wire + " < " + minimum);
                }
                assertTrue(c.get("seconds").asDouble() > 0);
            }
            // the second cycle does not register again (cached)
            assertTrue(refit.get("cycles").get(1).get("stageSeconds").get("register").asDouble() == 0.0);
            assertFalse(refit.get("whatWouldHalveIt").isEmpty());
            assertFalse(refit.get("plan").isEmpty());
        }
        // 8 inference ranks of TP 4 each hold a quarter of the model (plus replicated norms): the minimum is
        // between 2x and 2.1x the model's bytes for this small model
        long model = 2L * (4 * (256 * 256 * 2 + 128 * 256 * 2 + 2 * 32 + 3 * 512 * 256 + 2 * 256) + 2 * 1000 * 256 + 256);
        assertTrue(minimum >= 2 * model && minimum < 2.1 * model, minimum + " vs model " + model);
    }

    @Test
    void theSameSeedGivesTheSameSummaryByteForByte() throws IOException {
        Path f = scenario("", EVERY_METHOD);
        run(f, "a");
        run(f, "b");
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/summary.json")), Files.readAllBytes(dir.resolve("b/summary.json")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/transfers.csv")), Files.readAllBytes(dir.resolve("b/transfers.csv")));
    }

    private void refused(String refitExtra, String variants, String... words) throws IOException {
        var r = CliTestSupport.run("run", scenario(refitExtra, variants).toString(), "-o", dir.resolve("x").toString());
        assertEquals(2, r.code(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertTrue(r.err().contains("refit.yaml:"), r.err());
        for (String w : words) {
            assertTrue(r.err().contains(w), "'" + w + "' in: " + r.err());
        }
    }

    @Test
    void badInputExitsTwoNamingTheField() throws IOException {
        // a refit stage is read through its declared parameter: its range and unit are the ones `parameters` lists
        refused("", "variants:\n  - name: x\n    workload: {refit: {stages: {pause: 7200 s}}}\n", "pause",
                "a refit stage costs 0 s to an hour");
        refused("", "variants:\n  - name: x\n    workload: {refit: {stages: {loadTensor: -1 ms}}}\n", "loadTensor");
        refused("", "variants:\n  - name: x\n    workload: {refit: {stages: {unpause: 1 s}}}\n", "unpause",
                "loadTensor");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nccl-p2p, shardToShard: some}}\n",
                "shardToShard", "ffn", "all");
        refused("", "variants:\n  - name: x\n    workload: {refit: {shardToShard: all}}\n", "shardToShard",
                "nccl-p2p only");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: write-schedule, bucket: 1 MiB, "
                + "writeOrder: random}}\n", "writeOrder", "slice-map", "receiver-staggered");
        refused("", "variants:\n  - name: x\n    workload: {refit: {writeOrder: receiver-staggered}}\n", "writeOrder",
                "write-schedule only", "refit.yaml:16");
        refused("", "variants:\n  - name: x\n    workload: {refit: {source: cpu}}\n", "source", "gpu",
                "host-replica");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: write-schedule, bucket: 1 MiB, "
                + "source: host-replica}}\n", "source", "rdma-pull only");
        refused("", "variants:\n  - name: x\n    workload: {refit: {tree: 1, source: host-replica}}\n", "source",
                "no tree fan-out");
        // verl's manager drives only its own checkpoint engines; the flag is a yes or no
        refused("", "variants:\n  - name: x\n    workload: {refit: {verlManager: true}}\n", "verlManager",
                "verl's checkpoint engines only", "rdma-pull", "refit.yaml:16");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nccl-broadcast, bucket: 1 MiB, "
                + "verlManager: sometimes}}\n", "verlManager", "sometimes");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: carrier-pigeon}}\n", "method",
                "carrier-pigeon", "rdma-pull");
        // 8 query heads do not divide over inference TP 3
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {tp: 3, dp: 1}}}\n", "inference",
                "tp 3");
        // 16 ranks do not fit on 2 hosts of 8 GPUs... 24 do not
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {tp: 4, dp: 6}}}\n", "inference.hosts",
                "24 ranks");
        // experts on a dense model
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {ep: true}}}\n", "no routed experts");
        // a broadcast without its bucket
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nccl-broadcast}}\n", "bucket");
        refused("    dtype: fp4\n", "", "dtype", "fp4");
        // verl's NIXL engine always holds two buffers: one is refused at the variant's line (16) and field
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nixl-ring, bucket: 1 MiB, "
                + "doubleBuffering: false}}\n", "refit.yaml:16:", "doubleBuffering", "two bucket buffers");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nixl-ring}}\n", "bucket");
        // verl's Mooncake engine packs whole tensors and asserts each fits (the tiny model's embedding is 500 KiB)
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: mooncake-ring, bucket: 64 KiB}}\n",
                "refit.yaml:16:", "bucket", "too large to fit in the bucket");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nixl-ring, bucket: 1 MiB, senders: all}}\n",
                "refit.yaml:16:", "senders applies to nccl-broadcast only");
        // NCCL send/recv goes from the rank holding each byte: no sender count, no tree
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: nccl-p2p, senders: all}}\n", "senders",
                "nccl-broadcast only", "nccl-p2p", "refit.yaml:16");
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {hosts: inference, tp: 4, dp: 2, "
                + "engines: several}}}\n", "engines", "several", "one", "separate");
        refused("", "variants:\n  - name: x\n    workload: {refit: {inference: {hosts: inference, tp: 4, dp: 2, "
                + "engine: trt-llm}}}\n", "engine", "vllm or sglang", "trt-llm", "refit.yaml:16");
    }

    /** The one variant's refit with {@code refit} as its {@code workload: {refit: ...}}, as the reader reads it. */
    private RefitSpec read(String refit) throws IOException {
        return ScenarioLoader.load(scenario("", "variants:\n  - name: x\n    workload: {refit: {" + refit + "}}\n"))
                .variants().get(0).refitSpec();
    }

    /** What {@code kind} needs beside its name to be read: a bucket, and for colocated-ipc the trainer's hosts. */
    private static String knobs(RefitMethodKind kind) {
        return (kind.bucketed() ? ", bucket: 1 MiB" : "") + (kind == RefitMethodKind.COLOCATED_IPC
                ? ", inference: {hosts: trainers, tp: 2, dp: 2}" : "");
    }

    /** Every method and registration mode a scenario names reads back as itself, in any case. */
    @Test
    void everyMethodAndRegistrationReadsBackAsItself() throws IOException {
        for (RefitMethodKind kind : RefitMethodKind.values()) {
            assertEquals(kind, read("method: " + kind.spelling() + knobs(kind)).method());
            assertEquals(kind, read("method: " + kind.spelling().toUpperCase(java.util.Locale.ROOT) + knobs(kind))
                    .method(), "the reader lower-cases the method");
        }
        assertEquals(RefitRegistrationMode.PER_TENSOR, read("cycles: 1").registration(), "the default");
        for (RefitRegistrationMode mode : RefitRegistrationMode.values()) {
            boolean pool = mode == RefitRegistrationMode.POOLED;
            RefitSpec spec = read("registration: " + mode.spelling() + (pool ? ", poolSegments: 4" : ""));
            assertEquals(mode, spec.registration());
            assertEquals(pool ? 4 : 0, spec.poolSegments());
        }
        ScenarioException e = assertThrows(ScenarioException.class, () -> read("registration: pooled"));
        assertTrue(e.getMessage().contains("expected per-tensor, pool or arena, got 'pooled'"), e.getMessage());
    }

    /** A method no kind spells is refused at its line, listing every method in the order it always has. */
    @Test
    void anUnknownMethodIsRefusedListingEveryMethod() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> read("method: Carrier-Pigeon"));
        assertTrue(e.getMessage().contains("refit.yaml:16:"), e.getMessage());
        assertTrue(e.getMessage().contains("expected one of rdma-pull, write-schedule, nccl-broadcast, "
                + "checkpoint-engine, nixl-ring, mooncake-ring, colocated-ipc, nccl-p2p, sharded-rdt, got "
                + "'Carrier-Pigeon'"), e.getMessage());
        for (RefitMethodKind kind : RefitMethodKind.values()) {
            assertTrue(e.getMessage().contains(kind.spelling()), kind.spelling() + " in: " + e.getMessage());
        }
    }

    /**
     * checkpoint-engine's P2P update: the ranks it names get the whole payload, once read and once broadcast to
     * each other named rank, and the others nothing (conserved in that sense); its h2d buffer is registered at
     * every update, the cached registration notwithstanding.
     */
    @Test
    void checkpointEngineCheckpointUpdatesTheRanksItNamesOnly() throws IOException {
        JsonNode s = run(scenario("", """
                variants:
                  - name: p2p-4
                    workload: {refit: {method: checkpoint-engine, bucket: 256 KiB, mode: p2p, updateRanks: 4}}
                  - name: p2p-all
                    workload: {refit: {method: checkpoint-engine, bucket: 256 KiB, mode: p2p}}
                """), "p2p");
        long[] wire = new long[2];
        for (int k = 0; k < 2; k++) {
            JsonNode v = s.get("variants").get(k);
            assertEquals("ok", v.get("status").asText(), v.toString());
            JsonNode refit = v.get("refit");
            assertEquals("checkpoint-engine p2p", refit.get("method").asText());
            assertTrue(refit.get("conserved").asBoolean(), v.get("name").asText());
            JsonNode steady = refit.get("cycles").get(1);
            assertTrue(steady.get("stageSeconds").get("register").asDouble() > 0, "the h2d buffer, every update");
            wire[k] = steady.get("wireBytes").asLong();
        }
        // payload x 4 updated ranks against payload x 8
        assertEquals(2 * wire[0], wire[1]);
    }

    @Test
    void checkpointEngineModeIsRefusedWhereItDoesNotApply() throws IOException {
        refused("", "variants:\n  - name: x\n    workload: {refit: {mode: p2p}}\n", "mode",
                "checkpoint-engine only", "rdma-pull");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, "
                + "mode: gossip}}\n", "mode", "broadcast or p2p");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, "
                + "updateRanks: 4}}\n", "updateRanks", "mode: p2p only");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, "
                + "mode: p2p, updateRanks: 9}}\n", "updateRanks", "8 ranks");
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, "
                + "mode: p2p, doubleBuffering: false}}\n", "doubleBuffering", "two halves");
        // the broadcast update too: the code has one double buffer in both modes
        refused("", "variants:\n  - name: x\n    workload: {refit: {method: checkpoint-engine, bucket: 1 MiB, "
                + "doubleBuffering: false}}\n", "doubleBuffering", "both its modes");
    }
}
