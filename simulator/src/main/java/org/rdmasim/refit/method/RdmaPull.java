package org.rdmasim.refit.method;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.config.NcclIbHca;
import org.rdmasim.transport.mooncake.MooncakeTopology;
import org.rdmasim.workload.TransferItem;

/**
 * Receiver-driven RDMA pull, as NIXL does it for ModelExpress and vLLM's RDT engines: each trainer rank
 * prepares (gathers, converts) what it publishes, then every inference rank reads its runs from each
 * trainer rank it needs, one READ per route whose descriptors are the route's runs (ModelExpress's
 * {@code slice_plan.py} emits contiguous byte runs and {@code transport/nixl.py} posts them as one batched
 * read), over the lanes the transport backend's policy chooses (UCX's lane selection for NIXL's UCX backend).
 * The READs land in the engine's own tensors: no install copy.
 *
 * <p>With a tree ({@code treeChildren} > 0) ranks holding the same shard ({@code shardOf} equal: the same TP
 * rank of different DP replicas) share it as ModelExpress's {@code publish_self_as_source} does
 * (ai-dynamo/modelexpress issue #449): the lowest rank of a shard pulls from the trainers, and every rank
 * that holds the shard serves up to {@code treeChildren} others of it at once, one READ of the whole shard.
 *
 * <p>With a host replica ({@code bucketsOf} set) the sender side is miles' P2P update as the LMSYS "P2P weight
 * update" blog ran it (radixark/miles {@code miles/backends/megatron_utils/update_weight/update_weight_from_distributed/p2p.py} at
 * 9a6fc9e6, the last commit before the blog's 2026-04-29): each sending trainer rank keeps one CPU replica of an
 * engine rank's shard in pinned host memory ({@code create_cpu_replica} L292-294, one set of buffers shared by
 * every engine rank it serves, L212-248), and for each engine rank it serves in turn loads the gathered tensors
 * into it ({@code model_replica.load_weights}, L150: SGLang's weight loaders copy each engine rank's part of a
 * tensor from the trainer GPU into the CPU parameter, a device-to-host copy over the GPU's PCIe link) and then
 * RDMA-WRITEs the replica into the engine rank's registered GPU weights of every engine that has that rank
 * ({@code batch_transfer_sync_write} L390, Mooncake Transfer Engine, one request per parameter). The writes of
 * every engine rank but the last are waited for before the replica is overwritten (L162-173); the last's run in
 * the background while the next bucket is gathered (L153-161). The plan's routes are then the source's own
 * transfer plan ({@code RemoteTransferPlan.plan_p2p}), one route per (sending rank, inference rank), and
 * {@code shardOf} gives an inference rank's engine rank (ranks of one engine rank in different engines share a
 * load), {@code bucketsOf} how many buckets a sender's stage is gathered in ({@code update_weight_buffer_size}
 * bytes each, the all-gathered stage cut evenly): in each bucket every route sends its share. Each load is its
 * copy, then the rest of {@code load_weights} at {@link RefitCalibration#REPLICA_LOAD} a GB, calibrated on one
 * LMSYS row. With a sharded Megatron trainer ({@code stages} given, the preparation's {@link ShardGather}) each
 * bucket is first all-gathered by every rank of its stage over its TP, expert-TP and EP groups, as miles' mixin
 * does before it hands the bucket to the P2P path ({@link StageGather}); the HF conversion of each bucket is not
 * priced apart (the plan's preparation is, once, before the first bucket): that calibration holds what it costs.
 */
