package org.rdmasim.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.rdmasim.refit.RefitSetup;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.RefitMethodKind;
import org.rdmasim.workload.RefitRegistrationMode;
import org.rdmasim.workload.RefitSpec;
import org.rdmasim.workload.Senders;

/**
 * Reads {@code workload: {refit: ...}}:
 * <pre>
 * refit:
 *   model: models/qwen3-4b.json   # a config.json or tensor list beside the scenario, or a shipped model's name
 *                                 # (qwen3-4b: scenarios/models/qwen3-4b.json, looked up from the scenario up)
 *   dtype: fp8                    # what inference loads, if not the checkpoint's dtype (fp8 | bf16)
 *   trainer: {hosts: trainers, tp: 2, pp: 1, ep: 1, etp: 1, cp: 1, dp: 2, fsdp: false,
 *             firstStageLayers: 0, lastStageLayers: 0}
 *   inference: {hosts: inference, tp: 2, dp: 2, ep: false, redundantExperts: 0,
 *               engine: sglang}   # optional: vllm | sglang, where the engine's own load path costs something
 *                                 # (SGLang's GLM-4.7-Flash loader redoes every layer's MLA split per call)
 *                                 # replicaReads: spread | first (rdma-pull: a byte several trainer ranks hold
 *                                 # is read from the replica at the rank modulo the replicas, or the first)
 *   method: rdma-pull             # rdma-pull | write-schedule | nccl-broadcast | checkpoint-engine | nixl-ring
 *                                 # | mooncake-ring | colocated-ipc | nccl-p2p | sharded-rdt
 *   senders: one                  # nccl-broadcast: one (trainer rank 0) | all (striped, verl nccl_parallel)
 *                                 # | N (N trainer ranks evenly spaced, striped as all)
 *                                 # | stage-heads (the first rank of each pipeline stage,
 *                                 #   one bucket at a time through the engines' load: miles' and slime's lock)
 *   tree: 2                       # rdma-pull: ranks holding a shard each serve it to this many others
 *   bucket: 1 GiB                 # broadcast or ring bucket, or WRITE piece
 *   doubleBuffering: true
 *   registration: per-tensor      # per-tensor | pool | arena
 *   poolSegments: 16              # with pool
 *   registrationHcas: 1           # HCAs each GPU buffer is registered on (default: as many as UCX maps it on)
 *   cached: true                  # registration kept across cycles
 *   hostBounce: false             # colocated-ipc: each bucket staged through host memory (D2H then H2D)
 *   ipcHandles: per-bucket        # colocated-ipc: per-bucket (one flattened tensor a dtype) | per-tensor
 *   shardToShard: ffn             # nccl-p2p: ffn (FFN projections shard to shard, the rest broadcast from trainer
 *                                 # rank 0, NeMo-RL PR #2971) | all (every parameter, PR #2808's scope)
 *   spareSlot: false              # sharded-rdt: one receive slot more than pulls in flight (no scatter wait)
 *   source: gpu                   # rdma-pull: gpu (inference ranks read the trainer GPUs' shards) | host-replica
 *                                 # (miles' P2P update: each sender loads a CPU replica of an engine rank's shard
 *                                 # from its GPU, then RDMA-WRITEs it from host memory)
 *   writeOrder: slice-map         # write-schedule: slice-map (every sender walks its routes by inference rank)
 *                                 # | receiver-staggered (each sender starts at its own receiver: an assumption)
 *   mode: broadcast               # checkpoint-engine: broadcast (update() without ranks) | p2p (update(ranks=...):
 *                                 # receivers read buckets from the owners' host memory over RDMA, then broadcast)
 *   updateRanks: 16               # checkpoint-engine p2p: the inference ranks 0 to N - 1 it updates (all if absent)
 *   verlManager: false            # nccl-broadcast, nixl-ring, mooncake-ring: the time is verl's trainer timer around
 *                                 # its checkpoint-engine manager into vLLM rollouts (verlUpdateFrame once per update)
 *   stages: {pause: 0 s, resume: 0 s, barrier: 0 s, bucket: 5.6 ms}   # bucket: fixed cost a broadcast bucket
 *                                 # loadTensor: a tensor through the engine's load_weights (every method whose
 *                                 # engine loads what it receives; 0 s for a receive-only benchmark)
 *                                 # rdma-pull with source: host-replica: replicaLoadPerGB (the sender's
 *                                 # load_weights into its CPU replica beyond the copy, per GB loaded)
 *                                 # colocated-ipc also: ipcOpen (a handle opened); sharded-rdt: rdtScatter
 *                                 # (a pull's scatter wait), rdtPack (a produce call); nccl-p2p:
 *                                 # reshardCall (an xferdtensor call, per FFN parameter); checkpoint-engine:
 *                                 # checkpointEngineUpdateEnd (the update's end, once per update); verlManager:
 *                                 # verlUpdateFrame (verl's frame around the engine, once per update)
 *   cycles: 2
 * </pre>
 * Every field a layout or host group cannot carry is refused with its location (exit 2); so is an
 * {@code NCCL_IB_HCA} in the variant's environment that leaves a broadcast's host no NIC, at the line setting it.
 */
