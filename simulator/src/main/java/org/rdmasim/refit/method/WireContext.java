package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.fluid.Flow;
import org.rdmasim.fluid.Limit;
import org.rdmasim.fluid.Resource;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Cluster;
import org.rdmasim.hardware.GpuPeerRoutes;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.DataPath;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.HeldLongest;
import org.rdmasim.transport.Lane;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.TransferEngine;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.transport.TransferSpec;
import org.rdmasim.transport.config.NcclIbHca;
import org.rdmasim.workload.CycleBound;
import org.rdmasim.workload.TransferItem;
import org.rdmasim.workload.WorkloadRun;

/**
 * What a {@link RefitMethod} runs its cycle on: the plan's ranks and routes, one clock and one fluid network
 * for every wire, NVLink and PCIe byte (the routes between GPUs of a host come from {@link GpuPeerRoutes}),
 * the GPU work priced by its HBM and NVLink rates ({@link org.rdmasim.hardware.GpuModel}), and the record of
 * what each stage did (busy intervals, bytes landed per inference rank, what limited each piece).
 */
public final class WireContext {
    private final RefitPlan plan;
    private final Cluster cluster;
    private final WorkloadRun run;
    private final TransferEngine engine;
    private final RegistrationParameters registrationTerms;
    private final StageLog log = new StageLog();
    private final List<Integer> trainerRanks;
    private final List<Integer> inferenceRanks;
    private final Map<Integer, long[]> fromTrainer = new TreeMap<>();
    private final Map<Integer, long[]> toInference = new TreeMap<>();
    private final GpuPeerRoutes peers;
    private final List<TransferResult> transfers = new ArrayList<>();
    // Per cycle.
    private final SortedMap<Integer, Long> received = new TreeMap<>();
    private final Map<String, List<double[]>> busyByLimit = new LinkedHashMap<>();
    private final Map<String, Bound> bounds = new LinkedHashMap<>();
    /** Per trainer GPU: what its FSDP group's ring can carry between hosts, bytes per second. */
    private final Map<Endpoint, Double> gatherCrossing = new java.util.HashMap<>();
    /** {@link BroadcastOrder#channelNics}'s answers in this run (one run is one thread's). */
    final Map<BroadcastOrder.NicsAsked, List<TopologyNode>> channelNics = new java.util.HashMap<>();
    private long wireBytes;
    private int cycle;

    WireContext(RefitPlan plan, Cluster cluster, WorkloadRun run, TransferEngine engine,
            RegistrationParameters registrationTerms) {
        this.plan = plan;
        this.cluster = cluster;
        this.run = run;
        this.engine = engine;
        this.registrationTerms = registrationTerms;
        this.peers = new GpuPeerRoutes(cluster);
        TreeSet<Integer> t = new TreeSet<>();
        TreeSet<Integer> i = new TreeSet<>();
        for (SliceRoute r : plan.routes()) {
            t.add(r.trainerRank());
            i.add(r.inferenceRank());
            // bytes, tensors, runs
            add(fromTrainer, r.trainerRank(), r);
            add(toInference, r.inferenceRank(), r);
        }
        trainerRanks = List.copyOf(t);
        inferenceRanks = List.copyOf(i);
        for (int rank : trainerRanks) {
            gpu(trainer(rank));
        }
        for (int rank : inferenceRanks) {
            gpu(inference(rank));
        }
    }

    private static void add(Map<Integer, long[]> into, int rank, SliceRoute r) {
        long[] v = into.computeIfAbsent(rank, k -> new long[3]);
        v[0] = Math.addExact(v[0], r.bytes());
        v[1] += r.tensors();
        v[2] = Math.addExact(v[2], r.runs());
    }

    public RefitPlan plan() {
        return plan;
    }

    public int cycle() {
        return cycle;
    }

    SimulationClock clock() {
        return run.clock();
    }

    public List<Integer> trainerRanks() {
        return trainerRanks;
    }

    public List<Integer> inferenceRanks() {
        return inferenceRanks;
    }

    public Endpoint trainer(int rank) {
        Endpoint e = plan.trainer().apply(rank);
        if (e == null) {
            throw new IllegalArgumentException("trainer rank " + rank + " is placed on no GPU");
        }
        return e;
    }

    public Endpoint inference(int rank) {
        Endpoint e = plan.inference().apply(rank);
        if (e == null) {
            throw new IllegalArgumentException("inference rank " + rank + " is placed on no GPU");
        }
        return e;
    }

    /** Bytes trainer rank {@code rank} sends under the slice map. */
    public long bytesFrom(int rank) {
        return fromTrainer.get(rank)[0];
    }

    /** Bytes inference rank {@code rank} needs under the slice map. */
    public long bytesTo(int rank) {
        return toInference.get(rank)[0];
    }

    public long runsTo(int rank) {
        return toInference.get(rank)[2];
    }

    RegistrationParameters registrationTerms() {
        return registrationTerms;
    }

    Host host(String name) {
        return cluster.host(name);
    }

