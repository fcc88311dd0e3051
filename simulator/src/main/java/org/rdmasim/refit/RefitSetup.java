package org.rdmasim.refit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.refit.layout.AttentionHeads;
import org.rdmasim.refit.layout.InferenceLayout;
import org.rdmasim.refit.layout.ReplicaRoutes;
import org.rdmasim.refit.layout.SliceMap;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.refit.layout.TrainerLayout;
import org.rdmasim.refit.method.Buckets;
import org.rdmasim.refit.method.CheckpointEngine;
import org.rdmasim.refit.method.ColocatedIpc;
import org.rdmasim.refit.method.NcclBroadcast;
import org.rdmasim.refit.method.NcclP2p;
import org.rdmasim.refit.method.NixlRing;
import org.rdmasim.refit.method.Preparation;
import org.rdmasim.refit.method.RankBuffers;
import org.rdmasim.refit.method.RdmaPull;
import org.rdmasim.refit.method.ShardedRdt;
import org.rdmasim.refit.method.RefitCalibration;
import org.rdmasim.refit.method.RefitMethod;
import org.rdmasim.refit.method.RefitPlan;
import org.rdmasim.refit.method.Registration;
import org.rdmasim.refit.method.ShardGather;
import org.rdmasim.refit.method.WriteSchedule;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.config.NcclIbHca;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.RefitMethodKind;
import org.rdmasim.workload.RefitRegistrationMode;
import org.rdmasim.workload.RefitSpec;
import org.rdmasim.workload.Senders;

/**
 * A scenario's refit ({@link RefitSpec}) built into what {@link org.rdmasim.refit.method.RefitRun} runs: the
 * model's tensors in the dtype inference loads, the two layouts, the slice map, the placement of ranks on the
 * hosts' GPUs, and the plan with its method, preparation, registration and stage parameters. Whatever the
 * spec asks that the layouts or hosts cannot carry is {@link Refused}, naming the scenario field.
 */
public final class RefitSetup {
    /** FP8 block edge when inference quantises a BF16 checkpoint: DeepSeek-V3's 128 x 128 (its README_WEIGHTS.md). */
    static final int FP8_BLOCK = 128;

    private final RefitSpec spec;
    private final ModelInventory inventory;
    private final List<Tensor> tensors;
    private final TrainerLayout trainer;
    private final InferenceLayout inference;
    private final SliceMap map;
    private final NcclIbHca ibHca;
    /** HCAs each GPU buffer is registered on ({@link #registrationHcas(RefitSpec, int)}). */
    private final int registrationHcas;
    /** What NCCL passes over in silence in {@code NCCL_IB_HCA} (items matching no device), said in the plan. */
    private final List<String> ibHcaWarnings = new ArrayList<>();
    private final RefitPlan plan;
    /** GPUs the layouts leave without work ({@link #idle()}). */
    private final List<Idle> idle;

    /**
     * GPUs of the refit's hosts that take no part in it, with why: a layout smaller than its hosts leaves GPUs
     * without a rank, a trainer rank no inference rank reads from sends nothing, and an inference rank outside
     * checkpoint-engine's P2P update receives nothing. A warning, not a refusal: the refit runs as written.
     *
     * @param field   the field under {@code workload.refit} whose value decides it, dotted ({@code inference.hosts})
     * @param message what is idle and why, in words
     */
    public record Idle(String field, String message) {
    }

    /** What the spec asks and its layouts or hosts cannot do, with the scenario field to blame. */
    public static final class Refused extends IllegalArgumentException {
        private final String field;

        Refused(String field, String message) {
            super(message);
            this.field = field;
        }

        /** The field under {@code workload.refit}, dotted ({@code inference.tp}). */
        public String field() {
            return field;
        }
    }

    private RefitSetup(RefitSpec spec, Function<String, Host> hosts, NcclIbHca ibHca, int ucxMappedHcas) {
        this.spec = spec;
        this.ibHca = ibHca;
        this.registrationHcas = registrationHcas(spec, ucxMappedHcas);
        Mapped m = mapped(spec);
        this.inventory = m.inventory();
        this.tensors = m.tensors();
        this.trainer = m.trainer();
        this.inference = m.inference();
        this.map = m.map();
        int trainerGpus = gpus(spec.trainerHosts(), hosts);
        if (trainer.worldSize() > trainerGpus) {
            throw new Refused("trainer.hosts", "the trainer layout has " + trainer.worldSize() + " ranks and its hosts "
                    + spec.trainerHosts().size() + " x " + perHost(spec.trainerHosts(), hosts) + " GPUs = "
                    + trainerGpus);
        }
        int inferenceGpus = gpus(spec.inferenceHosts(), hosts);
        if (inference.worldSize() > inferenceGpus) {
            throw new Refused("inference.hosts", "the inference layout has " + inference.worldSize() + " ranks and "
                    + "its hosts " + spec.inferenceHosts().size() + " x " + perHost(spec.inferenceHosts(), hosts)
                    + " GPUs = " + inferenceGpus);
        }
        if (spec.registrationHcas() != RefitSpec.REGISTRATION_HCAS_AS_UCX_MAPS) {
            // a GPU buffer is registered on HCAs of its own host: never more than the refit's hosts have (the larger
            // side's count: a pull's UCX_NET_DEVICES may list more of the inference host's devices than a trainer has)
            String most = spec.trainerHosts().get(0);
            for (String name : List.of(spec.trainerHosts().get(0), spec.inferenceHosts().get(0))) {
                if (hosts.apply(name).nics().size() > hosts.apply(most).nics().size()) {
                    most = name;
                }
            }
            int nics = hosts.apply(most).nics().size();
            if (spec.registrationHcas() > nics) {
                throw new Refused("registrationHcas", "registrationHcas " + spec.registrationHcas() + " is more than the "
                        + nics + " RDMA device(s) of host " + most + ", the refit's host with the most: a buffer is "
                        + "registered on HCAs of its own host, at most all of them");
            }
        }
        Senders senders = spec.knobs().senders();
        if (senders instanceof Senders.StageHeads && spec.trainer().fsdp()) {
            throw new Refused("senders", "stage-heads is Megatron's update (the first rank of each pipeline stage "
                    + "sends): an FSDP trainer has no such ranks");
        }
        if (senders instanceof Senders.Ranks r && r.count() > trainer.worldSize()) {
            throw new Refused("senders", "senders " + r.count() + " is more than the trainer's " + trainer.worldSize()
                    + " ranks");
        }
        int tree = spec.knobs().treeChildren();
        if (tree > 0 && moe() && !inference.separateEngines()) {
            // one engine's MoE layers see all tp x dp ranks as one group (InferenceLayout: vLLM's flatten_tp_across_dp),
            // so the same TP rank of two DP replicas holds different expert bytes (a slice or whole experts): the
            // tree's shard (rank % tp) would hand a rank another's experts, of the same size when the split is even.
            // Expert parallelism is refused where the field is read; this is the tensor-split case
            throw new Refused("tree", "a tree shares a shard among DP replicas; in one engine the model's routed "
                    + "experts are split over all " + inference.worldSize() + " ranks (tp x dp, vLLM's "
                    + "flatten_tp_across_dp), so no two inference ranks hold the same expert bytes (separate engines, "
                    + "each splitting the experts over its own TP ranks, can share theirs: engines: separate)");
        }
        if (tree > inference.dp() - 1) {
            // a tree serves a shard only to the ranks holding the same one, the same TP rank of each of the dp
            // replicas (RdmaPull groups ranks by rank % tp): a holder never has more than dp - 1 to serve, so a wider
            // tree runs as dp - 1 does and the number written would be a setting that changes nothing
            int others = inference.dp() - 1;
            throw new Refused("tree", "tree " + tree + " is more than the " + others + " rank(s) a shard can be served "
                    + "to in the inference layout (" + inference + "): each shard is held by the same TP rank of each of "
                    + "the " + inference.dp() + " DP replica(s), so a holder serves at most the " + others
                    + " other(s); valid: " + (others > 0 ? "0 (no tree) to " + others
                            : "0 only (one replica shares its shards with no other rank)"));
        }
        this.plan = plan(hosts);
        this.idle = idle(hosts);
    }