final class RefitReader {
    private RefitReader() {
    }

    /**
     * The refit at {@code r}; what its layouts leave idle ({@link RefitSetup#idle}) is added to {@code warnings},
     * each at the line of the field that decides it.
     */
    static RefitSpec read(YamlTree r, HostTable hosts, StackProfile stack, List<String> warnings) {
        r.onlyFields(Set.of("model", "dtype", "trainer", "inference", "method", "senders", "tree", "bucket",
                "doubleBuffering", "registration", "poolSegments", "registrationHcas", "cached", "stages", "cycles",
                "hostBounce", "ipcHandles", "shardToShard", "spareSlot", "mode", "updateRanks", "writeOrder",
                "source", "verlManager"));
        Path model = model(r.get("model"));
        String dtype = null;
        if (r.has("dtype")) {
            dtype = r.get("dtype").text().toLowerCase(Locale.ROOT);
            if (!dtype.equals("fp8") && !dtype.equals("bf16")) {
                throw r.get("dtype").notOneOf("fp8 or bf16", List.of("fp8", "bf16"));
            }
        }
        YamlTree t = r.get("trainer");
        t.onlyFields(Set.of("hosts", "tp", "pp", "ep", "etp", "cp", "dp", "fsdp", "firstStageLayers",
                "lastStageLayers", "dtype", "offload"));
        String trainerDtype = null;
        if (t.has("dtype")) {
            trainerDtype = t.get("dtype").text().toLowerCase(Locale.ROOT);
            if (!trainerDtype.equals("fp32") && !trainerDtype.equals("bf16")) {
                throw t.get("dtype").notOneOf("fp32 or bf16 (the dtype the trainer holds its weights in)",
                        List.of("fp32", "bf16"));
            }
        }
        boolean fsdp = t.has("fsdp") && t.get("fsdp").bool();
        boolean offloaded = t.has("offload") && t.get("offload").bool();
        if (offloaded && !fsdp) {
            throw t.get("offload").error("offload keeps FSDP's parameter shards in host memory: it needs fsdp: true");
        }
        RefitSpec.Trainer trainer = new RefitSpec.Trainer(size(t, "tp"), size(t, "pp"), size(t, "ep"), size(t, "etp"),
                size(t, "cp"), size(t, "dp"), fsdp, count(t, "firstStageLayers"), count(t, "lastStageLayers"),
                trainerDtype, offloaded);
        YamlTree i = r.get("inference");
        i.onlyFields(Set.of("hosts", "tp", "dp", "ep", "redundantExperts", "engines", "engine", "replicaReads"));
        boolean ep = i.has("ep") && i.get("ep").bool();
        boolean separate = false;
        if (i.has("engines")) {
            String engines = i.get("engines").text().toLowerCase(Locale.ROOT);
            if (!engines.equals("one") && !engines.equals("separate")) {
                throw i.get("engines").notOneOf("one (vLLM's own data parallelism) or separate (each DP replica its "
                        + "own engine)", List.of("one", "separate"));
            }
            separate = engines.equals("separate");
        }
        org.rdmasim.workload.InferenceEngine engine = null;
        if (i.has("engine")) {
            YamlTree e = i.get("engine");
            engine = org.rdmasim.workload.InferenceEngine.of(e.text()).orElseThrow(() -> e.notOneOf(
                    org.rdmasim.workload.InferenceEngine.expected(),
                    org.rdmasim.workload.Spelled.spellings(org.rdmasim.workload.InferenceEngine.values())));
        }
        boolean firstReplica = false;
        if (i.has("replicaReads")) {
            String reads = i.get("replicaReads").text().toLowerCase(Locale.ROOT);
            if (!reads.equals("spread") && !reads.equals("first")) {
                throw i.get("replicaReads").notOneOf("spread (each inference rank reads the replica at its rank "
                        + "modulo the replicas: ModelExpress' MX_RESHARD_SPREAD_SOURCES rotation) or first (every "
                        + "inference rank reads the first replica: ModelExpress' default)", List.of("spread", "first"));
            }
            firstReplica = reads.equals("first");
        }
        RefitSpec.Inference inference = new RefitSpec.Inference(size(i, "tp"), size(i, "dp"), ep,
                count(i, "redundantExperts"), separate, engine, firstReplica);
        if (inference.redundantExperts() > 0 && !ep) {
            throw i.get("redundantExperts").error("redundant experts need ep: true (vLLM's EPLB runs with "
                    + "--enable-expert-parallel)");
        }
        List<String> trainerHosts = hosts(t.get("hosts"), hosts);
        List<String> inferenceHosts = hosts(i.get("hosts"), hosts);
        YamlTree m = r.get("method");
        RefitMethodKind method = RefitMethodKind.of(m.text()).orElseThrow(() -> m.notOneOf(
                "one of " + String.join(", ", RefitMethodKind.spellings()), RefitMethodKind.spellings()));
        if (i.has("replicaReads") && method != RefitMethodKind.RDMA_PULL) {
            // the choice is ModelExpress' reshard planner's, which only a receiver-driven pull follows
            throw i.get("replicaReads").error("replicaReads applies to rdma-pull only (ModelExpress' planner picks "
                    + "the replica; method is " + method.spelling() + ")");
        }
        // checkpoint-engine's owners are the inference engine's own ranks (its README: the weights are held in
        // host memory by workers beside the engines), so they share hosts; every other method moves weights
        // from trainer GPUs to other GPUs
        if (method == RefitMethodKind.COLOCATED_IPC) {
            // trainer and engine share every GPU: the engine's ranks sit on the trainer's own GPUs
            if (!inferenceHosts.equals(trainerHosts)) {
                throw i.get("hosts").error("colocated-ipc runs trainer and engine on the same GPUs: inference hosts "
                        + inferenceHosts + " must be the trainer's " + trainerHosts);
            }
        } else if (method != RefitMethodKind.CHECKPOINT_ENGINE) {
            Set<String> trainers = new HashSet<>(trainerHosts);
            for (String h : inferenceHosts) {
                if (trainers.contains(h)) {
                    throw i.get("hosts").error("host '" + h + "' holds trainer and inference ranks: give each its own "
                            + "hosts (only checkpoint-engine's owners and colocated-ipc share them)");
                }
            }
        }
        Senders senders = Senders.RANK_ZERO;
        if (r.has("senders")) {
            YamlTree s = r.get("senders");
            String text = s.text().toLowerCase(Locale.ROOT);
            if (text.equals("one")) {
                senders = Senders.RANK_ZERO;
            } else if (text.equals("all")) {
                senders = Senders.ALL;
            } else if (text.equals("stage-heads")) {
                senders = Senders.STAGE_HEADS;
            } else if (text.matches("[0-9]+")) {
                senders = Senders.ranks(size(r, "senders"));
            } else {
                throw s.notOneOf("one, all, stage-heads or a number of trainer ranks",
                        List.of("one", "all", "stage-heads"));
            }
            if (method != RefitMethodKind.NCCL_BROADCAST) {
                throw s.error("senders applies to nccl-broadcast only (method is " + method.spelling() + ")");
            }
        }
        int tree = 0;
        if (r.has("tree")) {
            tree = count(r, "tree");
            if (method != RefitMethodKind.RDMA_PULL) {
                throw r.get("tree").error("a tree fan-out applies to rdma-pull only (method is " + method.spelling()
                        + ")");
            }
            if (tree > 0 && ep && !inference.separateEngines()) {
                throw r.get("tree").error("a tree shares a shard among DP replicas; with expert parallelism in one "
                        + "engine no two inference ranks hold the same experts (separate engines, each with its own "
                        + "experts, can share theirs: engines: separate)");
            }
        }
        long bucket = 0;
        if (r.has("bucket")) {
            bucket = Quantities.bytes(r.get("bucket"));
            if (bucket < 1) {
                throw r.get("bucket").error("a bucket holds at least one byte");
            }
        }
        boolean doubleBuffered = !r.has("doubleBuffering") || r.get("doubleBuffering").bool();
        boolean hostBounce = false;
        if (r.has("hostBounce")) {
            hostBounce = r.get("hostBounce").bool();
            if (method != RefitMethodKind.COLOCATED_IPC) {
                throw r.get("hostBounce").error("hostBounce applies to colocated-ipc only (method is "
                        + method.spelling() + ")");
            }
        }
        boolean perTensorHandles = eitherOr(r, "ipcHandles", method, RefitMethodKind.COLOCATED_IPC, "per-bucket",
                "per-tensor", "per-bucket or per-tensor");
        boolean everyParameter = eitherOr(r, "shardToShard", method, RefitMethodKind.NCCL_P2P, "ffn", "all",
                "ffn (NeMo-RL PR #2971: FFN projections shard to shard, the rest broadcast) or all (every parameter "
                        + "shard to shard, PR #2808's scope)");
        boolean spareSlot = false;
        if (r.has("spareSlot")) {
            spareSlot = r.get("spareSlot").bool();
            if (method != RefitMethodKind.SHARDED_RDT) {
                throw r.get("spareSlot").error("spareSlot applies to sharded-rdt only (method is " + method.spelling()
                        + ")");
            }
        }
        boolean staggered = eitherOr(r, "writeOrder", method, RefitMethodKind.WRITE_SCHEDULE, "slice-map",
                "receiver-staggered", "slice-map (every sender walks its routes by inference rank) or "
                        + "receiver-staggered (each sender starts at its own receiver)");
        boolean hostReplica = eitherOr(r, "source", method, RefitMethodKind.RDMA_PULL, "gpu", "host-replica",
                "gpu (inference ranks read the trainer GPUs) or host-replica (each sender writes from a CPU replica in "
                        + "host memory)");
        if (hostReplica && tree > 0) {
            throw r.get("source").error("a host replica writes to every inference rank itself: no tree fan-out (tree is "
                    + tree + ")");
        }
        if (bucket > 0 && !method.bucketed() && !hostReplica) {
            // the plan reads no bucket for these methods: a size written there changes nothing
            String why = "bucket applies to " + String.join(", ", RefitMethodKind.bucketedKinds().stream()
                    .map(RefitMethodKind::spelling).toList()) + " and rdma-pull's source: host-replica (method is "
                    + method.spelling() + ", which " + switch (method) {
                        case RDMA_PULL -> "reads each rank's runs";
                        case NCCL_P2P -> "sends each pair's runs";
                        default -> "pulls one gather group at a time";
                    } + ", not buckets)";
            YamlTree b = r.get("bucket");
            if (sameLayer(b, r.get("method"))) {
                // written beside the method: a slip
                throw b.error(why);
            }
            // laid over from elsewhere (a base shared with bucketed variants, a study's knob): this variant ignores it
            warnings.add(new org.rdmasim.importers.InputLocation(b.origin(), b.line(), b.column()) + ": " + b.path()
                    + ": " + why + "; variant runs without it");
        }
        if (hostReplica && i.has("replicaReads")) {
            // miles' plan_p2p, not ModelExpress' planner, picks who sends: every rank of a stage holds it whole after
            // the all-gathers, and the targets are dealt to those ranks (radixark/miles 9a6fc9e6
            // miles/backends/megatron_utils/update_weight/update_weight_from_distributed/p2p_transfer_utils.py:99-121,
            // ReplicaRoutes), so the slice map's replica choice never reaches the routes
            throw i.get("replicaReads").error("replicaReads does not apply to source: host-replica (miles' plan_p2p "
                    + "deals each engine rank to one rank of the stage, whichever replica the slice map read)");
        }
        boolean verlManager = false;
        if (r.has("verlManager")) {
            verlManager = r.get("verlManager").bool();
            // verl's manager drives its checkpoint engines (nccl, nccl_parallel, nixl, mooncake): verl-project/verl
            // e88dcf17b verl/checkpoint_engine/base.py:486-538
            if (!method.verlEngine()) {
                throw r.get("verlManager").error("verlManager applies to verl's checkpoint engines only: "
                        + "nccl-broadcast, nixl-ring or mooncake-ring (method is " + method.spelling() + ")");
            }
        }
        int p2pRanks = p2pRanks(r, method, inference);
        RefitRegistrationMode registration = RefitRegistrationMode.PER_TENSOR;
        if (r.has("registration")) {
            YamlTree g = r.get("registration");
            registration = RefitRegistrationMode.of(g.text()).orElseThrow(() -> g.notOneOf(
                    RefitRegistrationMode.expected(), org.rdmasim.workload.Spelled.spellings(RefitRegistrationMode.values())));
        }
        int segments = 0;
        if (registration == RefitRegistrationMode.POOLED) {
            if (!r.has("poolSegments")) {
                throw r.get("registration").error("a pool registration needs poolSegments: N");
            }
            segments = size(r, "poolSegments");
        } else if (r.has("poolSegments")) {
            throw r.get("poolSegments").error("poolSegments applies to registration: pool only");
        }
        int hcas = r.has("registrationHcas") ? size(r, "registrationHcas") : RefitSpec.REGISTRATION_HCAS_AS_UCX_MAPS;
        boolean cached = !r.has("cached") || r.get("cached").bool();
        Map<String, Double> stages = new HashMap<>();
        if (r.has("stages")) {
            YamlTree s = r.get("stages");
            Map<String, Parameter<Double>> byKey = new java.util.LinkedHashMap<>();
            for (Parameter<Double> p : Parameters.refitStages()) {
                byKey.put(p.key(), p);
            }
            s.onlyFields(byKey.keySet());
            for (Map.Entry<String, YamlTree> e : s.entries().entrySet()) {
                Parameter<Double> p = byKey.get(e.getKey());
                stages.put(Parameters.calibrationKey(p), p.fromYaml(e.getValue()));
            }
        }
        int cycles = r.has("cycles") ? size(r, "cycles") : 1;
        RefitSpec spec = new RefitSpec(model, dtype, trainerHosts, trainer, inferenceHosts, inference, method,
                new RefitSpec.Knobs(senders, tree, bucket, doubleBuffered, hostBounce, perTensorHandles,
                        everyParameter, spareSlot, p2pRanks, staggered, hostReplica, verlManager), registration, segments, cached, hcas, cycles,
                stages);
        RefitSetup setup;
        try {
            setup = RefitSetup.of(spec, hosts::representative, stack);
        } catch (RefitSetup.Refused e) {
            throw at(r, e.field()).error(e.getMessage());
        }
        for (RefitSetup.Idle idle : setup.idle()) {
            // located as an error would be (FILE:LINE:COL: field: ...), but the refit runs as written
            YamlTree where = at(r, idle.field());
            warnings.add(new org.rdmasim.importers.InputLocation(where.origin(), where.line(), where.column()) + ": "
                    + where.path() + ": " + idle.message());
        }
        return spec;
    }

