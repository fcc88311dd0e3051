package org.rdmasim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdmasim.hardware.NicModel;
import org.rdmasim.hardware.Units;
import org.rdmasim.report.SummaryJson;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.ScenarioLoader;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.VariantOutcome;

/**
 * {@code size --target-refit}: on small refits whose answer is checked by running the scenario, as written, at the
 * answer and at the value below it; and the bad combinations, each exit 2.
 */
class RefitSizeCommandTest {
    @TempDir
    Path dir;

    // Four trainer hosts of one GPU and one 100G ConnectX-5 each, two inference hosts of one GPU and a 400G
    // ConnectX-7: a broadcast from one trainer rank is bound by its 100G NIC; N senders striped share the
    // buckets, so N NICs send at once, up to the 400G an inference GPU receives.
    private static final String SENDERS = """
            name: refit-senders
            seed: 1
            hosts:
              trainers: {preset: generic, count: 4, prefix: t, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 1, nic: cx5}}
              inference: {preset: generic, count: 2, prefix: i, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 1, nic: cx7}}
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 2}
                method: nccl-broadcast
                bucket: 256 MiB
                cycles: 1
            variants:
              - name: one
              - {name: two, workload: {refit: {senders: 2}}}
              - {name: three, workload: {refit: {senders: 3}}}
            """;

    // One inference GPU with four 100G ConnectX-5 pulls the whole model from four trainer GPUs with a 400G
    // ConnectX-7 each: its own NICs bound the pull.
    private static final String NICS = """
            name: refit-nics
            seed: 1
            hosts:
              trainers: {preset: generic, count: 4, prefix: t, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 1, nic: cx7}}
              inference: {preset: generic, count: 1, prefix: i, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
              modelexpress: kavink/multi-nic-stripe-mode
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 1}
                method: rdma-pull
                registration: arena
                cycles: 1
            variants:
              - name: pinned
                transport:
                  env: |
                    export MX_RDMA_NIC_PIN=auto
              - name: two-nics
                transport:
                  env: |
                    export MX_RDMA_NIC_PIN=stripe
                    export UCX_MAX_RMA_RAILS=2
                workload: {refit: {registrationHcas: 2}}
            """;

    // Qwen3-4B (32 query heads, 8 KV heads) from one GB200 tray to 12 inference GPUs on three trays: TP 3, 6
    // and 12 divide the GPUs but not the heads.
    private static final String TP = """
            name: refit-tp
            seed: 1
            hosts:
              trainers: {preset: gb200-tray, count: 1, prefix: train}
              inference: {preset: gb200-tray, count: 3, prefix: infer}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
              modelexpress: kavink/multi-nic-stripe-mode
              env: |
                export MX_RDMA_NIC_PIN=auto
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 12}
                method: rdma-pull
                cycles: 2
            variants:
              - name: tp1
              - {name: tp2, workload: {refit: {inference: {tp: 2, dp: 6}}}}
            """;

    private static final String BUCKETS = """
            name: refit-buckets
            seed: 1
            hosts:
              trainers: {preset: gb200-tray, count: 1, prefix: train}
              inference: {preset: gb200-tray, count: 2, prefix: infer}
            transport:
              operation: read
              nixl: "1.1.0"
              ucx: "1.20.0"
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers, dp: 4, fsdp: true}
                inference: {hosts: inference, tp: 1, dp: 8}
                method: nccl-broadcast
                bucket: 1 GiB
                cycles: 1
            variants:
              - name: nccl
            """;

    /** The table the last {@link #size} printed. */
    private String printed = "";

    @BeforeEach
    void model() throws IOException {
        CliTestSupport.shippedModel(dir, "qwen3-4b");
    }

