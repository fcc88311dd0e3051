package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.config.NcclIbHca;
import org.rdmasim.workload.RefitRegistrationMode;
import org.rdmasim.workload.TransferItem;

/**
 * checkpoint-engine's update, {@code ParameterServer.update} (MoonshotAI/checkpoint-engine
 * {@code checkpoint_engine/ps.py} at 415c3205, {@code _update_per_bucket} L1163-1279), as its code runs it, in
 * both its modes. Without {@code ranks} (the broadcast update) every rank is its own buckets' receiver
 * ({@code _gen_h2d_buckets} L592-594: "if ranks is empty, assign the owner_rank as receiver_rank"): at the top of
 * round i every owner copies its i-th bucket from its host memory into its GPU's {@code h2d_buffer}, all owners
 * at once (L1235-1241), and only then do the round's broadcasts go, owner after owner, to every inference rank;
 * a round's copies wait for its previous round's last hand-over, so they overlap only the engines' last load.
 * With {@code ranks} set (the P2P update):
 * <ul>
 *   <li>The weights stay where they were registered: in pinned host memory of every owner rank (the plan's
 *       trainer ranks; {@code examples/update.py} splits the checkpoint over all world ranks), each owner's
 *       buffers registered with its own Mooncake Transfer Engine ({@code register_checkpoint} L818-841).</li>
 *   <li>Buckets are cut per owner: {@code _gen_h2d_buckets} (L559-596) starts a new bucket at each owner, so a
 *       bucket never spans two owners' memory.</li>
 *   <li>Receivers ({@code _assign_receiver_ranks}, L599-654): of the updated ranks, the lowest rank of each
 *       group sharing one RDMA device on one host, at most as many as the owners' device groups. Owner buckets
 *       are grouped by the owner's device, taken column by column (first bucket of every group, then the
 *       second, ...), and dealt to the receivers in rounds, a round ending early when an owner device would
 *       serve two receivers in it.</li>
 *   <li>Iteration i (L1235-1268): every receiver reads its i-th bucket with one synchronous
 *       {@code batch_transfer_sync_read} (L1094, an RDMA READ from the owner's host memory into the receiver's
 *       GPU {@code h2d_buffer}, one request per contiguous range of the owner's pinned buffers); then, for
 *       each receiver in turn, the receiver copies its bucket into half {@code gidx % 2} of the double
 *       broadcast buffer, {@code dist.broadcast}s it over the process group of the updated ranks only, and
 *       every updated rank's engine loads it ({@code socket.send_pyobj} of the bucket's tensors; vLLM's
 *       {@code load_weights} per bucket, {@code checkpoint_engine/worker.py} L57-75, as in broadcast mode).
 *       The next broadcast waits for the engine to have acknowledged the bucket before (the
 *       {@code socket.recv()} before {@code send_pyobj}), so a load overlaps the next broadcast, as in the
 *       broadcast mode; the next iteration's reads start after the iteration's last bucket is handed over.</li>
 *   <li>Each rank's Transfer Engine opens one RDMA device ({@code P2PStore.__init__} L680-708,
 *       {@code _get_my_rdma_device} L314-326: {@code devices[local_rank // (gpu_count // len(devices))]}), so
 *       a read leaves the owner host by the owner's device and enters by the receiver's, over the endpoint's
 *       two QPs ({@link #MOONCAKE_QPS_PER_ENDPOINT}).</li>
 *   <li>Every update registers its GPU {@code h2d_buffer} (one bucket) with the Transfer Engine and
 *       unregisters it at the end (L1205-1208, L1276-1277): priced per cycle with the registration model's
 *       terms (one MR on one HCA); the deregistration is not priced.</li>
 * </ul>
 * Each bucket pays the per-bucket fixed cost ({@link RefitCalibration#BUCKET}) and its tensors the engine's
 * per-tensor load ({@link RefitCalibration#LOAD_TENSOR}) exactly as the broadcast mode does. Both modes end with the
 * update's end ({@link RefitCalibration#CKPT_UPDATE_END}, calibrated on a broadcast update), once per update after
 * the last load. ASSUMED, 0 beyond it: building the process group the P2P update creates for its ranks
 * (checkpoint_engine/ps.py @59a3c4f L571-574: the world group again, destroyed by the update before, and
 * {@code dist.new_group(ranks)}), which the timed update contains and no source measures apart.
 */
