package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.refit.layout.XferdtensorPlan;
import org.rdmasim.refit.layout.XferdtensorPlan.ReplicaFill;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.config.NcclIbHca;

/**
 * NCCL send/recv of the slice map, shard to shard, as NeMo-RL's {@code nccl_reshard} refit runs it through
 * {@code xferdtensor_python_impl} (NVIDIA-NeMo/RL {@code nemo_rl/weight_sync/xferdtensor_python.py} at the merge
 * of PR #2971, e40aa046e): every trainer rank sends the part of its own shard each inference rank needs, no
 * rank gathers a full tensor.
 * <ul>
 *   <li>Trainer side: in an MoE model each rank stacks its local experts of a projection into one tensor
 *       fresh every refit ({@code torch.stack}, {@code megatron_policy_worker.py} L2445) and sends it as is
 *       ({@code nccl_reshard_refit}, L2479-2541): priced as one HBM copy of the shard the rank holds of the
 *       tensors it sends, after the plan's preparation of the same bytes.</li>
 *   <li>Wire: the overlaps go as one NCCL group of sends and receives ({@code _exchange_exact_overlaps},
 *       {@code xferdtensor_python.py} L570-601) over the communicator of the sender's PP stage, which spans
 *       that stage's trainer ranks and every inference rank; a pair's bytes cross the fabric through the NIC
 *       NCCL picks for each GPU ({@link WireContext#send}).</li>
 *   <li>Which bytes go where: xferdtensor's own plan, parameter by parameter ({@link XferdtensorPlan}). A parameter
 *       with inference replicas (ranks needing the same region) is cut along dim 0 into one stripe per replica,
 *       each stripe sent from the trainer shards over it, the holders of a region taking turns, then the replicas
 *       all-gather their stripes ({@code _allgather_destination}, L932-957): NCCL's ring all-gather, where every
 *       link of the ring carries all stripes but one, so a group spread over two hosts sends n - 1 stripes through
 *       each host's NICs, where side-by-side broadcasts of each stripe would send n/2. A parameter the striped plan
 *       cannot cut goes whole to one replica of each group, from the first holder of each byte, and is broadcast
 *       among the replicas ({@code _broadcast_destination}, L604-620); with no replicas that is every
 *       parameter's plan.</li>
 *   <li>Install: the gate and up projections land in a temporary and are copied into vLLM's fused
 *       {@code w13} ({@code _merged_param_spec}, {@code vllm_backend.py} L811-817); the down projection lands
 *       in place. Of an FFN's three equal projections two are copied: an HBM copy of 2/3 of the bytes a rank
 *       received.</li>
 * </ul>
 * Every call is one parameter, issued in order on one CUDA stream per rank, receive then all-gather (or
 * broadcast), so a rank's stages follow one another: with equal rates, the wire time of all P2P phases then all
 * all-gathers and broadcasts is the same as alternating them parameter by parameter. Only FFN projections take this path
 * ({@code is_nccl_reshard_param}, {@code nccl_reshard_utils.py} L184-199: names ending in {@code gate_proj.weight},
 * {@code up_proj.weight}, {@code down_proj.weight} or a grouped expert projection, shared experts excepted).
 * The rest, the "misc" parameters (attention, norms, routers, embeddings, shared experts: 5% of Qwen3-30B-A3B's
 * bytes by PR #2971's table), follow once every rank's FFN parameters are in ({@code vllm_backend.py}
 * L1039-1043): trainer rank 0 packs them into buffers of 2% of the GPU's memory, at most 5 GiB, two in turn
 * ({@code packed_broadcast_producer}, {@code nemo_rl/utils/packed_tensor.py} L23-35, L39-103), broadcasts each to
 * every inference rank, and each rank hands the unpacked tensors to vLLM's {@code load_weights}
 * ({@code _receive_and_load_misc_params}, L1072-1090): one call per tensor ({@link RefitCalibration#LOAD_TENSOR})
 * and the copy. The plan carries them as its broadcast bytes and tensors. Between the two, every inference rank
 * pays the host work of its FFN parameters' {@code xferdtensor} calls, one after another ({@code calls} of them,
 * {@link RefitCalibration#RESHARD_CALL}, calibrated on one row of PR #2971): the fit takes in whatever else that
 * row's time holds and the model does not price (Megatron's export of each misc parameter, vLLM's
 * {@code process_weights_after_loading}). Every PP stage's sends run at once; the receivers overlap at most {@code NRL_REFIT_NUM_STREAMS}
 * (default 2) stages ({@code vllm_backend.py} L1018-1036), which only a trainer of more than two stages would
 * feel. NCCL stages through its own buffers registered when the communicator is made, so no registration is
 * paid.
 *
 * @param ibHca          {@code NCCL_IB_HCA} in the variant's environment: the NICs NCCL may use on each host
 * @param stacksExperts  the model has routed experts, which each trainer rank stacks before sending (a dense
 *                       model's shards go as they are)
 * @param bulk           the point-to-point routes of the parameters that go shard to shard (the FFN projections'
 *                       alone, the rest being the plan's broadcast, or every parameter's); {@code null}: the plan's
 *                       own routes, sent as they are
 * @param fills          what each group of inference replicas does after its point-to-point bytes are in
 * @param calls          the {@code xferdtensor} calls through the Python fallback each inference rank makes, one per
 *                       FFN parameter (an MoE layer's experts of one projection are one); 0 for the every-parameter
 *                       form, which poses PR #2413's transfer, older than the fallback
 * @param planned        how many calls the plan cut, and how ({@code null}: not from a plan, as with given routes)
 */