    private Path scenario(String name, String text) throws IOException {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, text);
        return f;
    }

    private JsonNode size(Path scenario, String... args) throws IOException {
        Path out = dir.resolve("out-" + scenario.getFileName());
        List<String> line = new ArrayList<>(List.of("size", scenario.toString(), "--out", out.toString(), "--force"));
        line.addAll(List.of(args));
        CliTestSupport.Outcome o = CliTestSupport.run(line.toArray(String[]::new));
        assertEquals(0, o.code(), o.out() + o.err());
        printed = o.out();
        return SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
    }

    /** The steady (last) cycle of the scenario's variant {@code name}, run as written. */
    private static double steady(Path file, String name) {
        Scenario s = ScenarioLoader.load(file);
        VariantSpec v = s.variants().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        VariantOutcome o = VariantRunner.runRefitOnly(v);
        assertEquals(VariantOutcome.Status.OK, o.status(), o.error());
        return o.result().refit().steadyCycleSeconds();
    }

    private static double sweepSeconds(JsonNode json, long value) {
        for (JsonNode n : json.get("sweep")) {
            if (n.get("value").asLong() == value) {
                return n.get("refitSeconds").asDouble();
            }
        }
        throw new AssertionError("no point at " + value + " in " + json);
    }

    @Test
    void sendersAnswerIsTheSmallestThatMeetsAndOneBelowMisses() throws IOException {
        Path f = scenario("senders", SENDERS);
        // 3 senders take ~0.30 s a cycle, 2 take ~0.44 s (wire plus each bucket's call cost, and the FSDP
        // gather, whose ring over the four single-GPU hosts crosses their 100G NICs).
        double target = 0.32;
        JsonNode json = size(f, "--target-refit", "0.32", "--vary", "senders");
        assertTrue(json.get("complete").asBoolean());
        assertEquals("gallop-bisect", json.get("search").asText());
        assertEquals(3, json.get("smallestMeeting").asLong(), json.toString());
        // Gallop 1, 2, 4 (meets), bisect 3: every point of 1..4.
        assertEquals(4, json.get("pointsSimulated").asInt());
        double one = steady(f, "one");
        double two = steady(f, "two");
        double three = steady(f, "three");
        assertTrue(three <= target && two > target, "two " + two + ", three " + three);
        assertEquals(three, sweepSeconds(json, 3), 1e-12, "the search ran what the scenario runs");
        assertEquals(two, sweepSeconds(json, 2), 1e-12);
        // One sender's 100G NIC carries the 8.05 GB model: the wire alone takes bytes / line rate.
        double wire = 8.05e9 / Units.gbpsToBytesPerSecond(NicModel.CX5.lineRateGbps());
        assertTrue(one >= wire, one + " s against the wire's " + wire + " s");
        // Two senders halve the bytes each NIC sends.
        assertEquals(0.5, two / one, 0.05, "two senders: " + two + " s, one: " + one + " s");
    }

    @Test
    void nicsAnswerIsTheSmallestThatMeetsAndOneBelowMisses() throws IOException {
        Path f = scenario("nics", NICS);
        double target = 0.6;
        JsonNode json = size(f, "--target-refit", "0.6", "--vary", "nics");
        assertEquals(2, json.get("smallestMeeting").asLong(), json.toString());
        double one = steady(f, "pinned");
        double two = steady(f, "two-nics");
        assertTrue(two <= target && one > target, "one " + one + ", two " + two);
        assertEquals(two, sweepSeconds(json, 2), 1e-12);
        assertEquals(one, sweepSeconds(json, 1), 1e-12);
        // One 100G NIC takes the whole model in.
        assertTrue(one >= 8.05e9 / Units.gbpsToBytesPerSecond(NicModel.CX5.lineRateGbps()), one + " s");
    }

    // One trainer and one inference GPU, each beside four 100G ConnectX-5: a broadcast of the model runs one
    // NCCL channel per NIC NCCL_IB_HCA leaves each host.
    private static final String BROADCAST_NICS = """
            name: refit-bcast-nics
            seed: 1
            hosts:
              trainers: {preset: generic, count: 1, prefix: t, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
              inference: {preset: generic, count: 1, prefix: i, generic: {sockets: 1, gpusPerSocket: 1, nicsPerGpu: 4, nic: cx5}}
            workload:
              refit:
                model: models/qwen3-4b.json
                trainer: {hosts: trainers}
                inference: {hosts: inference, tp: 1, dp: 1}
                method: nccl-broadcast
                bucket: 8 GiB
                cycles: 1
            variants:
              - name: one
                transport: {env: "NCCL_IB_HCA==mlx5_0"}
              - name: two
                transport: {env: "NCCL_IB_HCA==mlx5_0,mlx5_1"}
              - name: all
            """;

    @Test
    void nicsOfABroadcastAreTheNcclIbHcaListEachHostKeeps() throws IOException {
        Path f = scenario("bnics", BROADCAST_NICS);
        // one NIC's wire takes the 8.05 GB model in ~0.65 s of a ~0.86 s refit, two NICs' in ~0.33 s
        JsonNode json = size(f, "--target-refit", "0.6", "--vary", "nics");
        assertEquals(2, json.get("smallestMeeting").asLong(), json.toString());
        double one = steady(f, "one");
        double two = steady(f, "two");
        assertEquals(one, sweepSeconds(json, 1), 1e-12, "N=1 is NCCL_IB_HCA==mlx5_0, as written");
        assertEquals(two, sweepSeconds(json, 2), 1e-12, "N=2 is NCCL_IB_HCA==mlx5_0,mlx5_1");
        double wireOne = 8.05e9 / Units.gbpsToBytesPerSecond(NicModel.CX5.lineRateGbps());
        assertTrue(one >= wireOne, one + " s");
        // the second NIC halves the wire; the other stages stay
        assertEquals(wireOne / 2, one - two, wireOne * 0.03, "two NICs " + two + " s, one " + one + " s");
        Path ckpt = scenario("cnics", BROADCAST_NICS.replace("method: nccl-broadcast", "method: checkpoint-engine"));
        // a checkpoint engine adds its host-to-GPU copies (~1.0 s on one NIC, ~0.68 s on two) and, whatever the
        // NICs, its update end (refit.checkpointEngineUpdateEndSeconds, 1.30 s)
        JsonNode c = size(ckpt, "--target-refit", "2.05", "--vary", "nics");
        assertEquals(2, c.get("smallestMeeting").asLong(), c.toString());
        assertEquals(steady(ckpt, "two"), sweepSeconds(c, 2), 1e-12);
        assertEquals(wireOne / 2, steady(ckpt, "one") - steady(ckpt, "two"), wireOne * 0.03);
    }

    @Test
    void inferenceTpSkipsDegreesTheHeadsRefuseAndMeetsAtTheSmallest() throws IOException {
        Path f = scenario("tp", TP);
        double target = 0.3;
        JsonNode json = size(f, "--target-refit", "0.3", "--vary", "inference-tp");
        List<Long> values = new ArrayList<>();
        json.get("values").forEach(v -> values.add(v.asLong()));
        assertEquals(List.of(1L, 2L, 4L), values);
        List<Long> skipped = new ArrayList<>();
        for (JsonNode s : json.get("skipped")) {
            skipped.add(s.get("value").asLong());
            assertTrue(s.get("why").asText().contains("32 query heads"), s.toString());
        }
        assertEquals(List.of(3L, 6L, 12L), skipped);
        assertTrue(printed.contains("skipped inference-tp=6: inference tp 6 must divide the 32 query heads"), printed);
        assertTrue(printed.contains("smallest inference-tp that meets the target: 2 (steady cycle "), printed);
        assertTrue(printed.contains("more inference-tp never makes a refit longer"), printed);
        assertEquals(2, json.get("smallestMeeting").asLong(), json.toString());
        double tp1 = steady(f, "tp1");
        double tp2 = steady(f, "tp2");
        assertTrue(tp2 <= target && tp1 > target, "tp1 " + tp1 + ", tp2 " + tp2);
        assertEquals(tp2, sweepSeconds(json, 2), 1e-12);
        // TP 2 halves what each inference rank needs, so what the trainer NICs send.
        assertEquals(0.5, tp2 / tp1, 0.02);
    }

    @Test
    void bucketRunsEveryPowerOfTwoAndAnswersTheFastestThatMeets() throws IOException {
        Path f = scenario("buckets", BUCKETS);
        JsonNode json = size(f, "--target-refit", "0.2", "--vary", "bucket");
        assertEquals("scan", json.get("search").asText());
        JsonNode sweep = json.get("sweep");
        // 16 MiB to 8 GiB, the first power of two holding the 8.05 GB model: 10 points, all run.
        assertEquals(10, sweep.size());
        assertEquals(16L << 20, sweep.get(0).get("value").asLong());
        assertEquals(8L << 30, sweep.get(9).get("value").asLong());
        long best = -1;
        double bestSeconds = Double.MAX_VALUE;
        long smallest = -1;
        for (JsonNode n : sweep) {
            boolean meets = n.get("refitSeconds").asDouble() <= 0.2;
            assertEquals(meets, n.get("meetsTarget").asBoolean());
            if (meets && n.get("refitSeconds").asDouble() < bestSeconds) {
                bestSeconds = n.get("refitSeconds").asDouble();
                best = n.get("value").asLong();
            }
            if (meets && smallest < 0) {
                smallest = n.get("value").asLong();
            }
        }
        assertEquals(best, json.get("bestMeeting").asLong());
        assertEquals(smallest, json.get("smallestMeeting").asLong());
        // Not monotone: the fastest bucket is inside the range, both ends slower (per-bucket starts at 16 MiB,
        // the pipeline fill and a larger buffer at 8 GiB).
        assertTrue(best > (16L << 20) && best < (8L << 30), "best " + best);
        assertTrue(json.get("direction").asText().contains("neither throughout"), json.get("direction").asText());
        assertTrue(printed.contains("not monotone") || printed.contains("assumes none"), printed);
        assertTrue(printed.contains("best bucket that meets the target: "), printed);
        // the small buckets' bound is a fitted per-bucket cost, and the table says so under the points, as the
        // chart's caption does: a "bound by" column alone reads as a mechanism
        assertTrue(printed.contains("\nCALIBRATED, not a mechanism: refit.bucketSeconds = 5.65 ms, fitted to "
                + "whitecircle/halo PR #11; it limits the point(s) at bucket = 16 MiB"), printed);
        assertTrue(printed.indexOf("CALIBRATED, not a mechanism") < printed.indexOf("best bucket that meets"), printed);
        assertEquals(0, json.get("monotonicityViolations").size(), "a scan assumes nothing to violate");
        // The answer, run as a scenario, takes what the search reported.
        Path g = scenario("best", BUCKETS.replace("bucket: 1 GiB", "bucket: " + best + " B"));
        assertEquals(bestSeconds, steady(g, "nccl"), 1e-12);
    }

    private static final String FANOUT = """
            name: fanout
            hosts:
              receivers: {preset: dgx-h100, count: 2, prefix: r}
              sources: {preset: dgx-h100, count: 1, prefix: s}
            workload:
              fanout:
                receivers: receivers
                sources: sources
                model: 1 GB
            """;

    @Test
    void badCombinationsExitTwoWithTheirReason() throws IOException {
        Path fan = scenario("fanout", FANOUT);
        Path pull = scenario("nics", NICS);
        Path bcast = scenario("senders", SENDERS);
        // miles' update: the pipeline stages' heads under the engines' lock
        Path heads = scenario("heads", SENDERS.replace("dp: 4, fsdp: true}", "pp: 2, dp: 2}")
                .replace("    method: nccl-broadcast\n", "    method: nccl-broadcast\n    senders: stage-heads\n")
                .replace("  - {name: two, workload: {refit: {senders: 2}}}\n", "")
                .replace("  - {name: three, workload: {refit: {senders: 3}}}\n", ""));
        Path rdt = scenario("rdt", NICS.replace("method: rdma-pull", "method: sharded-rdt"));
        Path mooncake = scenario("mooncake", NICS.replace("method: rdma-pull", "method: mooncake-ring\n    bucket: 1 GiB"));
        Path replica = scenario("replica", NICS.replace("method: rdma-pull", "method: rdma-pull\n    source: host-replica\n"
                + "    bucket: 1 GiB"));
        String out = dir.resolve("bad").toString();
        List<List<String>> cases = List.of(
                List.of(fan.toString(), "--target-p99", "1", "--vary", "senders", "is a fan-out"),
                List.of(fan.toString(), "--target-p99", "1", "--vary", "inference-tp", "is a fan-out"),
                List.of(fan.toString(), "--target-refit", "1", "--vary", "sources", "--target-refit applies to a refit"),
                List.of(pull.toString(), "--target-refit", "1", "--vary", "sources", "is a refit"),
                List.of(pull.toString(), "--target-refit", "1", "--vary", "tree-degree", "is a refit"),
                List.of(pull.toString(), "--target-p99", "1", "--vary", "nics", "give --target-refit"),
                List.of(pull.toString(), "--vary", "nics", "give --target-p99 DURATION"),
                List.of(pull.toString(), "--target-p99", "1", "--target-refit", "1", "--vary", "nics", "exclude"),
                List.of(pull.toString(), "--target-refit", "0", "--vary", "nics", "positive"),
                List.of(pull.toString(), "--target-refit", "1", "--vary", "senders", "applies to nccl-broadcast"),
                // a count of senders would drop the lock stage heads send under: refused, not silently changed
                List.of(heads.toString(), "--target-refit", "1", "--vary", "senders", "does not apply to senders: "
                        + "stage-heads"),
                List.of(pull.toString(), "--target-refit", "1", "--vary", "bucket", "reads runs, not buckets"),
                // every method whose plan reads the bucket is named, colocated-ipc included
                List.of(pull.toString(), "--target-refit", "1", "--vary", "bucket", "--vary bucket applies to "
                        + "write-schedule, nccl-broadcast, checkpoint-engine, nixl-ring, mooncake-ring, colocated-ipc"),
                // Mooncake's engine takes the HCAs its topology prefers: no UCX variable moves its NICs
                List.of(mooncake.toString(), "--target-refit", "1", "--vary", "nics", "does not apply to mooncake-ring"),
                // so does rdma-pull's host replica, whose writes go through Mooncake from host memory
                List.of(replica.toString(), "--target-refit", "1", "--vary", "nics", "does not apply to rdma-pull with "
                        + "source: host-replica"),
                // sharded-rdt pulls per gather group: a bucket ladder would rerun one plan at every step
                List.of(rdt.toString(), "--target-refit", "1", "--vary", "bucket", "pulls one gather group at a time"),
                List.of(pull.toString(), "--target-refit", "1", "--vary", "nics", "--max", "9", "above the largest"),
                List.of(pull.toString(), "--target-refit", "1", "--vary", "nics", "--refit-cycle", "last", "first or steady"),
                List.of(bcast.toString(), "--target-refit", "1", "--vary", "nics", "--max", "2", "above the largest"),
                List.of(bcast.toString(), "--target-refit", "1", "--vary", "bucket", "--max", "4", "--max does not apply"),
                List.of(bcast.toString(), "--target-refit", "1", "--vary", "bogus", "senders, nics, bucket or inference-tp"),
                // a knob near one it knows is named
                List.of(bcast.toString(), "--target-refit", "1", "--vary", "buckets", "(did you mean 'bucket'?)"),
                // a fan-out's option on a refit is refused, not ignored (it was accepted and did nothing)
                List.of(pull.toString(), "--target-refit", "1", "--vary", "nics", "--threads", "4", "is a refit: "
                        + "--threads runs a fan-out point's replications side by side; a refit point is one run on one "
                        + "thread"));
        for (List<String> c : cases) {
            List<String> line = new ArrayList<>(List.of("size"));
            line.addAll(c.subList(0, c.size() - 1));
            line.addAll(List.of("--out", out));
            CliTestSupport.Outcome o = CliTestSupport.run(line.toArray(String[]::new));
            assertEquals(2, o.code(), c + ": " + o.out() + o.err());
            assertTrue(o.err().contains(c.get(c.size() - 1)), c + ": " + o.err());
            assertFalse(o.err().contains("Exception"), o.err());
        }
        assertFalse(Files.exists(dir.resolve("bad")), "nothing written");
    }

    @Test
    void sendersInAScenarioAreCheckedAgainstTheTrainerRanks() throws IOException {
        Path f = scenario("senders", SENDERS.replace("senders: 3", "senders: 5"));
        CliTestSupport.Outcome o = CliTestSupport.run("run", f.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("senders 5 is more than the trainer's 4 ranks"), o.err());
        assertTrue(o.err().contains("senders.yaml:"), o.err());
        assertFalse(o.err().contains("Exception"), o.err());
    }
    /**
     * A broadcast that gets slower with more senders (refit-moe-methods' nccl-broadcast-one, 16 trainer ranks): the
     * search doubles through 1, 2, 4, 8, 16, and its conclusion says exactly that, naming 3, 5-7 and 9-15 as not
     * simulated and, since the points rise, as values that may still meet the target.
     */
    @Test
    void aSearchThatDoublesSaysWhichSendersItRanAndWhichItSkipped() throws IOException {
        Path out = dir.resolve("moe-senders");
        CliTestSupport.Outcome o = CliTestSupport.run("size", CliTestSupport.repo()
                .resolve("scenarios/refit-moe-methods.yaml").toString(), "--variant", "nccl-broadcast-one",
                "--target-refit", "0.5s", "--vary", "senders", "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("tried senders = 1, 2, 4, 8, 16 (doubling from 1); not simulated: 3, 5-7, 9-15\n"),
                o.out());
        assertTrue(o.out().contains("no senders tried meets the target; the points break monotonicity, so a value not "
                + "simulated (3, 5-7, 9-15) may still meet it"), o.out());
        assertTrue(o.out().contains("; a value not simulated may meet the target"), o.out());
        assertFalse(o.out().contains("up to 16 meets"), o.out());
        assertFalse(o.out().contains("may not be the smallest"), o.out());
    }
    /**
     * {@code --vary nics} on a pull lists N NICs: the NICs UCX had as candidates for the first transfer (those that
     * carry and those it dropped) are exactly N at each point, no longer all four from N = 2 on; and the first
     * cycle's extra time at 4 NICs over 1, with the steady cycle unchanged, is the registration on 4 HCAs, which
     * the output names.
     */
    @Test
    void nicsListsExactlyNNicsAndNamesTheRegistrationTheFirstCyclePays() throws IOException {
        Path out = dir.resolve("gb200-nics");
        CliTestSupport.Outcome o = CliTestSupport.run("size", CliTestSupport.repo()
                .resolve("scenarios/refit-qwen3-4b-gb200.yaml").toString(), "--target-refit", "0.5s", "--vary",
                "nics", "-q", "--out", out.toString());
        assertEquals(0, o.code(), o.err());
        JsonNode json = SummaryJson.mapper().readTree(out.resolve("sizing.json").toFile());
        assertTrue(json.get("boundReason").asText().contains("each buffer registered on the N HCAs, so the first "
                + "cycle's registration grows with N"), json.toString());
        assertTrue(o.out().contains("so the first cycle's registration grows with N"), o.out());
        double first1 = 0;
        double steady1 = 0;
        for (JsonNode p : json.get("sweep")) {
            JsonNode lanes = p.get("lanes");
            int candidates = lanes.get("carrying").size() + lanes.get("dropped").size();
            assertEquals(p.get("value").asInt(), candidates, p.toString());
            if (p.get("value").asInt() == 1) {
                first1 = p.get("firstCycleSeconds").asDouble();
                steady1 = p.get("steadyCycleSeconds").asDouble();
            }
            if (p.get("value").asInt() == 4) {
                assertEquals(steady1, p.get("steadyCycleSeconds").asDouble(), 1e-9, "the same wire bound");
                assertTrue(p.get("firstCycleSeconds").asDouble() > first1 + 0.1, "registration on 4 HCAs");
            }
        }
    }
}