final class CheckpointUpdate {
    /**
     * RC QPs of one Mooncake endpoint (an HCA pair), {@code num_qp_per_ep = 2} (kvcache-ai/Mooncake
     * {@code mooncake-transfer-engine/include/config.h}: L34 at v0.3.6, September 2025, the release line
     * checkpoint-engine's {@code mooncake-transfer-engine>=0.3.5} took when its table was measured; L51 at
     * 3b5a59413). v0.3.6's {@code submitPostSend} posts each batch of slices on a QP drawn at random
     * ({@code rdma_endpoint.cpp} L271); 3b5a59413 splits a batch evenly over them (L926-990). A bucket is tens of
     * thousands of 64 KiB slices in many batches, so a read runs as one lane per QP on the same two devices,
     * equal shares (ASSUMED: the random draws even out over a bucket).
     */
    static final int MOONCAKE_QPS_PER_ENDPOINT = 2;

    /** checkpoint-engine pins an owner's weights in buffers of 4 GiB (or the largest tensor): ps.py L470. */
    static final long PINNED_BUFFER = 4L << 30;

    /** A bucket: bytes [from, from + size) of the broadcast payload, all in owner {@code owner}'s host memory. */
    record Bucket(int owner, long from, long size) {
    }

    /** A bucket and the updated inference rank that reads it. */
    record Assigned(int receiver, Bucket bucket) {
    }

    private final CheckpointEngine refit;
    private final WireContext ctx;
    /** The broadcast update: owners receive their own buckets, by a host-to-GPU copy, and broadcast them to all. */
    private final boolean local;
    private final Runnable done;
    private final List<Integer> updated;
    private final List<List<Assigned>> rounds = new ArrayList<>();
    private final long payload;
    private final double perBucket;
    private final double updateEnd;
    private int gidx;
    private boolean loading;
    private Runnable afterLoad;

    private CheckpointUpdate(CheckpointEngine refit, WireContext ctx, Runnable done) {
        this.refit = refit;
        this.ctx = ctx;
        this.done = done;
        this.payload = ctx.plan().broadcastBytes();
        if (payload < 1) {
            throw new IllegalArgumentException("a checkpoint engine needs the bytes every inference rank receives "
                    + "(the plan's broadcastBytes)");
        }
        List<Integer> all = ctx.inferenceRanks();
        if (refit.p2pRanks() > all.size()) {
            throw new IllegalArgumentException("a P2P update of " + refit.p2pRanks() + " ranks needs as many inference "
                    + "ranks; the plan has " + all.size());
        }
        this.local = !refit.p2p();
        this.updated = local ? all : all.subList(0, refit.p2pRanks());
        this.perBucket = ctx.plan().calibration().value(RefitCalibration.BUCKET);
        this.updateEnd = ctx.plan().calibration().value(RefitCalibration.CKPT_UPDATE_END);
        List<Integer> owners = ctx.trainerRanks();
        List<Bucket> buckets = buckets(owners.size(), payload, refit.buckets().bucketBytes());
        List<Assigned> assigned;
        if (local) {
            // each owner receives its own buckets (the receiver index is the owner's)
            assigned = new ArrayList<>();
            for (Bucket b : buckets) {
                assigned.add(new Assigned(b.owner(), b));
            }
        } else {
            assigned = assign(buckets, o -> key(ctx.trainer(owners.get(o))), updated, r -> key(ctx.inference(r)));
        }
        Map<Integer, List<Assigned>> byReceiver = new LinkedHashMap<>();
        for (Assigned a : assigned) {
            byReceiver.computeIfAbsent(a.receiver(), k -> new ArrayList<>()).add(a);
        }
        int longest = byReceiver.values().stream().mapToInt(List::size).max().orElse(0);
        for (int i = 0; i < longest; i++) {
            List<Assigned> round = new ArrayList<>();
            for (List<Assigned> mine : byReceiver.values()) {
                if (i < mine.size()) {
                    round.add(mine.get(i));
                }
            }
            rounds.add(round);
        }
    }