    /** The GPU node of an endpoint; an IllegalArgumentException naming it when it is no GPU. */
    TopologyNode gpu(Endpoint e) {
        Host h = cluster.host(e.host());
        TopologyNode n = h.find(e.device()).orElseThrow(() -> new IllegalArgumentException(
                "host " + e.host() + " has no device " + e.device() + " (a refit rank sits on a GPU)"));
        if (n.kind() != TopologyNode.Kind.GPU) {
            throw new IllegalArgumentException(e + " is no GPU (a refit rank sits on a GPU)");
        }
        return n;
    }

    double hbm(Endpoint e) {
        return gpu(e).gpu().model().hbmBytesPerSecond();
    }

    /** Seconds to gather {@code bytes} of full tensors on {@code e} (see {@link Preparation}). */
    double gatherSeconds(Endpoint e, long bytes) {
        double f = plan.preparation().gatheredFraction();
        if (f == 0 || bytes == 0) {
            return 0;
        }
        double rate = Math.min(GpuPeerRoutes.peerBytesPerSecond(gpu(e)),
                gatherCrossing.computeIfAbsent(e, this::fsdpCrossingRate));
        // the gather moves the trainer's dtype (FP32 master weights: twice the BF16 bytes sent)
        return bytes * plan.preparation().gatherPerByte() * f / rate;
    }