    /** Whether two fields were written in one place: the same file and the same variant (or both in the base). */
    private static boolean sameLayer(YamlTree a, YamlTree b) {
        String pa = a.path();
        String pb = b.path();
        int ia = pa.indexOf("workload.refit");
        int ib = pb.indexOf("workload.refit");
        return a.origin().equals(b.origin()) && ia >= 0 && ib >= 0 && pa.substring(0, ia).equals(pb.substring(0, ib));
    }

    /**
     * A knob of one method written as one of two words: true when the scenario writes {@code second}, false when
     * it writes {@code first} or nothing; another word, or the knob on another method, is refused at its line.
     */
    private static boolean eitherOr(YamlTree r, String key, RefitMethodKind method, RefitMethodKind onlyMethod,
            String first, String second, String expected) {
        if (!r.has(key)) {
            return false;
        }
        YamlTree x = r.get(key);
        String text = x.text().toLowerCase(Locale.ROOT);
        if (!text.equals(first) && !text.equals(second)) {
            throw x.notOneOf(expected, List.of(first, second));
        }
        if (method != onlyMethod) {
            throw x.error(key + " applies to " + onlyMethod.spelling() + " only (method is " + method.spelling() + ")");
        }
        return text.equals(second);
    }

    /**
     * checkpoint-engine's update mode: 0 for its broadcast ({@code update()} without ranks), N for its P2P update
     * of inference ranks 0 to N - 1 ({@code update(ranks=range(0, N))}); every inference rank when
     * {@code updateRanks} is absent.
     */
    private static int p2pRanks(YamlTree r, RefitMethodKind method, RefitSpec.Inference inference) {
        boolean p2p = false;
        if (r.has("mode")) {
            YamlTree m = r.get("mode");
            String text = m.text().toLowerCase(Locale.ROOT);
            if (!text.equals("broadcast") && !text.equals("p2p")) {
                throw m.notOneOf("broadcast or p2p", List.of("broadcast", "p2p"));
            }
            if (method != RefitMethodKind.CHECKPOINT_ENGINE) {
                throw m.error("mode applies to checkpoint-engine only (method is " + method.spelling() + ")");
            }
            p2p = text.equals("p2p");
        }
        if (!r.has("updateRanks")) {
            return p2p ? inference.ranks() : 0;
        }
        YamlTree u = r.get("updateRanks");
        if (!p2p) {
            throw u.error("updateRanks applies to checkpoint-engine's mode: p2p only");
        }
        int n = size(r, "updateRanks");
        if (n > inference.ranks()) {
            throw u.error("updateRanks " + n + " is more than the inference layout's " + inference.ranks() + " ranks");
        }
        return n;
    }