    /** GPUs the layouts leave without work, each with the field that decides it (empty when every GPU works). */
    public List<Idle> idle() {
        return idle;
    }

    private List<Idle> idle(Function<String, Host> hosts) {
        List<Idle> out = new ArrayList<>();
        List<Endpoint> trainerAt = place(spec.trainerHosts(), hosts, trainer.worldSize());
        List<Endpoint> inferenceAt = place(spec.inferenceHosts(), hosts, inference.worldSize());
        // a GPU with a rank of either layout works (checkpoint-engine's owners and colocated-ipc share hosts)
        Set<Endpoint> placed = new java.util.HashSet<>(trainerAt);
        placed.addAll(inferenceAt);
        RefitSpec.Trainer t = spec.trainer();
        RefitSpec.Inference i = spec.inference();
        String trainerLayout = "tp " + t.tp() + " x pp " + t.pp() + " x cp " + t.cp() + " x dp " + t.dp();
        String inferenceLayout = "tp " + i.tp() + " x dp " + i.dp();
        unplaced(out, "trainer.hosts", "the trainer layout (" + trainerLayout + ") has " + trainer.worldSize(),
                spec.trainerHosts(), hosts, placed);
        if (!spec.inferenceHosts().equals(spec.trainerHosts())) {
            unplaced(out, "inference.hosts", "the inference layout (" + inferenceLayout + ") has "
                    + inference.worldSize(), spec.inferenceHosts(), hosts, placed);
        }
        // trainer ranks the slice map reads nothing from, where the routes' trainer ranks are the senders: a pull
        // from the trainer GPUs without a tree (a tree's roots read, then serve) and a WRITE schedule
        boolean routesSend = spec.method() == RefitMethodKind.WRITE_SCHEDULE
                || spec.method() == RefitMethodKind.RDMA_PULL && !spec.knobs().hostReplica()
                        && spec.knobs().treeChildren() == 0;
        if (routesSend) {
            java.util.BitSet sends = new java.util.BitSet(trainer.worldSize());
            for (SliceRoute r : map.routes()) {
                sends.set(r.trainerRank());
            }
            int silent = trainer.worldSize() - sends.cardinality();
            if (silent > 0) {
                List<Integer> ranks = new ArrayList<>();
                for (int r = sends.nextClearBit(0); r < trainer.worldSize(); r = sends.nextClearBit(r + 1)) {
                    ranks.add(r);
                }
                boolean first = i.firstReplicaReads();
                out.add(new Idle(first ? "inference.replicaReads" : "inference", String.format(Locale.ROOT,
                        "%d of the %d trainer ranks send nothing (%s, on %s): every byte they hold is held by another "
                                + "trainer rank too, and %s; their GPUs and NICs idle through the %s",
                        silent, trainer.worldSize(), "rank" + (silent == 1 ? " " : "s ") + ranges(ranks),
                        hostsOf(ranks, trainerAt), first ? "replicaReads: first reads every such byte from the first "
                                + "replica"
                                : "the inference ranks needing it read it from the replica at their rank modulo the "
                                        + "replicas, which leaves these unread",
                        spec.method().spelling())));
            }
        }
        if (spec.method() == RefitMethodKind.CHECKPOINT_ENGINE && spec.knobs().p2pRanks() > 0
                && spec.knobs().p2pRanks() < inference.worldSize()) {
            int n = spec.knobs().p2pRanks();
            List<Integer> ranks = new ArrayList<>();
            for (int r = n; r < inference.worldSize(); r++) {
                ranks.add(r);
            }
            out.add(new Idle("updateRanks", String.format(Locale.ROOT, "%d of the %d inference ranks receive nothing "
                    + "(ranks %s, on %s): updateRanks %d updates ranks 0 to %d only, as checkpoint-engine's "
                    + "update(ranks=range(0, %d)) does", ranks.size(), inference.worldSize(), ranges(ranks),
                    hostsOf(ranks, inferenceAt), n, n - 1, n)));
        }
        return List.copyOf(out);
    }

    /** GPUs of {@code names} that hold no rank of either layout, said at {@code field}. */
    private static void unplaced(List<Idle> out, String field, String layout, List<String> names,
            Function<String, Host> hosts, Set<Endpoint> placed) {
        int per = perHost(names, hosts);
        List<String> gpus = hosts.apply(names.get(0)).gpus().stream().map(TopologyNode::name).toList();
        List<String> wholeHosts = new ArrayList<>();
        List<String> partly = new ArrayList<>();
        int empty = 0;
        for (String h : names) {
            List<String> none = new ArrayList<>();
            for (String g : gpus) {
                if (!placed.contains(new Endpoint(h, g))) {
                    none.add(g);
                }
            }
            empty += none.size();
            if (none.size() == per) {
                wholeHosts.add(h);
            } else if (!none.isEmpty()) {
                partly.add(String.join(", ", none) + " on " + h);
            }
        }
        if (empty == 0) {
            return;
        }
        List<String> where = new ArrayList<>(partly);
        if (!wholeHosts.isEmpty()) {
            where.add(0, (wholeHosts.size() == 1 ? "host " : "hosts ") + hostRange(wholeHosts) + ", every GPU");
        }
        out.add(new Idle(field, String.format(Locale.ROOT, "%s rank(s) and its hosts %d x %d GPUs = %d: %d GPU(s) hold "
                + "no rank and take no part in the refit (%s); ranks are placed host by host in GPU order, so a layout "
                + "of %d ranks would use them all%s", layout, names.size(), per, names.size() * per,
                empty, String.join("; ", where), names.size() * per,
                wholeHosts.isEmpty() ? "" : ", as would leaving the idle hosts out of the group")));
    }