    /** Runs one update of {@code refit} on {@code ctx} (its mode's); {@code done} once the last bucket is loaded. */
    static void run(CheckpointEngine refit, WireContext ctx, Runnable done) {
        CheckpointUpdate u = new CheckpointUpdate(refit, ctx, done);
        if (u.local) {
            // the broadcast update registers nothing with a transfer engine (no p2p store, L1204-1208)
            u.round(0);
            return;
        }
        Registration h2dBuffer = new Registration(RefitRegistrationMode.ARENA, 0, false, 1, 1);
        double register = h2dBuffer.seconds(ctx.registrationTerms(), refit.buckets().bucketBytes(), 1);
        ctx.hold(RefitStage.REGISTER, register, () -> u.round(0));
    }

    /**
     * Each owner's share of {@code payload} (owner k holds bytes [k P / n, (k + 1) P / n)), cut into buckets of at
     * most {@code bucketBytes}, owner after owner. ASSUMED: equal shares in bytes; {@code examples/update.py}
     * ({@code split_tensors}) gives each rank an equal count of tensors in the index's order, whose bytes differ.
     */
    static List<Bucket> buckets(int owners, long payload, long bucketBytes) {
        if (owners < 1 || payload < owners || bucketBytes < 1) {
            throw new IllegalArgumentException("a P2P update needs owners, at least a byte each and a bucket size");
        }
        List<Bucket> out = new ArrayList<>();
        for (int k = 0; k < owners; k++) {
            long start = shareStart(payload, owners, k);
            long end = shareStart(payload, owners, k + 1);
            for (long from = start; from < end; from += bucketBytes) {
                out.add(new Bucket(k, from, Math.min(bucketBytes, end - from)));
            }
        }
        return out;
    }

    /**
     * {@code _assign_receiver_ranks} (ps.py L599-654): buckets grouped by their owner's RDMA device
     * ({@code ownerDevice}, by owner index), receivers the lowest updated rank of each device group
     * ({@code rankDevice}) up to the number of owner groups, buckets taken column by column and dealt to the
     * receivers in rounds; a round ends early at a bucket whose owner device already serves one in it. In the
     * code's order.
     */
    static List<Assigned> assign(List<Bucket> buckets, IntFunction<String> ownerDevice, List<Integer> updated,
            IntFunction<String> rankDevice) {
        Map<String, List<Bucket>> rows = new LinkedHashMap<>();
        for (Bucket b : buckets) {
            rows.computeIfAbsent(ownerDevice.apply(b.owner()), k -> new ArrayList<>()).add(b);
        }
        Map<String, Integer> groups = new LinkedHashMap<>();
        for (int r : updated) {
            groups.merge(rankDevice.apply(r), r, Math::min);
        }
        int n = Math.min(groups.size(), rows.size());
        List<Integer> receivers = new ArrayList<>(groups.values()).subList(0, n);
        List<Bucket> flat = new ArrayList<>();
        int columns = rows.values().stream().mapToInt(List::size).max().orElse(0);
        for (int c = 0; c < columns; c++) {
            for (List<Bucket> row : rows.values()) {
                if (c < row.size()) {
                    flat.add(row.get(c));
                }
            }
        }
        List<Assigned> out = new ArrayList<>();
        int next = 0;
        while (next < flat.size()) {
            Set<String> occupied = new LinkedHashSet<>();
            for (int receiver : receivers) {
                if (next >= flat.size()) {
                    break;
                }
                Bucket b = flat.get(next);
                if (!occupied.add(ownerDevice.apply(b.owner()))) {
                    break;
                }
                out.add(new Assigned(receiver, b));
                next++;
            }
        }
        return out;
    }