    /** The node a refused field names, or its nearest written parent. */
    private static YamlTree at(YamlTree r, String field) {
        YamlTree node = r;
        for (String part : field.split("\\.")) {
            if (node.isMap() && node.has(part)) {
                node = node.get(part);
            } else {
                break;
            }
        }
        return node;
    }

    /**
     * A model file beside the scenario (inside its folder), or a model's bare name looked up as
     * {@code models/NAME.json} in the scenario's folder and the folders above it (a scenario under
     * scenarios/scale finds scenarios/models), then among the models rdmasim ships
     * ({@code scenarios/models/} of the installation the launcher names in {@code rdmasim.home}), so a
     * scenario in a folder of the user's own can name one.
     */
    private static Path model(YamlTree v) {
        String text = v.text();
        if (text.matches("[A-Za-z0-9._-]+") && !text.endsWith(".json")) {
            Path folder = Path.of(v.file()).toAbsolutePath().getParent();
            for (int up = 0; folder != null && up < 4; up++, folder = folder.getParent()) {
                Path f = folder.resolve("models").resolve(text + ".json");
                if (Files.isRegularFile(f)) {
                    return f;
                }
            }
            java.util.Optional<Path> shipped = ShippedModels.find(text);
            if (shipped.isPresent()) {
                return shipped.get();
            }
            List<String> names = ShippedModels.names();
            throw v.error("no model named '" + text + "' in a models/ folder beside the scenario or above it"
                    + (names.isEmpty() ? "" : " or among the shipped models (" + String.join(", ", names) + ")")
                    + YamlTree.suggestion(text, new java.util.TreeSet<>(names))
                    + "; give a path to a config.json or tensor list");
        }
        Path written = Path.of(text);
        Path at = written.isAbsolute() ? written : Path.of(v.file()).toAbsolutePath().getParent().resolve(written);
        String stem = written.getFileName() == null ? "" : written.getFileName().toString().replaceFirst("\\.json$", "");
        if (!Files.exists(at) && ShippedModels.find(stem).isPresent()) {
            // a catalogue scenario copied out of scenarios/ keeps its models/ path: the shipped name still works
            throw v.error("no such file: " + at + "; rdmasim ships this model: write model: " + stem
                    + " (looked up in a models/ folder beside the scenario or above it, then among the shipped models)");
        }
        return FileScope.resolve(v);
    }