public record NcclP2p(NcclIbHca ibHca, boolean stacksExperts, List<SliceRoute> bulk, List<ReplicaFill> fills,
        int calls, XferdtensorPlan.Tally planned) implements RefitMethod {
    /** Of an FFN's gate, up and down projections (equal sizes), the two vLLM fuses into w13 and copies back. */
    static final double COPIED_BACK = 2.0 / 3.0;

    /** Endings of the parameter names that take the shard-to-shard path ({@code nccl_reshard_utils.py} L170-182). */
    private static final List<String> BULK_SUFFIXES = List.of("gate_proj.weight", "up_proj.weight", "down_proj.weight",
            "experts.gate_up_proj", "experts.down_proj");
    /** One expert's projection: its layer's experts of that projection are one xferdtensor parameter. */
    private static final java.util.regex.Pattern EXPERT = java.util.regex.Pattern.compile(
            "^(.+\\.experts)\\.\\d+\\.(gate_proj|up_proj|down_proj)\\.weight$");
    /** The packed buffer: {@code NRL_REFIT_BUFFER_MEMORY_RATIO} 0.02 of the GPU's memory, at most 5 GiB. */
    static final double PACKED_MEMORY_RATIO = 0.02;
    static final long PACKED_MAX_BYTES = 5L * 1024 * 1024 * 1024;
    /** {@code NRL_REFIT_NUM_BUFFERS} default: two packed buffers in turn. */
    static final int PACKED_BUFFERS = 2;

    public NcclP2p {
        if (ibHca == null) {
            throw new IllegalArgumentException("NCCL send/recv needs its NCCL_IB_HCA (NcclIbHca.unset() when not set)");
        }
        if (calls < 0) {
            throw new IllegalArgumentException("xferdtensor calls must be >= 0, got " + calls);
        }
        bulk = bulk == null ? null : List.copyOf(bulk);
        fills = List.copyOf(fills);
    }

    /** Every route of the plan goes shard to shard as it is (no replicas, no misc parameters apart, no per-call cost). */
    public NcclP2p(NcclIbHca ibHca, boolean stacksExperts) {
        this(ibHca, stacksExperts, null, List.of(), 0, null);
    }

    /** xferdtensor's plan of {@code plan}'s parameters, with {@code calls} calls' host work. */
    public static NcclP2p of(XferdtensorPlan plan, NcclIbHca ibHca, boolean stacksExperts, int calls) {
        return new NcclP2p(ibHca, stacksExperts, plan.routes(), plan.fills(), calls, plan.tally());
    }

    /**
     * The xferdtensor calls each inference rank makes for {@code names}, the FFN parameters that go shard to shard:
     * one per parameter, an MoE layer's experts of one projection grouped into one
     * ({@code group_expert_params_in_metadata}, NVIDIA-NeMo/RL e40aa046e
     * {@code nemo_rl/weight_sync/nccl_reshard_utils.py} L381-455,
     * which groups names matching {@code (.+\.experts)\.(\d+)\.(gate_proj|up_proj|down_proj)\.weight$}, L376-378).
     */
    public static int calls(List<String> names) {
        java.util.Set<String> grouped = new java.util.HashSet<>();
        for (String n : names) {
            grouped.add(parameterOf(n));
        }
        return grouped.size();
    }

    /** The xferdtensor parameter a tensor is sent in: its own name, or its layer's experts of its projection. */
    public static String parameterOf(String name) {
        return EXPERT.matcher(name).replaceFirst("$1.$2.weight");
    }

    /** Whether the parameter named {@code name} takes the shard-to-shard path ({@code is_nccl_reshard_param}). */
    public static boolean shardToShard(String name) {
        if (name.contains("shared_expert")) {
            return false;
        }
        for (String s : BULK_SUFFIXES) {
            if (name.endsWith(s)) {
                return true;
            }
        }
        return false;
    }

    private List<SliceRoute> routes(WireContext ctx) {
        return bulk != null ? bulk : ctx.plan().routes();
    }

    /** Bytes inference rank {@code rank} ends with shard to shard. */
    private long need(WireContext ctx, int rank) {
        return bulk == null ? ctx.bytesTo(rank) : shardToShardBytes(rank);
    }

    /**
     * Bytes inference rank {@code rank} ends with by the routes given as {@link #bulk} (none when null): its
     * point-to-point bytes and what its replica groups fill in.
     */
    public long shardToShardBytes(int rank) {
        long sum = 0;
        if (bulk != null) {
            for (SliceRoute r : bulk) {
                if (r.inferenceRank() == rank) {
                    sum += r.bytes();
                }
            }
        }
        for (ReplicaFill f : fills) {
            int j = f.ranks().indexOf(rank);
            if (j >= 0) {
                sum += f.landed(j);
            }
        }
        return sum;
    }

    /** The plan line's words for how the bytes are planned. */
    public String describe() {
        if (planned == null) {
            return "send/recv of the plan's routes";
        }
        String how = planned.withReplicas() == 0
                ? "no inference replicas: each byte sent by the first trainer rank holding it"
                : String.format(java.util.Locale.ROOT, "%d with inference replicas, %d of them striped over the replicas "
                        + "then all-gathered, the rest sent whole to one replica then broadcast among them; a byte "
                        + "several trainer ranks hold sent by them in turn when striped, else by the first",
                        planned.withReplicas(), planned.striped());
        return String.format(java.util.Locale.ROOT, "send/recv by xferdtensor's plan of each of %d calls (%s)",
                planned.parameters(), how);
    }

    @Override
    public String name() {
        return "nccl-p2p";
    }

    @Override
    public double registrationSeconds(WireContext ctx) {
        return 0;
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        Countdown prepared = new Countdown(ctx.trainerRanks().size(),
                () -> send(ctx, () -> reshardCalls(ctx, () -> misc(ctx, done))));
        for (int t : ctx.trainerRanks()) {
            Endpoint gpu = ctx.trainer(t);
            // the rank's own shard, once however many receivers take parts of it
            long bytes = ctx.plan().buffers().trainerBytes(t);
            ctx.prepare(gpu, bytes, () -> ctx.gpuWork(RefitStage.CONVERT, gpu,
                    stacksExperts ? ctx.copySeconds(gpu, bytes) : 0, prepared::arrive));
        }
    }

    private void send(WireContext ctx, Runnable done) {
        ctx.together(() -> sendAll(ctx, done));
    }

    /**
     * Every route's send at once (one NCCL group); each replica group's all-gather and broadcast once its members'
     * sends are in; each rank's install once its sends and its groups' fills are.
     */
    private void sendAll(WireContext ctx, Runnable done) {
        List<Integer> ranks = ctx.inferenceRanks();
        Countdown all = new Countdown(ranks.size(), done);
        Map<Integer, Countdown> installs = new TreeMap<>();
        Map<Integer, List<Runnable>> received = new TreeMap<>();
        for (int i : ranks) {
            long fillsOf = fills.stream().filter(f -> f.ranks().contains(i)).count();
            installs.put(i, new Countdown((int) (1 + fillsOf),
                    () -> BroadcastOrder.install(ctx, List.of(i), r -> Math.round(need(ctx, r) * COPIED_BACK), 0,
                            all::arrive)));
            received.put(i, new ArrayList<>(List.of(installs.get(i)::arrive)));
        }
        for (ReplicaFill f : fills) {
            Countdown in = new Countdown(f.ranks().size(), () -> fill(ctx, f,
                    () -> f.ranks().forEach(r -> installs.get(r).arrive())));
            for (int r : f.ranks()) {
                received.get(r).add(in::arrive);
            }
        }
        Map<Integer, List<SliceRoute>> to = new TreeMap<>();
        for (SliceRoute r : routes(ctx)) {
            to.computeIfAbsent(r.inferenceRank(), k -> new ArrayList<>()).add(r);
        }
        for (int i : ranks) {
            List<SliceRoute> mine = to.getOrDefault(i, List.of());
            Runnable in = () -> received.get(i).forEach(Runnable::run);
            if (mine.isEmpty()) {
                in.run();
                continue;
            }
            Countdown sends = new Countdown(mine.size(), in);
            for (SliceRoute r : mine) {
                ctx.send(ctx.trainer(r.trainerRank()), i, r.bytes(), ibHca,
                        "c" + ctx.cycle() + "/p2p/t" + r.trainerRank() + "-i" + i, sends::arrive);
            }
        }
    }

    /** A replica group's ring all-gather of its stripes ({@link WireContext#ringAllGather}), then its broadcast. */
    private void fill(WireContext ctx, ReplicaFill f, Runnable then) {
        List<Integer> g = f.ranks();
        Runnable broadcast = () -> {
            if (f.broadcast() == 0) {
                then.run();
                return;
            }
            List<Endpoint> members = new ArrayList<>();
            for (int r : g) {
                members.add(ctx.inference(r));
            }
            ctx.broadcast(members, g.subList(1, g.size()), ibHca, f.broadcast(),
                    "c" + ctx.cycle() + "/replicas/i" + g.get(0), then);
        };
        long striped = 0;
        for (long s : f.stripes()) {
            striped += s;
        }
        if (striped == 0) {
            broadcast.run();
            return;
        }
        ctx.ringAllGather(g, f.stripes(), ibHca, "c" + ctx.cycle() + "/allgather/i" + g.get(0), broadcast);
    }

    /**
     * The host work of the FFN parameters' xferdtensor calls on each inference rank, {@code calls} of them one after
     * another at {@link RefitCalibration#RESHARD_CALL} each, all ranks at once; the misc broadcast waits for the
     * slowest (both sides synchronise before it, {@code vllm_backend.py} L1038, {@code megatron_policy_worker.py}
     * L2542).
     */
    private void reshardCalls(WireContext ctx, Runnable then) {
        double seconds = calls * ctx.plan().calibration().value(RefitCalibration.RESHARD_CALL);
        if (seconds == 0) {
            then.run();
            return;
        }
        Countdown issued = new Countdown(ctx.inferenceRanks().size(), then);
        for (int i : ctx.inferenceRanks()) {
            ctx.gpuCall(RefitStage.DISPATCH, ctx.inference(i), seconds, "reshard calls", String.format(
                    java.util.Locale.ROOT, "the %d xferdtensor calls, one after another", calls),
                    List.of(RefitCalibration.RESHARD_CALL), issued::arrive);
        }
    }

    /**
     * The packed buffer of {@code gpu}: 2% of its memory, at most 5 GiB ({@code get_target_packed_tensor_size}); at
     * least 1 MiB here, so a GPU declared with almost no memory cannot cut the broadcast into millions of buffers.
     */
    static long packedBufferBytes(long gpuMemoryBytes) {
        return Math.max(1L << 20, Math.min((long) (gpuMemoryBytes * PACKED_MEMORY_RATIO), PACKED_MAX_BYTES));
    }

    /**
     * The misc parameters: trainer rank 0 packs the plan's broadcast bytes into buffers in turn (a {@code torch.cat}
     * on its GPU: an HBM copy) and broadcasts each over the refit's communicator, every trainer rank and every
     * inference rank ({@code model_update_group}: each trainer worker joins it and calls the producer,
     * {@code megatron_policy_worker.py} L2557-2572; the inference ranks follow the trainer's in it,
     * {@code vllm_backend.py} L239-250), so NCCL's channels leave the trainer hosts by the NICs beside all their
     * GPUs; each inference rank loads the buffer's tensors through {@code load_weights} and copies its share.
     * Megatron's export of each misc parameter on the trainer (its PP broadcast and TP/EP gathers,
     * {@code megatron_policy_worker.py} L2563-2566) is not priced.
     */
    private void misc(WireContext ctx, Runnable done) {
        long payload = ctx.plan().broadcastBytes();
        if (payload == 0) {
            done.run();
            return;
        }
        Endpoint root = ctx.trainer(ctx.trainerRanks().get(0));
        Buckets buckets = new Buckets(packedBufferBytes(ctx.gpu(root).gpu().hbmBytes()), true);
        List<Integer> receivers = BroadcastOrder.chain(ctx, root, 0);
        List<Endpoint> members = new ArrayList<>();
        members.add(root);
        for (int t : ctx.trainerRanks()) {
            if (!ctx.trainer(t).equals(root)) {
                members.add(ctx.trainer(t));
            }
        }
        for (int i : receivers) {
            members.add(ctx.inference(i));
        }
        List<BucketPipeline.Unit> units = new ArrayList<>();
        long from = 0;
        for (int b = 0; b < buckets.count(payload); b++) {
            long size = buckets.sizeOf(b, payload);
            long tensors = ctx.plan().broadcastTensorsIn(from, from + size);
            from += size;
            String label = "c" + ctx.cycle() + "/misc/b" + b;
            units.add(new BucketPipeline.Unit(0,
                    then -> ctx.gpuWork(RefitStage.CONVERT, root, ctx.copySeconds(root, size), then),
                    then -> ctx.broadcast(members, receivers, ibHca, size, label, then),
                    then -> installMisc(ctx, receivers, size, payload, tensors, then)));
        }
        new BucketPipeline(units, PACKED_BUFFERS, BucketPipeline.WireOrder.GLOBAL, done).start();
    }

    /**
     * One packed buffer into the engines: each rank loads its {@code tensors} tensors and copies its share of the
     * buffer, the part of the misc bytes its slice map asks for (all it needs less its FFN share); the slowest
     * decides.
     */
    private void installMisc(WireContext ctx, List<Integer> ranks, long size, long payload, long tensors,
            Runnable then) {
        BroadcastOrder.install(ctx, ranks, r -> Math.round((double) size
                * Math.min(payload, Math.max(0, ctx.bytesTo(r) - need(ctx, r))) / payload), tensors, then);
    }
}
