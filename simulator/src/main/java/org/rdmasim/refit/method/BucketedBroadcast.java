package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.transport.Endpoint;

/**
 * The bucket loop of an NCCL broadcast refit ({@link NcclBroadcast}; checkpoint-engine runs its own rounds,
 * {@link CheckpointUpdate}): the plan's
 * broadcast payload is cut into buckets, bucket b belongs to root {@code b mod roots}; each bucket is filled
 * on its root's GPU (after Megatron's gather of the bucket to the root, {@link WireContext#shardGather}, when the
 * trainer is a sharded Megatron one, and beside the sender's walk over its tensors when an FSDP trainer's
 * are sent one by one, {@link TensorWalk}), pays the per-bucket call cost ({@link RefitCalibration#BUCKET}), is broadcast down the
 * chain through the inference ranks, and is installed by every rank that receives it (its engine's
 * {@code load_weights} over the bucket's tensors, then the copy). How a root fills a bucket and which trainer
 * ranks are roots are given.
 *
 * <p>Each root has its own communicator, so root s's chain is stripe s: concurrent chains enter hosts through
 * different GPUs. Its buckets go on the wire in its own order ({@link BucketPipeline.WireOrder#PER_SENDER},
 * verl's {@code nccl_parallel}), or under the engines' lock, which a root holds from its bucket's call until the
 * engines reply, their load queued, while the broadcasts go one at a time on the devices
 * ({@link BucketPipeline.WireOrder#LOCKED}, {@link EnginesLock}, miles' update, {@link NcclBroadcast#oneAtATime}).
 *
 * @param refit the method: its bucket size and buffering, and the NICs NCCL may use
 * @param noun the method as its errors name it ("an NCCL broadcast")
 * @param tag the method's part of every transfer label ({@code c<cycle>/<tag>/b<bucket>})
 */
record BucketedBroadcast(BroadcastRefit refit, String noun, String tag) {

    /** How a root fills one bucket on its GPU before the bucket's call: starts, and calls {@code then} once done. */
    @FunctionalInterface
    interface Fill {
        void start(Endpoint root, long size, String label, Runnable then);
    }

    /**
     * Runs every bucket from {@code roots} (trainer ranks), filling each with {@code fill}, the buckets going on the
     * wire in {@code order}; calls {@code done} once all are installed.
     */
    void run(WireContext ctx, List<Integer> roots, Fill fill, BucketPipeline.WireOrder order, Runnable done) {
        long payload = ctx.plan().broadcastBytes();
        if (payload < 1) {
            throw new IllegalArgumentException(noun + " needs the bytes every inference rank receives "
                    + "(the plan's broadcastBytes)");
        }
        Buckets buckets = refit.buckets();
        int n = buckets.count(payload);
        double perBucket = ctx.plan().calibration().value(RefitCalibration.BUCKET);
        List<BucketPipeline.Unit> units = new ArrayList<>();
        // verl's send loop over an FSDP trainer walks the tensors one by one, in bucket order whoever sends
        TensorWalk walk = new TensorWalk(ctx);
        long from = 0;
        for (int b = 0; b < n; b++) {
            int s = b % roots.size();
            Endpoint root = ctx.trainer(roots.get(s));
            long size = buckets.sizeOf(b, payload);
            long tensors = ctx.plan().broadcastTensorsIn(from, from + size);
            long offset = from;
            from += size;
            int rootRank = roots.get(s);
            List<Integer> receivers = BroadcastOrder.chain(ctx, root,
                    s);
            List<Integer> installing = BroadcastOrder.installing(ctx, root, receivers);
            String label = "c" + ctx.cycle() + "/" + tag + "/b" + b;
            int bucket = b;
            units.add(new BucketPipeline.Unit(s,
                    // Megatron's gather of the bucket to its root comes first: the sender packs only what it holds
                    then -> walk.pack(bucket, root, tensors, packed -> ctx.shardGather(rootRank, offset, size,
                            refit.ibHca(), label + "/gather", () -> fill.start(root, size, label, packed)), then),
                    then -> ctx.gpuWork(RefitStage.DISPATCH, root, perBucket, then),
                    then -> ctx.broadcast(BroadcastOrder.members(ctx, root, receivers), receivers, refit.ibHca(),
                            size, label, () -> {
                                BroadcastOrder.landedAtRoot(ctx, root, size);
                                then.run();
                            }),
                    then -> BroadcastOrder.install(ctx, installing, size, payload, tensors, then)));
        }
        BucketPipeline.inOrder(units, buckets.depth(), order, () -> new EnginesLock(ctx.clock(), ctx::enginesLockHeld, ctx::enginesStreamsBusy),
                done).start();
    }
}