    private static List<String> hosts(YamlTree v, HostTable hosts) {
        List<String> out = new ArrayList<>();
        for (YamlTree n : v.isList() ? v.items() : List.of(v)) {
            String name = n.text();
            List<String> group = hosts.groups().get(name);
            if (group != null) {
                out.addAll(group);
            } else if (hosts.specs().containsKey(name)) {
                out.add(name);
            } else {
                throw n.error("no host or host group named '" + name + "' (hosts: " + hosts.describe() + ")");
            }
        }
        if (out.isEmpty()) {
            throw v.error("no hosts listed");
        }
        if (new HashSet<>(out).size() != out.size()) {
            throw v.error("a host is listed twice");
        }
        return out;
    }

    /** A parallel size: 1 when absent, else 1 to 65536. */
    private static int size(YamlTree section, String field) {
        if (!section.has(field)) {
            return 1;
        }
        long n = section.get(field).integer();
        if (n < 1 || n > 65536) {
            throw section.get(field).error("expected 1 to 65536, got " + n);
        }
        return (int) n;
    }

    /** A count: 0 when absent, else 0 to 65536. */
    private static int count(YamlTree section, String field) {
        if (!section.has(field)) {
            return 0;
        }
        long n = section.get(field).integer();
        if (n < 0 || n > 65536) {
            throw section.get(field).error("expected 0 to 65536, got " + n);
        }
        return (int) n;
    }
}