    /** Ranks as ranges: {@code 4-7, 12}. */
    private static String ranges(List<Integer> ranks) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < ranks.size(); ) {
            int j = k;
            while (j + 1 < ranks.size() && ranks.get(j + 1) == ranks.get(j) + 1) {
                j++;
            }
            out.add(j == k ? String.valueOf(ranks.get(k)) : ranks.get(k) + "-" + ranks.get(j));
            k = j + 1;
        }
        return String.join(", ", out);
    }

    /** The hosts of {@code ranks} placed at {@code at}, in order: {@code t1, t3}. */
    private static String hostsOf(List<Integer> ranks, List<Endpoint> at) {
        java.util.LinkedHashSet<String> hostNames = new java.util.LinkedHashSet<>();
        ranks.forEach(r -> hostNames.add(at.get(r).host()));
        List<String> names = new ArrayList<>(hostNames);
        return names.size() <= 4 ? String.join(", ", names) : hostRange(names);
    }

    /** The model in inference's dtype, the two layouts and their slice map: what a plan's method does not change. */
    private record Mapped(ModelInventory inventory, List<Tensor> tensors, TrainerLayout trainer,
            InferenceLayout inference, SliceMap map) {
    }

    /** What a slice map depends on: variants that change only the method or hosts share one. */
    private record MapKey(java.nio.file.Path model, String dtype, RefitSpec.Trainer trainer,
            RefitSpec.Inference inference) {
    }

    /** The last few slice maps built: a scenario's variants usually differ in the method alone. */
    private static final Map<MapKey, Mapped> MAPS = new java.util.LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<MapKey, Mapped> eldest) {
            return size() > 2;
        }
    };

    private static Mapped mapped(RefitSpec spec) {
        MapKey key = new MapKey(spec.model(), spec.inferenceDtype(), spec.trainer(), spec.inference());
        synchronized (MAPS) {
            Mapped m = MAPS.get(key);
            if (m != null) {
                return m;
            }
        }
        Mapped m = map(spec);
        synchronized (MAPS) {
            MAPS.put(key, m);
        }
        return m;
    }

    private static Mapped map(RefitSpec spec) {
        ModelInventory inventory;
        TrainerLayout trainer;
        InferenceLayout inference;
        SliceMap map;
        try {
            inventory = ModelInventory.read(spec.model());
        } catch (IOException e) {
            throw new Refused("model", "cannot read " + spec.model() + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new Refused("model", e.getMessage());
        }
        List<Tensor> tensors = converted(inventory.tensors(), spec.inferenceDtype());
        RefitSpec.Trainer t = spec.trainer();
        try {
            trainer = new TrainerLayout(t.tp(), t.pp(), t.ep(), t.etp(), t.cp(), t.dp(), t.fsdp(), t.firstStageLayers(),
                    t.lastStageLayers());
        } catch (IllegalArgumentException e) {
            throw new Refused("trainer", e.getMessage());
        }
        RefitSpec.Inference i = spec.inference();
        try {
            inference = new InferenceLayout(i.tp(), i.dp(), i.expertParallel(), i.redundantExperts(),
                    i.separateEngines());
        } catch (IllegalArgumentException e) {
            throw new Refused("inference", e.getMessage());
        }
        if (inventory.routedExperts() > 0 && t.ep() > inventory.routedExperts()) {
            throw new Refused("trainer.ep", "trainer ep " + t.ep() + " is more than the model's "
                    + inventory.routedExperts() + " routed experts");
        }
        if (inventory.routedExperts() > 0 && inventory.routedExperts() % t.ep() != 0) {
            throw new Refused("trainer.ep", "trainer ep " + t.ep() + " does not divide the model's "
                    + inventory.routedExperts() + " routed experts (Megatron gives each EP rank an equal share)");
        }
        if (inventory.routedExperts() == 0 && (t.ep() > 1 || i.expertParallel())) {
            throw new Refused(t.ep() > 1 ? "trainer.ep" : "inference.ep", inventory.name()
                    + " has no routed experts: expert parallelism does not apply");
        }
        try {
            trainer.firstLayer(1, inventory.layers());
        } catch (IllegalArgumentException e) {
            throw new Refused("trainer.pp", e.getMessage());
        }
        AttentionHeads heads = AttentionHeads.of(inventory);
        if (heads != null && heads.queryHeads() % t.tp() != 0) {
            throw new Refused("trainer.tp", "trainer tp " + t.tp() + " does not divide the " + heads.queryHeads()
                    + " attention heads");
        }
        if (heads != null && heads.kvHeads() % t.tp() != 0 && t.tp() % heads.kvHeads() != 0) {
            throw new Refused("trainer.tp", "trainer tp " + t.tp() + " and the " + heads.kvHeads()
                    + " KV heads must divide one another");
        }
        try {
            // which replica a byte several trainer ranks hold is read from (README Refit: ASSUMED spread)
            map = SliceMap.of(tensors, heads, trainer, inference, spec.inference().firstReplicaReads()
                    ? org.rdmasim.refit.layout.ReplicaChoice.FIRST : org.rdmasim.refit.layout.ReplicaChoice.SPREAD);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            // a refusal of the inference tp is placed at the tp a variant may have overridden, not at the base's map
            throw new Refused(m.startsWith("inference tp") || m.contains("divisible by inference tp") ? "inference.tp"
                    : m.startsWith("inference") || m.contains("inference rank") || m.contains("vocabulary")
                    ? "inference" : m.startsWith("expert parallel") ? "inference.ep" : "trainer", m);
        }
        return new Mapped(inventory, tensors, trainer, inference, map);
    }

    /**
     * Builds {@code spec} on hosts looked up by name (a group's hosts may share one shape), with
     * {@code NCCL_IB_HCA} unset.
     */
    public static RefitSetup of(RefitSpec spec, Function<String, Host> hosts) {
        return new RefitSetup(spec, hosts, NcclIbHca.unset(), 1);
    }

    /**
     * Builds {@code spec} on hosts looked up by name in the variant's environment {@code stack}: its
     * {@code NCCL_IB_HCA} ({@link #ncclIbHca}) restricts a broadcast's NICs. A list that leaves a broadcast host
     * none is a {@link org.rdmasim.transport.config.ConfigValueException} naming the variable and the line
     * that set it.
     */
    public static RefitSetup of(RefitSpec spec, Function<String, Host> hosts, StackProfile stack) {
        return new RefitSetup(spec, hosts, ncclIbHca(stack, hosts.apply(spec.inferenceHosts().get(0))),
                ucxMappedHcas(stack, hosts.apply(spec.trainerHosts().get(0))));
    }

    /**
     * The HCAs UCX maps a trainer GPU buffer on (its first GPU's process: UCX_NET_DEVICES after a NIC pin or NIXL's
     * device list, narrowed by UCX_MAX_HCA_PER_GPU, {@link org.rdmasim.memory.MemMapHcas#registeredOn}); 1 on a host
     * without GPUs. NIXL registers every buffer with {@code ucp_mem_map}, which maps it on every memory domain of
     * the context's registration map (openucx/ucx v1.20.0 src/ucp/core/ucp_mm.c, ucp_mem_map), so a scenario that
     * leaves {@code registrationHcas} out pays registration on each of them.
     */
    public static int ucxMappedHcas(StackProfile stack, Host trainerHost) {
        return trainerHost.gpus().isEmpty() ? 1
                : org.rdmasim.memory.MemMapHcas.registeredOn(stack, trainerHost, trainerHost.gpus().get(0));
    }

    /**
     * The HCAs each GPU buffer of {@code spec} is registered on: the scenario's {@code registrationHcas}, or when it
     * says none, as many as UCX maps ({@code ucxMapped}) for a method whose registrations go through UCX (those
     * riding UCX's lanes), else 1.
     */
    public static int registrationHcas(RefitSpec spec, int ucxMapped) {
        if (spec.registrationHcas() != RefitSpec.REGISTRATION_HCAS_AS_UCX_MAPS) {
            return spec.registrationHcas();
        }
        return spec.method().ridesUcxLanes(spec.knobs().hostReplica()) ? ucxMapped : 1;
    }

    /**
     * {@code NCCL_IB_HCA} as the variant's processes see it: the effective configuration of a GPU process
     * (the user's environment, the later of two settings winning; no other layer sets an NCCL variable), read
     * at the NCCL release the scenario names or rdmasim assumes ({@link StackProfile#ncclRelease}).
     */
    public static NcclIbHca ncclIbHca(StackProfile stack, Host host) {
        if (host.gpus().isEmpty()) {
            return NcclIbHca.unset();
        }
        return stack.configFor(host, host.gpus().get(0)).ncclIbHca(stack.ncclRelease());
    }

    private static int perHost(List<String> names, Function<String, Host> hosts) {
        return hosts.apply(names.get(0)).gpus().size();
    }

    private static int gpus(List<String> names, Function<String, Host> hosts) {
        int per = perHost(names, hosts);
        for (String n : names) {
            if (hosts.apply(n).gpus().size() != per) {
                throw new Refused("hosts", "host " + n + " has " + hosts.apply(n).gpus().size() + " GPUs, "
                        + names.get(0) + " " + per + ": a layout's hosts need the same number of GPUs");
            }
        }
        return per * names.size();
    }

    private RefitPlan plan(Function<String, Host> hosts) {
        List<Endpoint> trainerAt = place(spec.trainerHosts(), hosts, trainer.worldSize());
        List<Endpoint> inferenceAt = place(spec.inferenceHosts(), hosts, inference.worldSize());
        RefitSpec.Knobs k = spec.knobs();
        RefitMethod method = switch (spec.method()) {
            case RDMA_PULL -> k.hostReplica() ? RdmaPull.hostReplica(inference.separateEngines()
                    ? inference::tpRank : r -> r, replicaBuckets(bucket(k)), stageBytes(), ibHca) : k.treeChildren() > 0
                    ? RdmaPull.tree(k.treeChildren(), r -> r % inference.tp()) : RdmaPull.direct();
            case WRITE_SCHEDULE -> new WriteSchedule(bucket(k), k.doubleBuffered() ? 2 : 1,
                    k.receiverStaggered() ? WriteSchedule.Order.RECEIVER_STAGGERED : WriteSchedule.Order.SLICE_MAP);
            case NCCL_BROADCAST -> NcclBroadcast.of(new Buckets(bucket(k), k.doubleBuffered()), k.senders(), trainer.pp(),
                    ibHca);
            case CHECKPOINT_ENGINE -> {
                if (k.p2pRanks() > inference.worldSize()) {
                    throw new Refused("updateRanks", "updateRanks " + k.p2pRanks() + " is more than the inference "
                            + "layout's " + inference.worldSize() + " ranks");
                }
                if (!k.doubleBuffered()) {
                    throw new Refused("doubleBuffering", "checkpoint-engine always broadcasts from two halves of one "
                            + "buffer, in both its modes (torch.empty(bucket_size * 2), checkpoint_engine/ps.py L1215)");
                }
                yield new CheckpointEngine(new Buckets(bucket(k), k.doubleBuffered()), ibHca, k.p2pRanks());
            }
            case NCCL_P2P -> {
                // Which bytes go where is xferdtensor's own plan of each call (XferdtensorPlan): the FFN projections'
                // calls, or every parameter's in PR #2413's form, whose calls pay no Python fallback's host work.
                List<Tensor> sent = k.everyParameterShardToShard() ? tensors : shardToShard();
                if (inference.redundantExperts() > 0) {
                    // xferdtensor's regions are one box a rank (NVIDIA-NeMo/RL e40aa046e
                    // nemo_rl/weight_sync/xferdtensor_python.py:154-173, _rank_regions); EPLB's physical experts give
                    // a rank logical experts that are no one range of the stacked expert dimension
                    throw new Refused("inference.redundantExperts", "nccl-p2p plans each parameter as one region a "
                            + "rank (xferdtensor's _rank_regions), and redundant experts give an inference rank "
                            + "experts that are not one range; set redundantExperts: 0, or use a method that reads "
                            + "the slice map (rdma-pull)");
                }
                org.rdmasim.refit.layout.XferdtensorPlan xfer;
                try {
                    xfer = org.rdmasim.refit.layout.XferdtensorPlan.of(map,
                            org.rdmasim.refit.layout.XferdtensorPlan.parameters(sent, NcclP2p::parameterOf));
                } catch (IllegalArgumentException e) {
                    throw new Refused("method", "nccl-p2p: " + e.getMessage() + ", which xferdtensor's plan (one "
                            + "region a rank) cannot describe");
                }
                int calls = k.everyParameterShardToShard() ? 0
                        : NcclP2p.calls(sent.stream().map(Tensor::name).toList());
                yield NcclP2p.of(xfer, ibHca, moe(), calls);
            }
            case NIXL_RING -> {
                if (!k.doubleBuffered()) {
                    throw new Refused("doubleBuffering", "verl's NIXL engine always holds two bucket buffers, a "
                            + "send and a receive buffer (verl/checkpoint_engine/nixl_checkpoint_engine.py, prepare())");
                }
                yield NixlRing.of(bucket(k));
            }
            case MOONCAKE_RING -> {
                if (!k.doubleBuffered()) {
                    throw new Refused("doubleBuffering", "verl's Mooncake engine always holds two bucket buffers, "
                            + "the halves of one registered tensor (verl/checkpoint_engine/mooncake_checkpoint_engine.py)");
                }
                // the sender packs whole tensors and asserts each fits (mooncake_checkpoint_engine.py L205-207
                // @1dda039b); the NIXL engine splits a larger one into chunks (split_weight_chunks), so it has no
                // such limit
                Tensor largest = tensors.stream().max(java.util.Comparator.comparingLong(Tensor::bytes)).orElseThrow();
                if (bucket(k) < largest.bytes()) {
                    throw new Refused("bucket", "verl's Mooncake engine needs every tensor to fit its bucket "
                            + "(mooncake_checkpoint_engine.py: \"too large to fit in the bucket\"): " + largest.name()
                            + " holds " + largest.bytes() + " bytes, the bucket " + bucket(k));
                }
                yield NixlRing.mooncake(bucket(k));
            }
            case COLOCATED_IPC -> colocated(k);
            case SHARDED_RDT -> ShardedRdt.of(map, k.spareSlot());
        };
        RefitRegistrationMode mode = spec.registration();
        Registration registration = new Registration(mode, mode == RefitRegistrationMode.POOLED
                ? spec.poolSegments() : 0, spec.registrationCached(), registrationHcas, 2);
        RefitCalibration calibration = RefitCalibration.of(
                CalibrationProfile.forHost(hosts.apply(spec.trainerHosts().get(0)).spec()));
        for (Map.Entry<String, Double> e : new java.util.TreeMap<>(spec.stageSeconds()).entrySet()) {
            calibration = calibration.with(e.getKey(), e.getValue(), CalibrationProfile.Kind.ASSUMED,
                    "stated by the scenario");
        }
        long whole = 0;
        for (Tensor t : tensors) {
            whole = Math.addExact(whole, t.bytes());
        }
        Preparation preparation = preparation(whole);
        boolean replicaGathers = spec.method() == RefitMethodKind.RDMA_PULL && spec.knobs().hostReplica();
        if ((spec.method() == RefitMethodKind.NCCL_BROADCAST || replicaGathers) && !spec.trainer().fsdp()) {
            // a Megatron trainer gathers each bucket to its sender over the TP and EP groups (ShardGather; in miles'
            // P2P update every rank of the stage, RdmaPull); BF16 weights quantised to FP8 after the gather move two
            // bytes for each one sent
            double heldPerByte = preparation.gatherPerByte();
            long[] dense = new long[trainer.pp()];
            long[] expert = new long[trainer.pp()];
            for (Tensor t : tensors) {
                int stage = stageOf(t);
                if (!t.role().isExpert()) {
                    dense[stage] = Math.addExact(dense[stage], t.bytes());
                } else {
                    expert[stage] = Math.addExact(expert[stage], t.bytes());
                }
            }
            if (spec.method() == RefitMethodKind.NCCL_BROADCAST && spec.knobs().senders().rankZeroAlone()) {
                // one sender, trainer rank 0, exports the whole model through Megatron-Bridge (SkyRL's Megatron
                // worker): every bucket is first broadcast from its pipeline stage over the PP groups
                List<ShardGather.StageBytes> stages = new ArrayList<>();
                for (int s = 0; s < trainer.pp(); s++) {
                    stages.add(new ShardGather.StageBytes(dense[s], expert[s]));
                }
                preparation = preparation.withShardGather(ShardGather.exported(trainer, stages, heldPerByte));
            } else {
                preparation = preparation.withShardGather(new ShardGather(trainer,
                        java.util.Arrays.stream(dense).sum(), heldPerByte));
            }
        }
        // a broadcast and the rings hand every inference rank the whole model, and each rank's engine loads every
        // tensor of it
        boolean wholeModel = switch (spec.method()) {
            case NCCL_BROADCAST, CHECKPOINT_ENGINE, NIXL_RING, MOONCAKE_RING -> true;
            case RDMA_PULL, WRITE_SCHEDULE, COLOCATED_IPC, NCCL_P2P, SHARDED_RDT -> false;
        };
        // NeMo-RL's shard-to-shard refit broadcasts the parameters other than FFN projections from trainer rank 0
        long broadcastBytes = wholeModel ? whole : 0;
        long broadcastTensors = wholeModel ? tensors.size() : 0;
        if (method instanceof NcclP2p && !spec.knobs().everyParameterShardToShard()) {
            for (Tensor t : tensors) {
                if (!NcclP2p.shardToShard(t.name())) {
                    broadcastBytes = Math.addExact(broadcastBytes, t.bytes());
                    broadcastTensors++;
                }
            }
        }
        if (spec.method().readsNcclIbHca() && ibHca.restricts()) {
            // every host a broadcast crosses needs a NIC the list leaves: said now, at the line that set it
            Set<Object> shapes = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (String name : new java.util.LinkedHashSet<>(concat(spec.trainerHosts(), spec.inferenceHosts()))) {
                Host h = hosts.apply(name);
                if (!shapes.add(h.spec())) {
                    continue; // a host group's hosts share one shape and so one answer
                }
                List<String> nics = h.nics().stream().map(TopologyNode::name).toList();
                ibHca.gpuNics(name, nics, h.listedOnlyNics());
                for (String w : ibHca.resolve(nics).warnings()) {
                    ibHcaWarnings.add(w.replace("this host", "host " + name));
                }
            }
        }
        if (method instanceof CheckpointEngine ce && ce.p2p()) {
            // the P2P store opens one RDMA device for each group of GPUs (checkpoint_engine/ps.py
            // _get_my_rdma_device, CheckpointUpdate.device) on every host holding a sending trainer rank or an updated
            // inference rank: a host whose devices do not split over its GPUs stops the update, said now at the
            // field or variable that decides it rather than as the variant's failure
            java.util.TreeSet<Integer> senders = new java.util.TreeSet<>();
            java.util.TreeSet<Integer> receivers = new java.util.TreeSet<>();
            for (SliceRoute r : map.routes()) {
                senders.add(r.trainerRank());
                receivers.add(r.inferenceRank());
            }
            Set<String> names = new java.util.LinkedHashSet<>();
            senders.forEach(t -> names.add(trainerAt.get(t).host()));
            receivers.stream().limit(ce.p2pRanks()).forEach(i -> names.add(inferenceAt.get(i).host()));
            for (String name : names) {
                String problem = CheckpointEngine.p2pDevicesProblem(hosts.apply(name), ibHca);
                if (problem != null) {
                    if (ibHca.restricts()) {
                        throw ibHca.refused("a list that leaves every host of the P2P update devices it can split over "
                                + "its GPUs (" + CheckpointEngine.P2P_DEVICES_RULE + "): with it " + problem);
                    }
                    throw new Refused("mode", problem + " (its compute NICs, NCCL_IB_HCA unset): "
                            + CheckpointEngine.P2P_DEVICES_RULE + "; name such devices in NCCL_IB_HCA, or use mode: "
                            + "broadcast");
                }
            }
        }
        if (method instanceof RdmaPull p && p.hostReplica()) {
            // the source's own plan: each stage's all-gathered ranks send whole engine-rank slices
            List<SliceRoute> routes = ReplicaRoutes.of(map.routes(), trainer, inference);
            return new RefitPlan(routes, trainerAt::get, inferenceAt::get, 0, method, preparation, registration,
                    calibration, spec.cycles(), RankBuffers.perRoute(routes), 0);
        }
        return new RefitPlan(map.routes(), trainerAt::get, inferenceAt::get, broadcastBytes, method, preparation,
                registration, calibration, spec.cycles(), RankBuffers.of(map), broadcastTensors,
                spec.knobs().verlManager(), reworkedAfterEachLoad(spec.inference().engine(), inventory, tensors));
    }

    /**
     * Tensors the inference engine reworks after every load_weights call, whatever the call carried: SGLang's
     * GLM-4.7-Flash class splits every layer's {@code kv_b_proj} again ({@code BroadcastOrder.loadWeights} cites
     * it); 0 for every other engine and model (SGLang's DeepSeek classes rework only the layers a call carried), or
     * when the scenario does not name its engine.
     */
    static long reworkedAfterEachLoad(org.rdmasim.workload.InferenceEngine engine, ModelInventory model,
            List<Tensor> loaded) {
        if (engine != org.rdmasim.workload.InferenceEngine.SGLANG
                || !model.architecture().filter("Glm4MoeLiteForCausalLM"::equals).isPresent()) {
            return 0;
        }
        return loaded.stream().filter(t -> t.name().endsWith("kv_b_proj.weight")).count();
    }

    /**
     * A colocated refit: each engine rank sits on a trainer rank's GPU (rank r of both on the same GPU, as slime
     * maps an engine's GPUs onto the trainer ranks of the same offsets), so the engine needs no more ranks than the
     * trainer; the model's tensors are packed into buckets of {@code bucket} (slime's 512 MiB when unset).
     */
    private ColocatedIpc colocated(RefitSpec.Knobs k) {
        if (!spec.inferenceHosts().equals(spec.trainerHosts())) {
            throw new Refused("inference.hosts", "colocated-ipc runs trainer and engine on the same GPUs: the inference "
                    + "hosts must be the trainer's");
        }
        if (inference.worldSize() > trainer.worldSize()) {
            throw new Refused("inference", "colocated-ipc places each engine rank on a trainer rank's GPU: the "
                    + "inference layout has " + inference.worldSize() + " ranks and the trainer " + trainer.worldSize());
        }
        long bucket = k.bucketBytes() > 0 ? k.bucketBytes() : ColocatedIpc.SLIME_DEFAULT_BUCKET;
        return new ColocatedIpc(ColocatedIpc.pack(tensors, bucket), k.doubleBuffered() ? 2 : 1, k.hostBounce(),
                k.perTensorHandles());
    }

    /**
     * The buckets each trainer rank's stage is gathered in for miles' P2P update: the stage's bytes (its decoder
     * layers; the embedding on the first stage, the other model-level tensors on the last, as Megatron places them)
     * over {@code update_weight_buffer_size}, rounded up. miles fills a bucket to that size with all-gathered
     * tensors (its non-expert loop) or with tensors whose EP-gathered size reaches it (its expert loop, the
     * threshold times EP size: {@code DistBucketedWeightUpdateMixin}, radixark/miles update_weight_from_distributed/
     * mixin.py L35-92 at 9a6fc9e6), so either way a bucket holds about that many gathered bytes.
     */
    private java.util.function.IntUnaryOperator replicaBuckets(long bucket) {
        long[] stageBytes = new long[trainer.pp()];
        for (Tensor t : tensors) {
            int stage = stageOf(t);
            stageBytes[stage] = Math.addExact(stageBytes[stage], t.bytes());
        }
        int columns = trainer.worldSize() / trainer.pp();
        return rank -> (int) Math.max(1, (stageBytes[rank / columns] + bucket - 1) / bucket);
    }

    /** Each pipeline stage's payload, its non-expert bytes then its routed experts', in stage order. */
    private List<ShardGather.StageBytes> stageBytes() {
        long[] dense = new long[trainer.pp()];
        long[] expert = new long[trainer.pp()];
        for (Tensor t : tensors) {
            int stage = stageOf(t);
            if (t.role().isExpert()) {
                expert[stage] = Math.addExact(expert[stage], t.bytes());
            } else {
                dense[stage] = Math.addExact(dense[stage], t.bytes());
            }
        }
        List<ShardGather.StageBytes> out = new ArrayList<>();
        for (int s = 0; s < trainer.pp(); s++) {
            out.add(new ShardGather.StageBytes(dense[s], expert[s]));
        }
        return out;
    }

    /**
     * The pipeline stage holding {@code t}: its decoder layer's; the embedding on the first stage, the other
     * model-level tensors on the last, as Megatron places them.
     */
    private int stageOf(Tensor t) {
        return t.layer() >= 0 ? trainer.stageOf(t.layer(), inventory.layers())
                : t.role() == TensorRole.VOCAB_EMBEDDING ? 0 : trainer.pp() - 1;
    }

    /**
     * Which inference ranks hold one shard for nccl-p2p: ranks of one TP rank in separate engines, or in one engine
     * of a dense model; null where none do (inside one engine an MoE model's expert layers spread over every rank).
     */
    /** The parameters NeMo-RL's refit sends shard to shard (FFN projections); refused when the model names none. */
    private List<Tensor> shardToShard() {
        List<Tensor> ffn = tensors.stream().filter(t -> NcclP2p.shardToShard(t.name())).toList();
        if (ffn.isEmpty()) {
            throw new Refused("method", "nccl-p2p sends FFN projections shard to shard, and this model names none "
                    + "(gate_proj, up_proj, down_proj)");
        }
        return ffn;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /**
     * Events a run may fire: rdmasim's run limit ({@code org.rdmasim.run.RunBudget.MAX_EVENTS}, 10^8, over a quarter
     * of an hour at the 100,000 events a second the user path reaches), restated here below that package.
     */
    static final long RUN_EVENT_LIMIT = 100_000_000L;

    /**
     * Events one bucket fires in a cycle at the least: its call, the start and end of its bytes on the wire, its
     * load (a 1 MiB-bucket refit of Llama-3.1-8B fired 24 a bucket a cycle on average, {@code bench --scenario}).
     */
    static final int EVENTS_PER_BUCKET = 4;

    private long bucket(RefitSpec.Knobs k) {
        if (k.bucketBytes() < 1) {
            throw new Refused("bucket", "this method sends in buckets: give bucket: SIZE");
        }
        // every method moves the model's bytes at least once a cycle, in pieces no larger than a bucket; a bucket
        // written without its unit (bucket: 1024, bytes) cuts it into millions and would run for hours
        long whole = 0;
        for (Tensor t : tensors) {
            whole = Math.addExact(whole, t.bytes());
        }
        long buckets = (whole + k.bucketBytes() - 1) / k.bucketBytes();
        double events = (double) buckets * spec.cycles() * EVENTS_PER_BUCKET;
        if (events > RUN_EVENT_LIMIT) {
            throw new Refused("bucket", String.format(Locale.ROOT, "a bucket of %s cuts the model's %,d bytes into "
                    + "%,d buckets a cycle: over %d cycle(s) at least %,.0f events, over rdmasim's run limit of %,d "
                    + "(over a quarter of an hour); a bucket is a size with its unit, such as 1 GiB or 256 MiB (a bare "
                    + "number is bytes)", Units.sizeAsWritten(k.bucketBytes(), " "), whole, buckets, spec.cycles(),
                    events, RUN_EVENT_LIMIT));
        }
        return k.bucketBytes();
    }

    /**
     * The trainer's work on what it sends: the FSDP gather (over dp when fsdp), a cast from the dtype the trainer
     * holds (verl's FSDP engine builds its model in FP32 unless told otherwise: {@code model_dtype: str = "fp32"},
     * verl-project/verl verl/workers/config/engine.py L171 @6f33c553b; each gathered tensor is then cast to the
     * rollout's BF16 before it is packed, verl/checkpoint_engine/nccl_checkpoint_engine.py L227 @6f33c553b) or a
     * quantisation to FP8, and, for shards offloaded to host memory, their size a rank in the trainer's dtype.
     */
    private Preparation preparation(long whole) {
        RefitSpec.Trainer t = spec.trainer();
        int gather = t.fsdp() ? t.dp() : 1;
        Preparation base = quantises() ? Preparation.bf16ToFp8(gather) : new Preparation(gather, 0, 0);
        long held = whole;
        if (t.dtype() != null) {
            int perElement = t.dtype().equals("fp32") ? DType.FP32.bytesPerElement() : DType.BF16.bytesPerElement();
            held = 0;
            for (Tensor x : tensors) {
                held = Math.addExact(held, Math.multiplyExact(x.elements(), (long) perElement));
            }
        }
        if (held != whole) {
            if (quantises()) {
                throw new Refused("trainer.dtype", "a trainer holding " + t.dtype() + " that also quantises to FP8 "
                        + "is not modelled: leave trainer.dtype unset for the BF16 weights the quantiser reads");
            }
            if (whole < 1) {
                throw new Refused("trainer.dtype", "the model has no bytes to cast");
            }
            double perByte = held / (double) whole;
            // the cast reads the trainer's bytes and writes each byte sent once
            base = new Preparation(gather, perByte, perByte, 1, 0);
        }
        if (t.offloaded()) {
            if (gather < 2) {
                throw new Refused("trainer.offload", "offloaded shards need an FSDP group of at least two ranks "
                        + "(fsdp: true, dp >= 2)");
            }
            base = base.withOffloadedShards(Math.max(1, held / t.ranks()));
        }
        // an FSDP group is a rank's data-parallel peers: tp x cp ranks apart in Megatron's order
        return t.fsdp() ? base.withGatherStride(t.tp() * t.cp()) : base;
    }

    /** The model has routed experts. */
    private boolean moe() {
        return tensors.stream().anyMatch(t -> t.role().isExpert());
    }

    /** Inference loads FP8 from a checkpoint that is not: the trainer quantises before sending. */
    private boolean quantises() {
        if (!"fp8".equals(spec.inferenceDtype())) {
            return false;
        }
        for (Tensor t : inventory.tensors()) {
            if (t.dtype() == DType.FP8_E4M3) {
                return false;
            }
        }
        return true;
    }

    private static List<Endpoint> place(List<String> names, Function<String, Host> hosts, int ranks) {
        List<Endpoint> out = new ArrayList<>(ranks);
        int per = perHost(names, hosts);
        List<TopologyNode> gpus = hosts.apply(names.get(0)).gpus();
        for (int r = 0; r < ranks; r++) {
            out.add(new Endpoint(names.get(r / per), gpus.get(r % per).name()));
        }
        return out;
    }

    /**
     * The tensors in the dtype inference loads: {@code fp8} makes every linear weight (attention, MLP, expert
     * projections; not embeddings, norms or routers, which DeepSeek-V3's FP8 checkpoint keeps in BF16) FP8 E4M3
     * with an FP32 {@code weight_scale_inv} of 128 x 128 blocks; {@code bf16} makes FP8 weights BF16 and drops
     * their scales; null keeps the checkpoint's.
     */
    static List<Tensor> converted(List<Tensor> tensors, String dtype) {
        if (dtype == null) {
            return tensors;
        }
        List<Tensor> out = new ArrayList<>(tensors.size() * 2);
        for (Tensor t : tensors) {
            boolean linear = t.shape().size() == 2 && switch (t.role()) {
                case ATTN_Q, ATTN_KV, COLUMN, ROW, EXPERT_COLUMN, EXPERT_ROW -> true;
                default -> false;
            };
            switch (dtype) {
                case "fp8" -> {
                    if (t.scaleOf() != null || t.dtype() == DType.FP8_E4M3 || !linear) {
                        out.add(t);
                    } else {
                        long rows = t.shape().get(0);
                        long cols = t.shape().get(1);
                        out.add(new Tensor(t.name(), t.shape(), DType.FP8_E4M3, t.role(), t.layer(), t.expert()));
                        out.add(new Tensor(t.name() + "_scale_inv", List.of(ceil(rows), ceil(cols)), DType.FP32,
                                t.role(), t.layer(), t.expert(), t.name()));
                    }
                }
                case "bf16" -> {
                    if (t.scaleOf() == null) {
                        out.add(t.dtype() == DType.FP8_E4M3 ? new Tensor(t.name(), t.shape(), DType.BF16, t.role(),
                                t.layer(), t.expert()) : t);
                    }
                }
                default -> throw new Refused("dtype", "expected fp8 or bf16, got '" + dtype + "'");
            }
        }
        return out;
    }

    private static long ceil(long n) {
        return (n + FP8_BLOCK - 1) / FP8_BLOCK;
    }

    /** The model file's name (a path would tie the outputs to the folder they were run in). */
    public String modelName() {
        return String.valueOf(spec.model().getFileName());
    }

    public RefitPlan plan() {
        return plan;
    }

    public SliceMap map() {
        return map;
    }

    public ModelInventory inventory() {
        return inventory;
    }

    public TrainerLayout trainer() {
        return trainer;
    }

    public InferenceLayout inference() {
        return inference;
    }

    /** Whether every inference rank receives exactly what its layout needs. */
    public boolean conserved() {
        for (int r = 0; r < inference.worldSize(); r++) {
            if (map.receivedBytes(r) != map.neededBytes(r)) {
                return false;
            }
        }
        return true;
    }

    /** The plan as {@code explain} prints it and summary.json keeps it: one fact a line. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        long bytes = 0;
        for (Tensor t : tensors) {
            bytes += t.bytes();
        }
        out.add(String.format(Locale.ROOT, "model %s: %,d parameters, %,d tensors, %,d bytes as inference loads them%s",
                modelName(), inventory.parameters(), tensors.size(), bytes,
                spec.inferenceDtype() == null ? "" : " (" + spec.inferenceDtype() + ")"));
        RefitSpec.Trainer t = spec.trainer();
        out.add(String.format(Locale.ROOT, "trainer tp %d pp %d ep %d etp %d cp %d dp %d%s: %,d ranks on %s",
                t.tp(), t.pp(), t.ep(), t.etp(), t.cp(), t.dp(), t.fsdp() ? " fsdp" : "", trainer.worldSize(),
                holding(spec.trainerHosts(), plan.trainer(), trainer.worldSize())));
        out.add(String.format(Locale.ROOT, "inference %s: %,d ranks on %s", inference, inference.worldSize(),
                holding(spec.inferenceHosts(), plan.inference(), inference.worldSize())));
        long runs = 0;
        for (SliceRoute r : map.routes()) {
            runs += r.runs();
        }
        out.add(String.format(Locale.ROOT, "slice map: %,d routes (trainer rank -> inference rank), %,d bytes, "
                + "%,d contiguous runs (descriptors), %,d of %,d tensor copies over ModelExpress' %d-segment budget",
                map.routes().size(), map.totalBytes(), runs, map.copiesOverSegmentBudget(), map.copies(),
                SliceMap.SEGMENTS_PER_COPY));
        RefitSpec.Knobs k = spec.knobs();
        String knobs = switch (spec.method()) {
            case RDMA_PULL -> k.hostReplica() ? String.format(Locale.ROOT, "host replica: %,d routes from the "
                    + "senders of miles' plan, each engine rank loaded into the sender's CPU replica (a copy down from "
                    + "its GPU), then RDMA-WRITTEN from host memory", plan.routes().size())
                    : (k.treeChildren() > 0 ? "tree fan-out " + k.treeChildren() : "direct")
                            + (spec.inference().firstReplicaReads()
                                    ? "; a byte several trainer ranks hold read from the first replica (ModelExpress' "
                                            + "default)"
                                    : "; a byte several trainer ranks hold read from the replica at the inference "
                                            + "rank modulo the replicas (ASSUMED: ModelExpress' opt-in rotation; "
                                            + "replicaReads: first for its default)");
            case NCCL_BROADCAST -> describe(k.senders()) + ", bucket " + Units.sizeAsWritten(k.bucketBytes(), " ") + (k.doubleBuffered() ? ", double-buffered" : "");
            case COLOCATED_IPC -> ((ColocatedIpc) plan.method()).describe();
            case SHARDED_RDT -> "a pull per gather group and expert coordinate from one producer, "
                    + (k.spareSlot() ? "a spare receive slot" : "two receive slots");
            case NCCL_P2P -> ((NcclP2p) plan.method()).describe()
                    + (k.everyParameterShardToShard() ? ", every parameter shard to shard" : "");
            case WRITE_SCHEDULE, CHECKPOINT_ENGINE, NIXL_RING, MOONCAKE_RING -> "bucket " + Units.sizeAsWritten(k.bucketBytes(), " ")
                    + (k.doubleBuffered() ? ", double-buffered" : "")
                    + (k.p2pRanks() > 0 ? ", P2P update of inference ranks 0-" + (k.p2pRanks() - 1) + " (each "
                            + "receiver an RDMA READ from the owners' host memory, then a broadcast among them)" : "");
        };
        if (spec.method().readsNcclIbHca() && ibHca.restricts()) {
            knobs += ", NCCL_IB_HCA=" + ibHca;
        }
        out.add("method " + spec.method().spelling() + " (" + knobs + "), " + spec.cycles() + " cycle(s)");
        if (spec.method() == RefitMethodKind.NCCL_P2P && plan.broadcastBytes() > 0) {
            out.add(String.format(Locale.ROOT, "misc parameters (all but FFN projections): %,d tensors, %,d bytes, "
                    + "broadcast from trainer rank 0 to every inference rank in packed buffers after the FFN path, "
                    + "each rank loading them through load_weights", plan.broadcastTensors(), plan.broadcastBytes()));
        }
        out.addAll(ibHcaWarnings);
        if (spec.method() == RefitMethodKind.COLOCATED_IPC) {
            out.add("registration: none (no NIC touches the bytes: the engine opens CUDA IPC handles on its own GPU)");
            out.add("preparation: each trainer rank gathers the full tensors of every bucket over NVLink (the part of "
                    + "the model it does not hold) and flattens the bucket in HBM");
            out.add("stages: pause, gather (NVLink), convert (flatten), host copy (the bounce, if any), dispatch (a "
                    + "bucket's call), install (handle opens, load_weights per tensor, the copy), barrier, resume");
            return out;
        }
        Registration g = plan.registration();
        out.add("registration " + spec.registration().spelling() + (g.mode() == RefitRegistrationMode.POOLED
                ? " (" + g.poolSegments() + " segments)" : "") + ", "
                + (g.cached() ? "cached after the first cycle" : "every cycle") + ", " + g.hcasPerGpu()
                + " HCA(s) per GPU" + (spec.registrationHcas() == RefitSpec.REGISTRATION_HCAS_AS_UCX_MAPS
                        && spec.method().ridesUcxLanes(spec.knobs().hostReplica())
                        ? " (as UCX maps a trainer GPU buffer: registrationHcas not set)" : ""));
        Preparation p = plan.preparation();
        out.add("preparation: gather over " + p.gatherGroup() + " rank(s), conversion reads " + p.readPerByte()
                + " and writes " + p.writePerByte() + " HBM bytes per byte sent"
                + (p.gatherPerByte() != 1 ? "; the gather moves " + p.gatherPerByte() + " trainer bytes ("
                        // unset: the checkpoint's BF16, which the trainer quantises to FP8 (preparation() refuses a
                        // stated trainer dtype beside the quantisation)
                        + (spec.trainer().dtype() != null ? spec.trainer().dtype() : "bf16, the checkpoint's")
                        + ") per byte sent" : "")
                + (p.offloaded() ? String.format(Locale.ROOT, "; each trainer rank's shard (%,d bytes) sits in host "
                        + "memory and is copied to its GPU, all-gathered and cloned before the first bucket (an FSDP1 "
                        + "sharded state_dict)", p.offloadedShardBytes()) : "")
                + (p.shardGather().gathers() ? "; each bucket is first all-gathered to its sender over the sender's "
                        + "Megatron groups (non-expert bytes over TP " + trainer.tp() + ", expert bytes over expert-TP "
                        + trainer.etp() + " then EP " + trainer.ep() + "), rings over NVLink and the fabric" : ""));
        out.add(spec.method() == RefitMethodKind.SHARDED_RDT
                ? "stages: pause, register, gather (a group at a time, two ahead), convert, dispatch (the producers' "
                        + "produce calls), wire, install (each pull's scatter wait), barrier, resume"
                : spec.method() == RefitMethodKind.CHECKPOINT_ENGINE
                ? "stages: pause, register, gather, convert, host copy, dispatch (a broadcast bucket's fixed cost), "
                        + "wire, install, update end (gc, barrier, group teardown), barrier, resume"
                : "stages: pause, register, gather, convert, host copy, dispatch (a broadcast bucket's fixed cost), "
                        + "wire, install, barrier, resume");
        return out;
    }

    /** A broadcast's senders as the plan's summary names them. */
    private String describe(Senders senders) {
        if (senders instanceof Senders.StageHeads) {
            return "from the head of each of " + trainer.pp() + " pipeline stage(s), one bucket at a time from its call "
                    + "through the engines' load (the engines' lock)";
        }
        int count = ((Senders.Ranks) senders).count();
        return senders.all() ? "all trainer ranks striped" : senders.rankZeroAlone() ? "from trainer rank 0"
                : count + " trainer ranks striped";
    }

    /** The hosts of {@code group} that hold one of {@code ranks} ranks placed at {@code at}, and of how many. */
    private static String holding(List<String> group, java.util.function.IntFunction<Endpoint> at, int ranks) {
        java.util.LinkedHashSet<String> used = new java.util.LinkedHashSet<>();
        for (int r = 0; r < ranks; r++) {
            used.add(at.apply(r).host());
        }
        if (used.size() == group.size()) {
            return hostRange(group);
        }
        List<String> names = new ArrayList<>(used);
        // ranks fill the group's hosts in order, so those holding one are its first
        return (names.size() == 1 ? names.get(0) : names.get(0) + " .. " + names.get(names.size() - 1)) + " ("
                + names.size() + " of the group's " + group.size() + " hosts)";
    }

    private static String hostRange(List<String> names) {
        return names.size() == 1 ? names.get(0) : names.get(0) + " .. " + names.get(names.size() - 1) + " ("
                + names.size() + " hosts)";
    }
}