    /**
     * What the FSDP all-gather of trainer GPU {@code e}'s group can carry between hosts, bytes per second; infinite
     * when the group sits in one host. NCCL's ring between nodes runs "NET n -> GPU a -> .. -> GPU x -> NET n"
     * (NVIDIA/nccl v2.29.7-1 src/graph/search.cc:763), channel c starting its NIC search at entry c of the list
     * and taking that NIC's bandwidth from the next channel (:678, :688-692), so the channels leave and enter a
     * host through its NICs in turn ({@link BroadcastOrder#channelNic}). In a ring all-gather every byte a rank
     * gathers passes every link of the ring but one, so (g - 1)/g of the gathered bytes cross into each host, as
     * (g - 1)/g cross into each rank: the host's channel NICs together bound it as the GPU's NVLink does
     * inside the host. ASSUMED: the trainer's NCCL_IB_HCA is unset (every NIC nearest a GPU of the group); the
     * gather's bytes are not put on the NICs as flows, so a broadcast on the same NICs at the same time does not
     * slow it. Found by rank: {@code e} is one of the plan's sending trainer ranks.
     */
    private double fsdpCrossingRate(Endpoint e) {
        Preparation p = plan.preparation();
        int rank = -1;
        for (int r : trainerRanks) {
            if (trainer(r).equals(e)) {
                rank = r;
                break;
            }
        }
        if (rank < 0) {
            return Double.POSITIVE_INFINITY;
        }
        List<Endpoint> members = new ArrayList<>();
        for (int r : p.gatherGroupOf(rank)) {
            members.add(plan.trainer().apply(r));
        }
        Map<String, List<TopologyNode>> gpus = BroadcastOrder.gpusByHost(this, members);
        if (gpus.size() < 2) {
            return Double.POSITIVE_INFINITY;
        }
        NcclIbHca all = NcclIbHca.unset();
        int channels = BroadcastOrder.channels(this, gpus, all);
        double tightest = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, List<TopologyNode>> h : gpus.entrySet()) {
            Host host = host(h.getKey());
            Set<TopologyNode> used = new LinkedHashSet<>();
            for (int k = 0; k < channels; k++) {
                used.add(BroadcastOrder.channelNic(this, host, h.getValue(), k, all));
            }
            double sum = 0;
            for (TopologyNode nic : used) {
                sum += nic.nic().payloadBytesPerSecond(host.profile());
            }
            tightest = Math.min(tightest, sum);
        }
        return tightest;
    }

    /**
     * The unshard an FSDP1 sharded {@code state_dict()} runs before the first tensor is sent, when each trainer
     * rank's parameter shard lives in pinned host memory ({@code CPUOffload(offload_params=True)}): every rank at
     * once copies its shard to its GPU over PCIe ({@link #h2d}: FSDP's {@code pre_unshard} moves the flat
     * parameter's pinned local shard to the device, torch/distributed/fsdp/_flat_param.py), all-gathers the full
     * tensors over NVLink, and clones each full tensor before cutting its chunk of the state dict
     * ({@code tensor.clone()} in {@code _create_chunk_dtensor}, torch/distributed/fsdp/_shard_utils.py). The
     * state dict is built whole before it is handed on ({@code self.module.state_dict()}), so nothing of the
     * send overlaps it. Without offloaded shards, {@code then} at once.
     */
    void unshardOffloaded(Runnable then) {
        Preparation p = plan.preparation();
        if (!p.offloaded()) {
            then.run();
            return;
        }
        long shard = p.offloadedShardBytes();
        // the full tensors of the FSDP units the rank holds a shard of, in the bytes it will send
        long full = Math.round(shard * (double) p.gatherGroup() / p.gatherPerByte());
        Countdown unsharded = new Countdown(trainerRanks.size(), then);
        for (int rank : trainerRanks) {
            Endpoint gpu = trainer(rank);
            h2d(gpu, shard, "c" + cycle + "/unshard/t" + rank + "/h2d",
                    () -> gpuWork(RefitStage.GATHER, gpu, gatherSeconds(gpu, full),
                            () -> gpuCall(RefitStage.GATHER, gpu, copySeconds(gpu, Math.multiplyExact(shard,
                                    (long) p.gatherGroup())), "hbm (state_dict clone)",
                                    "HBM bandwidth (state_dict clone of the full tensors)", List.of(),
                                    unsharded::arrive)));
        }
    }

    double convertSeconds(Endpoint e, long bytes) {
        Preparation p = plan.preparation();
        return bytes * (p.readPerByte() + p.writePerByte()) / hbm(e);
    }

    /** A device-to-device copy of {@code bytes} on {@code e}: every byte read once and written once. */
    double copySeconds(Endpoint e, long bytes) {
        return 2.0 * bytes / hbm(e);
    }

    /** Runs GPU work of {@code seconds} as stage {@code stage} on {@code gpu}, then {@code then}. */
    void gpuWork(RefitStage stage, Endpoint gpu, double seconds, Runnable then) {
        double start = clock().now();
        clock().schedule(seconds, new GpuStageEnd(() -> {
            double now = clock().now();
            log.add(stage, start, now);
            if (gpu != null && now > start) {
                List<String> costOf = stage == RefitStage.DISPATCH ? List.of(RefitCalibration.BUCKET) : List.of();
                busy(gpu + " " + limitKey(stage) + " (" + stage.name().toLowerCase(java.util.Locale.ROOT) + ")",
                        gpu.device() + " on " + gpu.host() + ": " + limitWords(stage, costOf), costOf, start, now);
            }
            then.run();
        }));
    }

    /**
     * Runs a GPU stage whose limit is not the stage's usual one (a per-call cost, a flatten): logged as
     * {@code stage}, busy under {@code key} with {@code words} naming what bounds it. {@code costOf} are the
     * stage parameters the call's seconds are a cost of (none for a flatten, which HBM bounds): the bound
     * carries them as keys, and its words name them with their kind.
     */
    void gpuCall(RefitStage stage, Endpoint gpu, double seconds, String key, String words, List<String> costOf,
            Runnable then) {
        double start = clock().now();
        clock().schedule(seconds, new GpuStageEnd(() -> {
            double now = clock().now();
            log.add(stage, start, now);
            if (now > start) {
                busy(gpu + " " + key, gpu.device() + " on " + gpu.host() + ": " + costWords(words, costOf), costOf,
                        start, now);
            }
            then.run();
        }));
    }

    /**
     * The end of a stage of GPU work (a gather, a conversion, a load, a per-call cost): an event of its own
     * kind, so that {@code bench --scenario} counts a refit's events by what they are.
     */
    private record GpuStageEnd(Runnable body) implements Runnable {
        @Override
        public void run() {
            body.run();
        }
    }

    /** A copy between GPUs of one host, or between host memory and a GPU, landed (its flow ended). */
    private record CopyEnd(Runnable body) implements Runnable {
        @Override
        public void run() {
            body.run();
        }
    }

    /** A pipelined chain's last rank receiving its last chunk, the chain's fill after its flow ends. */
    private record ChainEnd(Runnable body) implements Runnable {
        @Override
        public void run() {
            body.run();
        }
    }

    /**
     * {@code words}, then the stage parameters they are a cost of with their kind, as this plan's calibration has
     * them: {@code words (refit.x, refit.y, calibrated)}; each its own kind when they differ (a scenario that
     * states one of them: {@code (refit.x assumed, refit.y calibrated)}).
     */
    private String costWords(String words, List<String> costOf) {
        if (costOf.isEmpty()) {
            return words;
        }
        List<String> kinds = costOf.stream().map(k -> plan.calibration().get(k).kind().word()).toList();
        if (kinds.stream().distinct().count() == 1) {
            return words + " (" + String.join(", ", costOf) + ", " + kinds.get(0) + ")";
        }
        List<String> each = new ArrayList<>();
        for (int i = 0; i < costOf.size(); i++) {
            each.add(costOf.get(i) + " " + kinds.get(i));
        }
        return words + " (" + String.join(", ", each) + ")";
    }

    /** Seconds for {@code bytes} to cross into {@code e} over its NVLink ports (its host link without NVLink). */
    double nvlinkSeconds(Endpoint e, long bytes) {
        if (bytes == 0) {
            return 0;
        }
        return bytes / GpuPeerRoutes.peerBytesPerSecond(gpu(e));
    }

    private static String limitKey(RefitStage s) {
        return switch (s) {
            case GATHER -> "nvlink";
            case DISPATCH -> "bucket calls";
            default -> "hbm";
        };
    }

    private String limitWords(RefitStage s, List<String> costOf) {
        return switch (s) {
            case GATHER -> "NVLink bandwidth (gather)";
            // Not a bandwidth: the sending rank's fixed cost per bucket, paid one bucket after another.
            case DISPATCH -> costWords("per-bucket call cost", costOf);
            default -> "HBM bandwidth (" + stageWords(s) + ")";
        };
    }

    private static String stageWords(RefitStage s) {
        return switch (s) {
            case CONVERT -> "conversion";
            case INSTALL -> "install copy";
            case H2D -> "staging copy";
            default -> s.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** A stage that is only a wait (pause, barrier, resume, registration): logged, not a resource. */
    void hold(RefitStage stage, double seconds, Runnable then) {
        gpuWork(stage, null, seconds, then);
    }

    /**
     * Megatron's gather of one broadcast bucket to its sending trainer rank {@code rank} ({@link ShardGather}):
     * the bucket's non-expert bytes all-gathered over the rank's TP group; its expert bytes over the expert-TP
     * group (each EP rank's share of the bucket), then over the EP group; one after another, as the sender's
     * loop waits for each before it packs and sends the bucket (miles mixin.py L49-64, L115-138 @9a6fc9e6). The
     * bucket is {@code [from, from + bytes)} of the broadcast payload. Without a Megatron gather, {@code then}
     * at once.
     */
    void shardGather(int rank, long from, long bytes, NcclIbHca ibHca, String label, Runnable then) {
        ShardGather g = plan.preparation().shardGather();
        if (!g.gathers() && !g.overPipeline()) {
            then.run();
            return;
        }
        long dense = g.denseIn(from, bytes);
        long expert = bytes - dense;
        int ep = g.layout().ep();
        Runnable gathers = () -> allGather(g.tensorGroup(rank), Math.round(dense * g.heldPerByte()), ibHca,
                label + "/tp",
                () -> allGather(g.expertTensorGroup(rank), Math.round(expert * g.heldPerByte() / ep), ibHca,
                        label + "/etp",
                        () -> allGather(g.expertGroup(rank), Math.round(expert * g.heldPerByte()), ibHca,
                                label + "/ep", then)));
        if (!g.overPipeline()) {
            gathers.run();
            return;
        }
        pipelineBroadcasts(g, g.owners(from, bytes), 0, ibHca, label + "/pp", gathers);
    }

    /**
     * Megatron-Bridge's {@code broadcast_from_pp_rank} for the bucket's parts from part {@code k} on: each part's
     * owning stage broadcasts it to the other stages, every rank of the stage over its own PP group at once (each
     * rank its own shard), one part after another as the export's tasks run in order; then {@code then}.
     */
    private void pipelineBroadcasts(ShardGather g, List<ShardGather.Owned> parts, int k, NcclIbHca ibHca,
            String label, Runnable then) {
        if (k == parts.size()) {
            then.run();
            return;
        }
        ShardGather.Owned part = parts.get(k);
        int columns = g.columns();
        long shard = g.heldBy(part.dense(), part.expert());
        Runnable next = () -> pipelineBroadcasts(g, parts, k + 1, ibHca, label, then);
        Countdown all = new Countdown(columns, next);
        together(() -> {
            for (int c = 0; c < columns; c++) {
                collective(trainers(g.pipelineGroup(c, part.stage())), shard, false, ibHca, RefitStage.GATHER,
                        label + "/s" + part.stage() + "/r" + c, all::arrive);
            }
        });
    }

    /**
     * An NCCL ring all-gather of {@code bytes} (the gathered whole) over the GPUs of trainer ranks {@code group},
     * logged as {@link RefitStage#GATHER}. NCCL's ring all-gather ({@code runRing} in NVIDIA/nccl
     * {@code src/device/all_gather.h}) passes each rank's part around the ring, so every link of the ring carries
     * (n - 1)/n of the whole (nccl-tests {@code doc/PERFORMANCE.md}: all-gather bus bandwidth = algorithm
     * bandwidth x (n - 1)/n). Each channel carries its share over its own ring, the channels and the NIC each
     * crosses hosts by being those of {@link #broadcast}: one fluid flow per channel over the union of its ring's
     * hops, NVLink inside a host and GPUDirect RDMA between hosts, which max-min shares with what else runs.
     * A group of one rank, or nothing to gather: {@code then} at once.
     */
    void allGather(List<Integer> group, long bytes, NcclIbHca ibHca, String label, Runnable then) {
        int n = group.size();
        if (n < 2 || bytes < 1) {
            then.run();
            return;
        }
        collective(trainers(group), Math.max(1, Math.round(bytes * (n - 1) / (double) n)), true, ibHca,
                RefitStage.GATHER, label, then);
    }

    /**
     * An NCCL ring all-gather among inference ranks {@code ranks}, rank j contributing {@code parts[j]} bytes: the
     * in-place all-gather xferdtensor runs over a replica group once each replica holds its stripe (NVIDIA-NeMo/RL
     * e40aa046e {@code nemo_rl/weight_sync/xferdtensor_python.py} L932-957, {@code subcommunicator.allgather}). As
     * among trainer ranks ({@link #allGather}) every link of the ring carries (n - 1)/n of the whole, so a group
     * spread over two hosts sends n - 1 parts, not n/2, through each host's NICs: the ring forwards a rank's part
     * past its host-mates and back. Logged as {@link RefitStage#WIRE}; each rank lands the whole less its own part.
     */
    void ringAllGather(List<Integer> ranks, long[] parts, NcclIbHca ibHca, String label, Runnable then) {
        long whole = 0;
        for (long p : parts) {
            whole += p;
        }
        long all = whole;
        Runnable landed = () -> {
            for (int j = 0; j < ranks.size(); j++) {
                long in = all - parts[j];
                received.merge(ranks.get(j), in, Long::sum);
                wireBytes += in;
            }
            then.run();
        };
        int n = ranks.size();
        List<Endpoint> members = new ArrayList<>();
        for (int rank : ranks) {
            members.add(inference(rank));
        }
        collective(members, Math.round(whole * (n - 1) / (double) n), true, ibHca, RefitStage.WIRE, label, landed);
    }

    private List<Endpoint> trainers(List<Integer> group) {
        List<Endpoint> members = new ArrayList<>();
        for (int rank : group) {
            members.add(trainer(rank));
        }
        return members;
    }

    /**
     * An NCCL collective among the GPUs {@code members}, logged as {@code stage} (a trainer's gather, or the wire
     * for the inference replicas' all-gather): {@code closed}, a ring all-gather ({@link #allGather},
     * {@link #ringAllGather}); otherwise a broadcast from {@code members.get(0)}, NCCL's pipelined
     * chain ({@link #chain}, the broadcast engines receive, {@link #broadcast}, run among trainer GPUs), each
     * link carrying {@code perLink} bytes over the channels NCCL's search builds, NVLink inside a host, GPUDirect
     * RDMA through each channel's NIC between hosts. A group of one rank, or nothing to move: {@code then} at once.
     */
    private void collective(List<Endpoint> members, long perLink, boolean closed, NcclIbHca ibHca, RefitStage stage,
            String label, Runnable then) {
        if (members.size() < 2 || perLink < 1) {
            then.run();
            return;
        }
        Map<String, List<TopologyNode>> gpus = BroadcastOrder.gpusByHost(this, members);
        int channels = (int) Math.max(1, Math.min(BroadcastOrder.channels(this, gpus, ibHca), perLink));
        double start = clock().now();
        Countdown all = new Countdown(channels, () -> {
            log.add(stage, start, clock().now());
            then.run();
        });
        long part = perLink / channels;
        // the channels leave together: one re-solve for all of them, not one per channel
        together(() -> {
            for (int k = 0; k < channels; k++) {
                int ch = k;
                long b = k == 0 ? perLink - part * (channels - 1) : part;
                pipelined(closed ? BroadcastOrder.ringOrder(this, members, gpus, ch, ibHca)
                        : BroadcastOrder.channelOrder(this, members, gpus, ch, ibHca), closed,
                        e -> BroadcastOrder.channelNic(this, cluster.host(e.host()), gpus.get(e.host()), ch, ibHca), b,
                        channels == 1 ? label : label + "/ch" + ch, all::arrive);
            }
        });
    }

    /** Gathers then converts {@code bytes} on the trainer GPU {@code gpu}, then {@code then}. */
    void prepare(Endpoint gpu, long bytes, Runnable then) {
        gpuWork(RefitStage.GATHER, gpu, gatherSeconds(gpu, bytes),
                () -> gpuWork(RefitStage.CONVERT, gpu, convertSeconds(gpu, bytes), then));
    }

    /** Posts one RDMA transfer through the workload run (the backend's lanes), landing on inference rank {@code rank}. */
    void post(TransferItem item, int rank, Consumer<TransferResult> then) {
        post(item, rank, null, then);
    }

    /**
     * Posts one RDMA transfer on {@code lanes} (an engine that opens one NIC a side itself), landing on inference
     * rank {@code rank}; null lanes: the backend's, as {@link #post(TransferItem, int, Consumer)}.
     */
    void post(TransferItem item, int rank, List<LaneSplit.Candidate> lanes, Consumer<TransferResult> then) {
        double start = clock().now();
        run.post(item, lanes, r -> {
            if (r.failed()) {
                throw new IllegalStateException("refit transfer " + item.id() + " failed: " + r.failure());
            }
            double now = clock().now();
            log.add(RefitStage.WIRE, start, now);
            transfers.add(r);
            wireBytes += item.bytes();
            received.merge(rank, item.bytes(), Long::sum);
            busy(Bound.of(r.bottleneck()), start, now);
            then.accept(r);
        });
    }

    /**
     * An NCCL broadcast of {@code bytes} from {@code members.get(0)} to the rest, over the channels NCCL's
     * topology search would build ({@link BroadcastOrder#channels}). Each channel carries its own part of the
     * buffer ({@code ncclCollCbdPart} gives channel c its offset and count, NVIDIA/nccl src/device/broadcast.h
     * L22, v2.30.7-1) as one pipelined ring ({@link #chain}); channel k crosses between hosts through NIC k of
     * each host ({@link BroadcastOrder#channelNic}), so a broadcast across hosts moves at the sum of the NICs
     * its channels use, bounded by NVLink and by what leaves the root GPU: the root is only where the data
     * enters the rings, so all channels start from its GPU and share its links. The broadcast ends when its
     * last channel does.
     *
     * @param members the root first, then the receivers in chain order
     * @param ranks   the inference ranks of {@code members} after the root (landing bytes)
     */
    void broadcast(List<Endpoint> members, List<Integer> ranks, NcclIbHca ibHca, long bytes, String label,
            Runnable then) {
        if (members.size() < 2) {
            clock().schedule(0, then);
            return;
        }
        Map<String, List<TopologyNode>> gpus = BroadcastOrder.gpusByHost(this, members);
        int channels = (int) Math.max(1, Math.min(BroadcastOrder.channels(this, gpus, ibHca), bytes));
        double start = clock().now();
        Countdown all = new Countdown(channels, () -> {
            double now = clock().now();
            log.add(RefitStage.WIRE, start, now);
            wireBytes += bytes * (long) ranks.size();
            for (int r : ranks) {
                received.merge(r, bytes, Long::sum);
            }
            then.run();
        });
        long part = bytes / channels;
        together(() -> {
            for (int k = 0; k < channels; k++) {
                int ch = k;
                long b = k == 0 ? bytes - part * (channels - 1) : part;
                chain(BroadcastOrder.channelOrder(this, members, gpus, ch, ibHca),
                        e -> BroadcastOrder.channelNic(this, cluster.host(e.host()), gpus.get(e.host()), ch, ibHca), b,
                        channels == 1 ? label : label + "/ch" + ch, all::arrive);
            }
        });
    }

    /**
     * Runs {@code issue}, whose sends all leave now (an NCCL group of send/recv pairs), with one re-solve of
     * the rates after it rather than one per send ({@link org.rdmasim.fluid.FluidNetwork#together}).
     */
    void together(Runnable issue) {
        cluster.network().together(issue);
    }

    /**
     * An NCCL send of {@code bytes} from GPU {@code from} to inference rank {@code rank} (a send/recv pair
     * inside an NCCL group). NCCL's P2P over its net transport leaves and enters each host by the NICs
     * nearest each GPU, channel c taking the c-th of them ({@code ncclTopoGetLocalNet} adds the channel id to
     * the GPU's NIC index, NVIDIA/nccl {@code src/graph/topo.cc}): what the channel search of a two-rank
     * communicator gives, so the pair runs as {@link #broadcast} over the two GPUs, one chain per such NIC.
     */
    void send(Endpoint from, int rank, long bytes, NcclIbHca ibHca, String label, Runnable then) {
        broadcast(List.of(from, inference(rank)), List.of(rank), ibHca, bytes, label, then);
    }

    /**
     * One pipelined broadcast chain, NCCL's ring broadcast ({@code runRing} in NVIDIA/nccl
     * {@code src/device/broadcast.h}: the root sends each chunk to the next rank, every middle rank receives
     * it and sends it on while the next chunk arrives, the last rank only receives). In steady state every
     * byte crosses every hop at one rate, so the chain is one fluid flow over the union of its hops'
     * resources (a resource two hops cross counts twice), which max-min shares with everything else
     * running; the last rank then lags the root by one step per hop after the first ({@code
     * refit.ncclStepBytes} at the chain's mean rate). Hops between hosts leave by the NIC {@code nic} gives
     * for the host, GPUDirect both sides, from the host's GPU in the chain nearest that NIC (NCCL's PXN: the
     * last GPU hands its data over NVLink to the GPU beside the NIC, which on a host with only the root in
     * the chain is the root itself, over its own PCIe link); hops inside a host go over NVLink.
     */
    private void chain(List<Endpoint> members, java.util.function.Function<Endpoint, TopologyNode> nic, long bytes,
            String label, Runnable then) {
        pipelined(members, false, nic, bytes, label, then);
    }

    /**
     * A pipelined chain ({@link #chain}) or, {@code closed}, a ring whose last member also sends to the first (a
     * ring all-gather's: every member sends on what it received). A chain's last rank lags the root by n - 2 steps:
     * hop k idles until the first chunk has crossed the k hops before it. A ring has no such fill: at step 0 of each
     * chunk every rank sends its own part, and steps 1 to n - 2 forward what the step before brought
     * (NVIDIA/nccl v2.29.7-1 src/device/all_gather.h:44-72, runRing), so every link carries from the start.
     */
    private void pipelined(List<Endpoint> members, boolean closed,
            java.util.function.Function<Endpoint, TopologyNode> nic, long bytes, String label, Runnable then) {
        List<Resource> path = new ArrayList<>();
        List<Double> usage = new ArrayList<>();
        int runStart = 0;
        int links = closed ? members.size() : members.size() - 1;
        for (int k = 0; k < links; k++) {
            Endpoint a = members.get(k);
            Endpoint b = members.get((k + 1) % members.size());
            if (!a.host().equals(members.get(runStart).host())) {
                runStart = k;
            }
            Endpoint exit = a;
            if (!a.host().equals(b.host())) {
                // the ring leaves the host through the NIC-side GPU of the host's run (NCCL's ring enters and
                // leaves a node through the same NIC, from the GPU beside it)
                Host h = cluster.host(a.host());
                TopologyNode n = nic.apply(a);
                for (int m = runStart; m <= k; m++) {
                    if (h.relation(gpu(members.get(m)), n).compareTo(h.relation(gpu(exit), n)) < 0) {
                        exit = members.get(m);
                    }
                }
            }
            hop(a, b, exit, nic, bytes, label, path, usage);
        }
        int hops = members.size() - 1;
        double start = clock().now();
        double step = plan.calibration().value(RefitCalibration.NCCL_STEP);
        cluster.network().start(label, path, usage, 1.0, Double.POSITIVE_INFINITY, bytes, f -> {
            double end = clock().now();
            double rate = end > start ? bytes / (end - start) : Double.POSITIVE_INFINITY;
            double fill = closed ? 0 : (hops - 1) * Math.min(step, bytes) / rate;
            Bound bound = Bound.of(f);
            clock().schedule(fill, new ChainEnd(() -> {
                busy(bound, start, clock().now());
                then.run();
            }));
        });
    }

    private void hop(Endpoint a, Endpoint b, Endpoint exit, java.util.function.Function<Endpoint, TopologyNode> nic,
            long bytes, String label, List<Resource> path, List<Double> usage) {
        TopologyNode ga = gpu(a);
        TopologyNode gb = gpu(b);
        if (a.host().equals(b.host())) {
            insideHost(a, b, path, usage);
            return;
        }
        // PXN: the last GPU hands the data over NVLink to the GPU beside the NIC
        Endpoint from = peers.addHandOver(cluster.host(a.host()), ga, gpu(exit), path, usage) ? exit : a;
        TransferSpec spec = new TransferSpec(label, from, b, bytes, Operation.WRITE, 1, DataPath.GPUDIRECT,
                DataPath.GPUDIRECT, false, 0);
        Lane lane = new Lane(nic.apply(from).name(), nic.apply(b).name(), bytes);
        List<Double> u = new ArrayList<>();
        path.addAll(engine.lanePath(spec, lane, u));
        usage.addAll(u);
    }

    /** GPU {@code a} to GPU {@code b} of one host, the route hardware gives ({@link GpuPeerRoutes#addWithin}). */
    private void insideHost(Endpoint a, Endpoint b, List<Resource> path, List<Double> usage) {
        peers.addWithin(cluster.host(a.host()), gpu(a), gpu(b), path, usage);
    }

    /**
     * A read of {@code bytes} by GPU {@code to} from GPU {@code from} of the same host, peer to peer (UCX's
     * {@code cuda_ipc}), landing on inference rank {@code rank}: one fluid flow over the path
     * {@link #insideHost} gives, a wire stage.
     */
    void nvlinkRead(Endpoint from, Endpoint to, int rank, long bytes, String label, Runnable then) {
        if (!from.host().equals(to.host())) {
            throw new IllegalArgumentException(from + " and " + to + " are on different hosts: no NVLink between them");
        }
        List<Resource> path = new ArrayList<>();
        List<Double> usage = new ArrayList<>();
        insideHost(from, to, path, usage);
        double start = clock().now();
        cluster.network().start(label, path, usage, 1.0, Double.POSITIVE_INFINITY, bytes, f -> {
            Bound bound = Bound.of(f);
            clock().schedule(0, new CopyEnd(() -> {
                double now = clock().now();
                log.add(RefitStage.WIRE, start, now);
                wireBytes += bytes;
                received.merge(rank, bytes, Long::sum);
                busy(bound, start, now);
                then.run();
            }));
        });
    }

    /**
     * Copies {@code bytes} from host memory of the GPU's own socket (checkpoint-engine binds each rank to
     * its GPU's NUMA node) into the GPU over PCIe: one fluid flow through the socket's memory and the
     * links down to the GPU.
     */
    void h2d(Endpoint e, long bytes, String label, Runnable then) {
        Host h = cluster.host(e.host());
        TopologyNode g = gpu(e);
        List<Resource> path = new ArrayList<>();
        path.add(cluster.hostMemory(h, g.socket()));
        path.addAll(cluster.fromSocket(h, g.socket(), g));
        hostCopy(path, bytes, label, then);
    }

    /**
     * Copies {@code bytes} from the GPU to host memory of its own socket over PCIe (a {@code .cpu()} staging):
     * one fluid flow up the links from the GPU and into the socket's memory. Logged as a host copy ({@link
     * RefitStage#H2D}: the stage of every PCIe copy between host memory and GPU).
     */
    void d2h(Endpoint e, long bytes, String label, Runnable then) {
        Host h = cluster.host(e.host());
        TopologyNode g = gpu(e);
        List<Resource> path = new ArrayList<>(cluster.toSocket(h, g, g.socket()));
        path.add(cluster.hostMemory(h, g.socket()));
        hostCopy(path, bytes, label, then);
    }

    /** One PCIe copy between host memory and a GPU along {@code path}, logged as a host copy with what bounded it. */
    private void hostCopy(List<Resource> path, long bytes, String label, Runnable then) {
        double start = clock().now();
        cluster.network().start(label, path, 1.0, Double.POSITIVE_INFINITY, bytes, f -> {
            Bound bound = Bound.of(f);
            clock().schedule(0, new CopyEnd(() -> {
                double now = clock().now();
                log.add(RefitStage.H2D, start, now);
                busy(bound, start, now);
                then.run();
            }));
        });
    }

    /** Bytes that reach inference rank {@code rank} without crossing anything (its GPU is the broadcast's root). */
    void landed(int rank, long bytes) {
        received.merge(rank, bytes, Long::sum);
    }

    /**
     * The engines' lock ({@link EnginesLock}) was held from {@code start} to {@code end}: a limit of its own, as
     * it serialises the senders' buckets from their call through the engines' load.
     */
    void enginesLockHeld(double start, double end) {
        if (end > start) {
            busy("engines' lock", "the engines' lock (one bucket at a time from its call through the engines' load)",
                    List.of(), start, end);
        }
    }

    /**
     * A broadcast under the engines' lock ran from {@code start} to {@code end}: the engines' streams take one at a
     * time, in the lock's order, a limit of their own beside the lock (which covers the calls and the loads).
     */
    void enginesStreamsBusy(double start, double end) {
        if (end > start) {
            busy("engines' streams", "the engines' streams (one broadcast at a time, in the lock's order, the loads "
                    + "beside them)", List.of(), start, end);
        }
    }

    private void busy(String id, String words, List<String> costOf, double start, double end) {
        busy(new Bound(List.of(id), List.of(words), costOf, List.of()), start, end);
    }

    private void busy(Bound bound, double start, double end) {
        busyByLimit.computeIfAbsent(bound.id(), k -> new ArrayList<>()).add(new double[] {start, end});
        bounds.putIfAbsent(bound.id(), bound);
    }

    /**
     * What bounded one piece of work (a flow, a transfer, a GPU call), as ids and words: one limit, or the
     * limits that tie for holding it longest ({@link HeldLongest}, the rule a pull's bound follows); and the
     * stage parameters those limits are a cost of (a per-call cost; none for a bandwidth). Not a
     * {@link Bottleneck}: a refit's GPU work and NVLink ports are limits no cluster resource names.
     */
    private record Bound(List<String> ids, List<String> words, List<String> costOf,
            List<org.rdmasim.hardware.ProfileParameter> profileParameters) {
        /** A flow's: the limits it spent the longest seconds under, ties named together. */
        static Bound of(Flow f) {
            List<Limit> held = HeldLongest.longest(f.secondsByLimiter());
            return of(held.isEmpty() ? List.of(f.limiter()) : held);
        }

        /** A transfer's bound, a tie as its limits. */
        static Bound of(Bottleneck b) {
            return of(b instanceof Bottleneck.Tie t ? t.limits() : List.of(b));
        }

        private static Bound of(List<? extends Limit> limits) {
            // a posting rate is the protocol's per-descriptor cost, a number the answer then rests on
            List<String> costOf = limits.stream().anyMatch(l -> l instanceof Bottleneck.PostingRate
                    || l instanceof Bottleneck.Degraded d && d.nominal() instanceof Bottleneck.PostingRate)
                    ? List.of(RefitRun.PER_DESCRIPTOR) : List.of();
            // a calibrated or assumed rate (a NIC's READ rate) is a profile's number, which the answer rests on
            List<org.rdmasim.hardware.ProfileParameter> profile = limits.stream()
                    .flatMap(l -> l instanceof Bottleneck b ? b.parameters().stream() : java.util.stream.Stream.empty())
                    .distinct().toList();
            return new Bound(limits.stream().map(Limit::id).toList(), limits.stream()
                    .map(l -> l instanceof Bottleneck b ? b.words() : l.id()).toList(), costOf, profile);
        }

        /** The bounds of pieces that held for the same, longest time, as one: a tie of all their limits. */
        static Bound tied(List<Bound> bounds) {
            Map<String, String> all = new LinkedHashMap<>();
            Set<String> costOf = new LinkedHashSet<>();
            Set<org.rdmasim.hardware.ProfileParameter> profile = new LinkedHashSet<>();
            for (Bound b : bounds) {
                for (int i = 0; i < b.ids.size(); i++) {
                    all.putIfAbsent(b.ids.get(i), b.words.get(i));
                }
                costOf.addAll(b.costOf);
                profile.addAll(b.profileParameters);
            }
            return new Bound(List.copyOf(all.keySet()), List.copyOf(all.values()), List.copyOf(costOf),
                    List.copyOf(profile));
        }

        String id() {
            return ids.size() == 1 ? ids.get(0) : Bottleneck.Tie.idOf(ids);
        }

        String text() {
            return words.size() == 1 ? words.get(0) : Bottleneck.Tie.wordsOf(words);
        }
    }

    // ---- per cycle

    void beginCycle(int c) {
        cycle = c;
        log.clear();
        received.clear();
        busyByLimit.clear();
        bounds.clear();
        wireBytes = 0;
    }

    StageLog log() {
        return log;
    }

    SortedMap<Integer, Long> received() {
        return new TreeMap<>(received);
    }

    long wireBytes() {
        return wireBytes;
    }

    List<TransferResult> transfers() {
        return List.copyOf(transfers);
    }

    /**
     * The limit that was busy longest during the cycle's method stages (union of the intervals pieces spent
     * under it): in a pipeline the stage that never waits, in a one-shot pull the slowest path. Limits busy for
     * the same, longest time are a tie, named together ({@link HeldLongest#longest}, a pull's rule): two NICs
     * each carrying half the wire bound the cycle equally. {@link CycleBound#NONE} when nothing was busy.
     */
    CycleBound bound() {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (Map.Entry<String, List<double[]>> e : busyByLimit.entrySet()) {
            StageLog one = new StageLog();
            for (double[] iv : e.getValue()) {
                one.add(RefitStage.WIRE, iv[0], iv[1]);
            }
            seconds.put(e.getKey(), one.busySeconds().get(RefitStage.WIRE));
        }
        List<String> longest = HeldLongest.longest(seconds);
        if (longest.isEmpty()) {
            return CycleBound.NONE;
        }
        Bound b = Bound.tied(longest.stream().map(bounds::get).toList());
        return new CycleBound(b.id(), b.text(), b.costOf(), b.profileParameters());
    }
}