    /** The RDMA device a rank on {@code e}'s GPU opens, as "host/device". */
    private String key(Endpoint e) {
        return e.host() + "/" + device(ctx.host(e.host()), ctx.gpu(e), refit.ibHca()).name();
    }

    /**
     * {@code _get_my_rdma_device} (ps.py L314-326): the host's RDMA devices split evenly over its GPUs in order,
     * local rank k taking {@code devices[k // (gpus // len(devices))]}. The devices are those
     * {@code NCCL_IB_HCA} selects (ps.py L302-311); unset, checkpoint-engine takes every device
     * {@code ibv_get_device_list} returns. ASSUMED then: the host's compute NICs only, as a host with storage
     * ports beside them (a DGX H100's twelve ports for eight GPUs) fails checkpoint-engine's own check
     * ({@code len(devices) <= gpu_count}) and so must have been run with a list naming them.
     */
    static TopologyNode device(Host h, TopologyNode gpu, NcclIbHca ibHca) {
        List<TopologyNode> devices = devices(h, ibHca);
        String problem = devicesProblem(h, ibHca);
        if (problem != null) {
            // RefitSetup refuses such a host at load (CheckpointEngine.p2pDevicesProblem); kept for a plan built by hand
            throw new IllegalArgumentException(problem + ": " + P2P_DEVICES_RULE);
        }
        int gpus = h.gpus().size();
        int local = h.gpus().indexOf(gpu);
        return devices.get(local / (gpus / devices.size()));
    }

    private static List<TopologyNode> devices(Host h, NcclIbHca ibHca) {
        if (!ibHca.restricts()) {
            return h.computeNics();
        }
        Set<String> allowed = new java.util.HashSet<>(ibHca.gpuNics(h.name(),
                h.nics().stream().map(TopologyNode::name).toList(), h.listedOnlyNics()));
        return h.nics().stream().filter(n -> allowed.contains(n.name())).toList();
    }

    /** What {@link #device} needs of a host's RDMA devices. */
    static final String P2P_DEVICES_RULE = "checkpoint-engine's P2P store needs at most one RDMA device per GPU, the "
            + "GPU count a multiple of them (checkpoint_engine/ps.py _get_my_rdma_device)";

    /**
     * What keeps {@link #device} from splitting host {@code h}'s RDMA devices over its GPUs ("host h has 3 RDMA
     * devices for 8 GPUs", against {@link #P2P_DEVICES_RULE}), or null when it can.
     */
    static String devicesProblem(Host h, NcclIbHca ibHca) {
        int devices = devices(h, ibHca).size();
        int gpus = h.gpus().size();
        if (devices == 0 || devices > gpus || gpus % devices != 0) {
            return "host " + h.name() + " has " + devices + " RDMA devices for " + gpus + " GPUs";
        }
        return null;
    }

    /** Iteration {@code i}: every receiver of the round reads its bucket at once; the broadcasts follow. */
    private void round(int i) {
        if (i == rounds.size()) {
            // the update's end (RefitCalibration.CKPT_UPDATE_END): buffers released, gc, the post-load hook,
            // the closing barriers, the process group destroyed; once per update, after the last load
            whenLoaded(() -> ctx.hold(RefitStage.UPDATE_END, updateEnd, done));
            return;
        }
        List<Assigned> round = rounds.get(i);
        Countdown reads = new Countdown(round.size(), () -> broadcast(i, 0));
        for (Assigned a : round) {
            read(a, reads::arrive);
        }
    }

