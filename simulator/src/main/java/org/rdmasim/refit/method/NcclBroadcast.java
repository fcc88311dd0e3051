package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.transport.config.NcclIbHca;
import org.rdmasim.workload.Senders;

/**
 * NCCL broadcast per bucket, as verl's checkpoint engines and NeMo-RL's broadcast path run it: the
 * converted model is cut into buckets; a sender fills a bucket on its GPU (gather, conversion), then
 * broadcasts it whole to every inference rank, each of which copies the part it needs into its weights.
 *
 * <ul>
 *   <li>one sender (the stock {@code nccl} engine): trainer rank 0 sends every bucket, so one GPU's NIC
 *       carries the model ("with a single sender, broadcast bandwidth is capped by the one NIC reachable
 *       from the source GPU", verl-project/verl PR #7291, issue #7167);</li>
 *   <li>striped ({@code nccl_parallel}, verl-project/verl PR #7263): all S trainer ranks send at once, each
 *       owning every S-th bucket of the one bucket sequence, over its own NCCL group; receivers join all S
 *       groups. Broadcasts of one group run one after another; the groups run side by side.</li>
 *   <li>N senders, 1 < N < S (no engine ships this setting; rdmasim poses it so that {@code size --vary
 *       senders} can ask how many senders a target needs): as striped, over N trainer ranks evenly spaced in
 *       rank order, rank {@code i * S / N} for i = 0..N-1, so that they land on as many hosts and NICs as
 *       they can.</li>
 *   <li>one at a time ({@code oneAtATime}, miles' and slime's Megatron update): the head of each pipeline stage
 *       (data, context and tensor rank 0) sends its stage's buckets over its own group {@code miles-pp_<stage>}
 *       (radixark/miles {@code update_weight_from_distributed/broadcast.py} L63-79 @9a6fc9e6; THUDM/slime
 *       {@code update_weight_from_distributed.py} L76-81 @624b824a8), posed as N = pp evenly spaced senders, which in
 *       Megatron's rank order ({@code TrainerLayout}, pp outermost) are exactly the stage heads; each bucket's
 *       call takes the engines' lock first and keeps it until the engines reply ({@link EnginesLock}:
 *       broadcast.py L85-97), which they do once their host has queued the bucket's load, not once its bytes have
 *       landed: PyTorch's {@code wait()} on an asynchronous NCCL collective blocks no host, so the broadcast runs
 *       on the devices beside the engines' load, the broadcasts one at a time in the lock's order (each engine
 *       rank's stream orders them), and a head's next bucket waits for its broadcast to end
 *       ({@link BucketPipeline}); a stage head that finds the lock taken tries again 0.1 s later, so the lock
 *       goes to whoever tries first once it is free, often the head that just let it go.</li>
 * </ul>
 * Each broadcast runs over NCCL's channels, each a pipelined chain from the sender through the receivers
 * carrying its part of the bucket and crossing hosts through its own NIC ({@link WireContext#broadcast}). The bucket buffer is the broadcast's
 * own buffer on every rank, so with double buffering the next bucket fills while this one is sent and
 * installed. Each bucket pays the per-bucket fixed cost ({@link RefitCalibration#BUCKET}) before its broadcast
 * starts, in its communicator's order.
 *
 * @param senders trainer ranks that send: 1 rank 0 alone, 0 every trainer rank, N evenly spaced ranks
 * @param ibHca {@code NCCL_IB_HCA} in the variant's environment: the NICs NCCL may use on each host
 * @param oneAtATime the senders' buckets go on the wire one at a time under the engines' lock, not each
 *                   sender's on its own communicator at once
 */
public record NcclBroadcast(Buckets buckets, int senders, NcclIbHca ibHca, boolean oneAtATime)
        implements BroadcastRefit {
    public NcclBroadcast {
        if (buckets == null) {
            throw new IllegalArgumentException("a broadcast needs its bucket size");
        }
        if (senders < 0) {
            throw new IllegalArgumentException("senders is 0 (all) or a count of trainer ranks, got " + senders);
        }
        if (ibHca == null) {
            throw new IllegalArgumentException("a broadcast needs its NCCL_IB_HCA (NcclIbHca.unset() when not set)");
        }
    }

    /** Senders each on its own communicator, their broadcasts at once. */
    public NcclBroadcast(Buckets buckets, int senders, NcclIbHca ibHca) {
        this(buckets, senders, ibHca, false);
    }

    /**
     * The broadcast a refit's {@code senders} asks for. Stage heads are posed as N = pp evenly spaced senders: in
     * Megatron's rank order (pp outermost) those are the first rank of each stage.
     *
     * @param stages the trainer's pipeline stages
     */
    public static NcclBroadcast of(Buckets buckets, Senders senders, int stages, NcclIbHca ibHca) {
        if (senders instanceof Senders.Ranks r) {
            return new NcclBroadcast(buckets, r.count(), ibHca);
        }
        return new NcclBroadcast(buckets, stages, ibHca, true);
    }

    public NcclBroadcast(Buckets buckets, boolean striped, NcclIbHca ibHca) {
        this(buckets, striped ? 0 : 1, ibHca);
    }

    public static NcclBroadcast fromRankZero(Buckets buckets) {
        return new NcclBroadcast(buckets, 1, NcclIbHca.unset());
    }

    public static NcclBroadcast stripedOverTrainers(Buckets buckets) {
        return new NcclBroadcast(buckets, 0, NcclIbHca.unset());
    }

    /** More than one trainer rank sends. */
    public boolean striped() {
        return senders != 1;
    }

    @Override
    public String name() {
        return oneAtATime && striped() ? "nccl-broadcast-stage-heads" : striped() ? "nccl-broadcast-striped"
                : "nccl-broadcast";
    }

    /** The sending trainer ranks: rank 0, all, or N evenly spaced. */
    static List<Integer> senders(List<Integer> trainerRanks, int count) {
        int s = trainerRanks.size();
        if (count == 0 || count >= s) {
            return trainerRanks;
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(trainerRanks.get((int) ((long) i * s / count)));
        }
        return out;
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        // the sender gathers its bucket's shards and converts them to the inference layout
        new BucketedBroadcast(this, "an NCCL broadcast", "bcast")
                .run(ctx, senders(ctx.trainerRanks(), this.senders),
                        (root, size, label, then) -> ctx.prepare(root, size, then),
                        oneAtATime ? BucketPipeline.WireOrder.LOCKED : BucketPipeline.WireOrder.PER_SENDER, done);
    }
}