public record RdmaPull(int treeChildren, IntUnaryOperator shardOf, IntUnaryOperator bucketsOf,
        List<ShardGather.StageBytes> stages, NcclIbHca ibHca) implements RefitMethod {
    /**
     * Writes one sending rank has in flight at most: its {@code P2PTransferManager} runs each session's write
     * on a thread pool of {@code p2p_transfer_num_workers}, 4 by default (p2p.py L71-74 at 9a6fc9e6).
     */
    static final int REPLICA_WRITERS = 4;

    public RdmaPull {
        stages = stages == null ? List.of() : List.copyOf(stages);
        if (ibHca == null) {
            throw new IllegalArgumentException("a replica's stage gathers need their NCCL_IB_HCA (NcclIbHca.unset() when not set)");
        }
        if (!stages.isEmpty() && bucketsOf == null) {
            throw new IllegalArgumentException("a per-bucket Megatron gather belongs to a host replica's buckets");
        }
        if (treeChildren < 0) {
            throw new IllegalArgumentException("tree children must be >= 0");
        }
        if (treeChildren > 0 && shardOf == null) {
            throw new IllegalArgumentException("a tree needs to know which ranks hold the same shard");
        }
        if (bucketsOf != null && (treeChildren > 0 || shardOf == null)) {
            throw new IllegalArgumentException("a host replica sends to every inference rank itself (no tree) and "
                    + "needs each rank's engine rank");
        }
    }

    public RdmaPull(int treeChildren, IntUnaryOperator shardOf) {
        this(treeChildren, shardOf, null, List.of(), NcclIbHca.unset());
    }

    /** The senders write from a CPU replica in host memory (miles' P2P update), not a GPU pull. */
    public boolean hostReplica() {
        return bucketsOf != null;
    }

    /** Every inference rank pulls from the trainers. */
    public static RdmaPull direct() {
        return new RdmaPull(0, null);
    }

    public static RdmaPull tree(int children, IntUnaryOperator shardOf) {
        return new RdmaPull(children, shardOf);
    }

    /**
     * miles' P2P update: each sending trainer rank loads a CPU replica of an engine rank's shard and writes it from
     * host memory; {@code engineRankOf} maps an inference rank to its rank inside its engine, {@code bucketsOf} a
     * sending trainer rank to the buckets its stage is gathered in.
     */
    public static RdmaPull hostReplica(IntUnaryOperator engineRankOf, IntUnaryOperator bucketsOf) {
        return hostReplica(engineRankOf, bucketsOf, List.of());
    }

    /**
     * As {@link #hostReplica(IntUnaryOperator, IntUnaryOperator)}, each bucket first all-gathered over the trainer's
     * TP, expert-TP and EP groups by every rank of its stage ({@link WireContext#shardGather}'s groups, the
     * preparation's {@link ShardGather}): {@code stages} holds each pipeline stage's payload, non-expert bytes
     * first, as miles sends them (mixin.py L191-193 @9a6fc9e6); empty, no per-bucket gather.
     */
    public static RdmaPull hostReplica(IntUnaryOperator engineRankOf, IntUnaryOperator bucketsOf,
            List<ShardGather.StageBytes> stages) {
        return hostReplica(engineRankOf, bucketsOf, stages, NcclIbHca.unset());
    }

    /**
     * As above, the stage's gathers (Megatron's NCCL process groups on the trainer) restricted by the trainer
     * processes' {@code NCCL_IB_HCA}. No framework whose refit this models sets it for its trainer: miles passes
     * only NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME through (radixark/miles 9a6fc9e6
     * miles/utils/external_utils/command_utils.py:159), so it is the user's environment or unset.
     */
    public static RdmaPull hostReplica(IntUnaryOperator engineRankOf, IntUnaryOperator bucketsOf,
            List<ShardGather.StageBytes> stages, NcclIbHca ibHca) {
        if (bucketsOf == null) {
            throw new IllegalArgumentException("a host replica sends in buckets: say how many each sender has");
        }
        return new RdmaPull(0, engineRankOf, bucketsOf, stages, ibHca);
    }

    @Override
    public String name() {
        return hostReplica() ? "rdma-pull-host-replica" : treeChildren > 0 ? "rdma-pull-tree" : "rdma-pull";
    }

    @Override
    public double registrationSeconds(WireContext ctx) {
        return RouteRegistration.slowestRank(ctx);
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        Runnable send = hostReplica() ? () -> fromReplicas(ctx, done) : () -> pull(ctx, done);
        Countdown prepared = new Countdown(ctx.trainerRanks().size(), send);
        for (int t : ctx.trainerRanks()) {
            ctx.prepare(ctx.trainer(t), ctx.bytesFrom(t), prepared::arrive);
        }
    }

    private void pull(WireContext ctx, Runnable done) {
        Countdown all = new Countdown(ctx.inferenceRanks().size(), done);
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int i : ctx.inferenceRanks()) {
            groups.computeIfAbsent(treeChildren > 0 ? shardOf.applyAsInt(i) : i, k -> new ArrayList<>()).add(i);
        }
        for (List<Integer> group : groups.values()) {
            int leader = group.get(0);
            for (int m : group) {
                if (ctx.bytesTo(m) != ctx.bytesTo(leader)) {
                    throw new IllegalArgumentException("inference ranks " + leader + " and " + m + " are given the "
                            + "same shard but need " + ctx.bytesTo(leader) + " and " + ctx.bytesTo(m) + " bytes");
                }
            }
            Shard shard = new Shard(ctx, group, all);
            pullRoutes(ctx, leader, () -> shard.holds(leader, null));
        }
    }

    /** Every sending rank walks its buckets, and in each the engine ranks it serves, all senders at once. */
    private void fromReplicas(WireContext ctx, Runnable done) {
        Countdown all = new Countdown(ctx.trainerRanks().size(), done);
        ShardGather g = ctx.plan().preparation().shardGather();
        Map<Integer, StageGather> gathers = new TreeMap<>();
        if (!stages.isEmpty() && g.gathers()) {
            int columns = g.columns();
            Map<Integer, List<Integer>> byStage = new TreeMap<>();
            for (int t : ctx.trainerRanks()) {
                byStage.computeIfAbsent(t / columns, k -> new ArrayList<>()).add(t);
            }
            for (Map.Entry<Integer, List<Integer>> e : byStage.entrySet()) {
                gathers.put(e.getKey(), new StageGather(ctx, g, stages.get(e.getKey()), e.getValue(),
                        bucketsOf.applyAsInt(e.getValue().get(0)), ibHca));
            }
        }
        for (int t : ctx.trainerRanks()) {
            Map<Integer, List<SliceRoute>> byEngineRank = new java.util.LinkedHashMap<>();
            for (SliceRoute r : ctx.plan().routes()) {
                if (r.trainerRank() == t) {
                    byEngineRank.computeIfAbsent(shardOf.applyAsInt(r.inferenceRank()), k -> new ArrayList<>()).add(r);
                }
            }
            int buckets = bucketsOf.applyAsInt(t);
            if (buckets < 1) {
                throw new IllegalArgumentException("trainer rank " + t + " sends in " + buckets + " buckets");
            }
            StageGather gather = gathers.get(g.gathers() ? t / g.columns() : 0);
            new Replica(ctx, t, new ArrayList<>(byEngineRank.values()), buckets, gather, all::arrive).bucket(0);
        }
    }

    /**
     * Megatron's gather of one stage's buckets in miles' P2P update: every rank of the stage all-gathers each bucket,
     * its non-expert bytes over its TP group ({@code all_gather_param}, common.py L50-70 @9a6fc9e6, called by every
     * rank, mixin.py L49-50) and its experts over the expert-TP then the EP group ({@code dist.all_gather} over
     * {@code get_expert_model_parallel_group}, mixin.py L78-79, L115-126), so it ends holding the whole bucket.
     * They are collectives: no rank goes on before every rank of its groups has called them, and the groups of a
     * stage cross (a TP group's ranks sit in different EP groups), so the stage's ranks start each bucket's gathers
     * together, once each has finished with the last bucket (its loads done, the writes it waits for landed,
     * p2p.py L149-173). Each group's all-gather is a ring over its GPUs ({@link WireContext#allGather}): NVLink
     * inside a host, the fabric when the group spans hosts; every group of the stage at once, sharing the links.
     */
    private static final class StageGather {
        private final WireContext ctx;
        private final ShardGather g;
        private final ShardGather.StageBytes stage;
        private final List<Integer> ranks;
        private final int buckets;
        private final NcclIbHca ibHca;
        private final Map<Integer, List<Runnable>> waiting = new TreeMap<>();

        StageGather(WireContext ctx, ShardGather g, ShardGather.StageBytes stage, List<Integer> ranks, int buckets,
                NcclIbHca ibHca) {
            this.ctx = ctx;
            this.ibHca = ibHca;
            this.g = g;
            this.stage = stage;
            this.ranks = List.copyOf(ranks);
            this.buckets = buckets;
        }

        /** Rank's arrival at bucket {@code j}'s gathers; {@code then} once every group of the stage has gathered it. */
        void arrive(int j, Runnable then) {
            List<Runnable> here = waiting.computeIfAbsent(j, k -> new ArrayList<>());
            here.add(then);
            if (here.size() < ranks.size()) {
                return;
            }
            waiting.remove(j);
            long whole = stage.whole();
            long from = Math.multiplyExact(whole, (long) j) / buckets;
            long size = part(whole, j, buckets);
            long dense = Math.max(0, Math.min(from + size, stage.dense()) - from);
            long expert = size - dense;
            int ep = g.layout().ep();
            String label = "c" + ctx.cycle() + "/replica/gather/s" + ranks.get(0) / g.columns() + "/b" + j;
            // every rank of the stage goes on at this one instant (each starting its replica's copies): one re-solve
            Runnable release = () -> ctx.together(() -> here.forEach(Runnable::run));
            groups(ShardGather::tensorGroup, Math.round(dense * g.heldPerByte()), label + "/tp",
                    () -> groups(ShardGather::expertTensorGroup, Math.round(expert * g.heldPerByte() / ep),
                            label + "/etp", () -> groups(ShardGather::expertGroup,
                                    Math.round(expert * g.heldPerByte()), label + "/ep", release)));
        }

        /** One all-gather of {@code bytes} over each distinct group of the stage, all at once; then {@code then}. */
        private void groups(java.util.function.BiFunction<ShardGather, Integer, List<Integer>> groupOf, long bytes,
                String label, Runnable then) {
            List<List<Integer>> distinct = new ArrayList<>();
            for (int r : ranks) {
                List<Integer> group = groupOf.apply(g, r);
                if (!distinct.contains(group)) {
                    distinct.add(group);
                }
            }
            Countdown all = new Countdown(distinct.size(), then);
            // the trainer's NCCL gathers on the NICs its NCCL_IB_HCA leaves (all when unset)
            ctx.together(() -> {
                for (int k = 0; k < distinct.size(); k++) {
                    ctx.allGather(distinct.get(k), bytes, ibHca, label + "/g" + k, all::arrive);
                }
            });
        }
    }

    /**
     * Part {@code j} of {@code n} of {@code total} (parts differ by at most one and add up to {@code total}): a
     * route's share of one bucket, the bucket cutting the sender's stage evenly.
     */
    static long part(long total, int j, int n) {
        return Math.multiplyExact(total, (long) j + 1) / n - Math.multiplyExact(total, (long) j) / n;
    }

    /** One sending rank's CPU replica, serving its engine ranks one after another in every bucket. */
    private static final class Replica {
        private final WireContext ctx;
        private final int rank;
        private final Endpoint gpu;
        private final Endpoint memory;
        private final List<List<SliceRoute>> engineRanks;
        private final int buckets;
        private final StageGather gather;
        private final Runnable done;
        /** The writer pool: writes waiting for a thread, writes running, writes not yet finished. */
        private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
        private int running;
        private int unfinished;
        private boolean loaded;
        private boolean finished;

        Replica(WireContext ctx, int rank, List<List<SliceRoute>> engineRanks, int buckets, StageGather gather,
                Runnable done) {
            this.ctx = ctx;
            this.rank = rank;
            this.gpu = ctx.trainer(rank);
            // pinned host memory of the GPU's own socket (the rank's process runs on its GPU's NUMA node)
            this.memory = new Endpoint(gpu.host(), "CPU" + ctx.gpu(gpu).socket());
            this.engineRanks = engineRanks;
            this.buckets = buckets;
            this.gather = gather;
            this.done = done;
        }

        /**
         * Bucket {@code j}: its gather with the stage's other ranks (when the trainer is sharded), then the engine ranks
         * in turn; after the last bucket, the wait for every write.
         */
        void bucket(int j) {
            if (j == buckets) {
                loaded = true;
                finishIfDone();
                return;
            }
            if (gather != null) {
                gather.arrive(j, () -> load(j, 0));
            } else {
                load(j, 0);
            }
        }

        /**
         * Engine rank {@code k} in bucket {@code j}: the replica's load (one device-to-host copy of the engine rank's
         * share of the bucket: every route of the group needs the same), then one WRITE per engine that has the
         * rank. The writes of every engine rank but the last are waited for; the last's go to the pool and the next
         * bucket starts.
         */
        private void load(int j, int k) {
            List<SliceRoute> group = engineRanks.get(k);
            long bytes = 0;
            for (SliceRoute r : group) {
                bytes = Math.max(bytes, part(r.bytes(), j, buckets));
            }
            boolean last = k == engineRanks.size() - 1;
            Runnable writes = () -> {
                if (last) {
                    for (SliceRoute r : group) {
                        submit(r, j, null);
                    }
                    bucket(j + 1);
                } else {
                    Countdown written = new Countdown(group.size(), () -> load(j, k + 1));
                    for (SliceRoute r : group) {
                        submit(r, j, written::arrive);
                    }
                }
            };
            if (bytes == 0) {
                writes.run();
            } else {
                long b = bytes;
                ctx.d2h(gpu, bytes, "c" + ctx.cycle() + "/replica/t" + rank + "/b" + j + "/e" + k + "/d2h",
                        () -> loadWeights(b, writes));
            }
        }

        /**
         * The rest of the replica's {@code load_weights} (p2p.py L150 at 9a6fc9e6), after its copy: SGLang's weight
         * loaders on the CPU model, priced per GB of the engine rank's share ({@link RefitCalibration#REPLICA_LOAD},
         * calibrated), in series on the sender as its loop is. Logged as conversion: the replica is where the
         * gathered HF tensors are re-sharded into the engine rank's layout.
         */
        private void loadWeights(long bytes, Runnable then) {
            double seconds = bytes / 1e9 * ctx.plan().calibration().value(RefitCalibration.REPLICA_LOAD);
            if (seconds <= 0) {
                then.run();
                return;
            }
            ctx.gpuCall(RefitStage.CONVERT, gpu, seconds, "replica load_weights", "the CPU replica's load_weights",
                    List.of(RefitCalibration.REPLICA_LOAD), then);
        }

        /** Route {@code r}'s share of bucket {@code j} as one WRITE through the pool; {@code then} once it lands. */
        private void submit(SliceRoute r, int j, Runnable then) {
            long bytes = part(r.bytes(), j, buckets);
            if (bytes == 0) {
                if (then != null) {
                    then.run();
                }
                return;
            }
            unfinished++;
            Endpoint to = ctx.inference(r.inferenceRank());
            int requests = (int) Math.max(1, part(r.tensors(), j, buckets));
            TransferItem item = new TransferItem("c" + ctx.cycle() + "/replica/t" + rank + "-i" + r.inferenceRank()
                    + "/b" + j, memory, to, bytes, 0, Operation.WRITE, requests);
            queued.add(() -> ctx.post(item, r.inferenceRank(), lanes(to), x -> {
                running--;
                unfinished--;
                drain();
                if (then != null) {
                    then.run();
                }
                finishIfDone();
            }));
            drain();
        }

        /** Starts queued writes while a thread of the pool is free ({@link #REPLICA_WRITERS}). */
        private void drain() {
            while (running < REPLICA_WRITERS && !queued.isEmpty()) {
                running++;
                queued.pollFirst().run();
            }
        }

        private void finishIfDone() {
            if (loaded && unfinished == 0 && !finished) {
                finished = true;
                done.run();
            }
        }

        /**
         * Mooncake's devices for a WRITE from host memory ({@link MooncakeTopology}): every compute HCA of the
         * memory's socket (its {@code cpu:N} preferred list; ASSUMED: the storage ports beside them are not on the
         * compute fabric) to the target GPU's first preferred HCA, each pair over the endpoint's QPs, equal shares.
         */
        private List<LaneSplit.Candidate> lanes(Endpoint to) {
            Host source = ctx.host(memory.host());
            TopologyNode socket = source.find(memory.device()).orElseThrow();
            List<String> compute = source.computeNics().stream().map(TopologyNode::name).toList();
            Host sink = ctx.host(to.host());
            TopologyNode remote = MooncakeTopology.preferred(sink, ctx.gpu(to),
                    sink.computeNics().stream().map(TopologyNode::name).toList()).get(0);
            List<LaneSplit.Candidate> out = new ArrayList<>();
            for (TopologyNode local : MooncakeTopology.preferred(source, socket, compute)) {
                for (int q = 0; q < CheckpointUpdate.MOONCAKE_QPS_PER_ENDPOINT; q++) {
                    out.add(new LaneSplit.Candidate(local.name(), remote.name(), 1.0));
                }
            }
            return out;
        }
    }

    private static void pullRoutes(WireContext ctx, int rank, Runnable then) {
        List<SliceRoute> mine = ctx.plan().routes().stream().filter(r -> r.inferenceRank() == rank).toList();
        Countdown routes = new Countdown(mine.size(), then);
        for (SliceRoute r : mine) {
            TransferItem item = new TransferItem("c" + ctx.cycle() + "/pull/t" + r.trainerRank() + "-i" + rank,
                    ctx.trainer(r.trainerRank()), ctx.inference(rank), r.bytes(), 0, Operation.READ,
                    RouteRegistration.descriptors(r.runs()));
            ctx.post(item, rank, x -> routes.arrive());
        }
    }

    /** The ranks of one shard: who holds it, who waits, and how many pulls each holder serves now. */
    private final class Shard {
        private final WireContext ctx;
        private final Countdown all;
        private final ArrayDeque<Integer> waiting = new ArrayDeque<>();
        private final List<Integer> holders = new ArrayList<>();
        private final Map<Integer, Integer> serving = new TreeMap<>();
        private final long bytes;
        private final int descriptors;

        Shard(WireContext ctx, List<Integer> group, Countdown all) {
            this.ctx = ctx;
            this.all = all;
            waiting.addAll(group.subList(1, group.size()));
            bytes = ctx.bytesTo(group.get(0));
            descriptors = RouteRegistration.descriptors(ctx.runsTo(group.get(0)));
        }

        /** {@code rank} now holds the shard; {@code servedBy} (null for the leader) frees a slot. */
        void holds(int rank, Integer servedBy) {
            all.arrive();
            if (servedBy != null) {
                serving.merge(servedBy, -1, Integer::sum);
            }
            holders.add(rank);
            serving.putIfAbsent(rank, 0);
            dispatch();
        }

        private void dispatch() {
            for (int h : holders) {
                while (!waiting.isEmpty() && serving.get(h) < treeChildren) {
                    int m = waiting.pollFirst();
                    serving.merge(h, 1, Integer::sum);
                    Endpoint from = ctx.inference(h);
                    TransferItem item = new TransferItem("c" + ctx.cycle() + "/tree/i" + h + "-i" + m, from,
                            ctx.inference(m), bytes, 0, Operation.READ, descriptors);
                    ctx.post(item, m, x -> holds(m, h));
                }
            }
        }
    }
}