    /**
     * The receiver's bucket into its GPU's {@code h2d_buffer}: in the broadcast update the owner's own copy from its
     * host memory ({@code _copy_to_buffer} without an owner rank, L1065-1095); in the P2P update one synchronous
     * {@code batch_transfer_sync_read} from the owner's host memory over RDMA.
     */
    private void read(Assigned a, Runnable then) {
        Bucket b = a.bucket();
        Endpoint ownerGpu = ctx.trainer(ctx.trainerRanks().get(b.owner()));
        if (local) {
            ctx.h2d(ownerGpu, b.size(), "c" + ctx.cycle() + "/ckpt/t" + b.owner() + "@" + b.from() + "/h2d", then);
            return;
        }
        Host ownerHost = ctx.host(ownerGpu.host());
        TopologyNode ownerNic = device(ownerHost, ctx.gpu(ownerGpu), refit.ibHca());
        // host memory of the owner GPU's socket: checkpoint-engine binds each rank to its GPU's NUMA node
        Endpoint memory = new Endpoint(ownerGpu.host(), "CPU" + ctx.gpu(ownerGpu).socket());
        Endpoint to = ctx.inference(a.receiver());
        TopologyNode receiverNic = device(ctx.host(to.host()), ctx.gpu(to), refit.ibHca());
        TransferItem item = new TransferItem("c" + ctx.cycle() + "/ckpt-p2p/t" + b.owner() + "-i" + a.receiver()
                + "@" + b.from(), memory, to, b.size(), 0, Operation.READ, ranges(b));
        List<LaneSplit.Candidate> qps = new ArrayList<>();
        for (int q = 0; q < MOONCAKE_QPS_PER_ENDPOINT; q++) {
            qps.add(new LaneSplit.Candidate(ownerNic.name(), receiverNic.name(), 1.0));
        }
        ctx.post(item, a.receiver(), qps, r -> then.run());
    }

    /** The requests of one read: one per pinned buffer of the owner the bucket spans (one per {@code BucketRange}). */
    private int ranges(Bucket b) {
        long ownerStart = shareStart(payload, ctx.trainerRanks().size(), b.owner());
        long first = (b.from() - ownerStart) / PINNED_BUFFER;
        long last = (b.from() + b.size() - 1 - ownerStart) / PINNED_BUFFER;
        return (int) (last - first + 1);
    }

    /** Where owner {@code k}'s share of {@code payload} starts (owner {@code owners}: the payload's end). */
    static long shareStart(long payload, int owners, int k) {
        return Math.multiplyExact(payload, (long) k) / owners;
    }

    /** Receiver {@code j} of round {@code i}: copy into the broadcast buffer, the bucket's call, the broadcast, the load. */
    private void broadcast(int i, int j) {
        List<Assigned> round = rounds.get(i);
        if (j == round.size()) {
            round(i + 1);
            return;
        }
        Assigned a = round.get(j);
        Bucket b = a.bucket();
        Endpoint root = local ? ctx.trainer(ctx.trainerRanks().get(b.owner())) : ctx.inference(a.receiver());
        List<Integer> chain = BroadcastOrder.chain(ctx, updated, root, 0);
        String label = "c" + ctx.cycle() + (local ? "/ckpt/b" : "/ckpt-p2p/b") + gidx++;
        long tensors = ctx.plan().broadcastTensorsIn(b.from(), b.from() + b.size());
        ctx.gpuWork(RefitStage.H2D, root, ctx.copySeconds(root, b.size()),
                () -> ctx.gpuWork(RefitStage.DISPATCH, root, perBucket,
                        () -> ctx.broadcast(BroadcastOrder.members(ctx, root, chain), chain, refit.ibHca(), b.size(),
                                label, () -> {
                                    if (local) {
                                        // an inference rank on the owner's own GPU has the bucket without a wire
                                        BroadcastOrder.landedAtRoot(ctx, root, b.size());
                                    }
                                    whenLoaded(() -> {
                                        load(b, tensors);
                                        broadcast(i, j + 1);
                                    });
                                })));
    }

    /** Every updated rank's engine loads the bucket ({@code load_weights} over its tensors, then its share's copy). */
    private void load(Bucket b, long tensors) {
        loading = true;
        BroadcastOrder.install(ctx, updated, r -> BroadcastOrder.share(ctx, r, b.size(), payload), tensors, () -> {
            loading = false;
            Runnable next = afterLoad;
            afterLoad = null;
            if (next != null) {
                next.run();
            }
        });
    }

    /** Runs {@code next} once the engines have acknowledged the bucket handed over last. */
    private void whenLoaded(Runnable next) {
        if (loading) {
            afterLoad = next;
        } else {
            next.run();
        }
    }
}
