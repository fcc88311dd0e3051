package org.rdmasim.refit.method;

import org.rdmasim.transport.config.NcclIbHca;

/**
 * MoonshotAI's checkpoint-engine in broadcast mode ({@code checkpoint_engine/ps.py},
 * {@code _update_per_bucket}): the converted weights wait in host memory, split among owner ranks; bucket by
 * bucket, the owner copies its bucket from host memory into its GPU over PCIe (H2D, into an H2D buffer,
 * then a device copy into half {@code gidx % 2} of the double broadcast buffer), broadcasts it to all ranks
 * over one process group ({@code dist.broadcast(buffer_b, src=brank)}, in issue order), and every inference
 * engine reloads what it needs from the buffer through CUDA IPC. The README gives the three stages (H2D,
 * broadcast, reload) and notes the full three-stage pipeline is not implemented: the double buffer lets the
 * reload of one bucket overlap the next broadcast, which is what is modelled here. Each bucket pays the
 * per-bucket fixed cost ({@link RefitCalibration#BUCKET}) before its broadcast.
 *
 * <p>The owners are the plan's trainer ranks (their GPUs' hosts hold the weights in host memory; a
 * colocated deployment places them on inference GPUs), bucket b owned by the (b mod owners)-th. No
 * gather or conversion: the host copy is already the inference checkpoint. The bucket size is the
 * caller's, or checkpoint-engine's own rule ({@link Buckets#checkpointEngineRule}).
 *
 * @param ibHca {@code NCCL_IB_HCA} in the variant's environment: the NICs NCCL may use on each host
 */
public record CheckpointEngine(Buckets buckets, NcclIbHca ibHca) implements BroadcastRefit {
    public CheckpointEngine {
        if (buckets == null) {
            throw new IllegalArgumentException("a checkpoint engine needs its bucket size");
        }
        if (ibHca == null) {
            throw new IllegalArgumentException("a checkpoint engine needs its NCCL_IB_HCA (NcclIbHca.unset() when not set)");
        }
    }

    public static CheckpointEngine of(Buckets buckets) {
        return new CheckpointEngine(buckets, NcclIbHca.unset());
    }

    @Override
    public String name() {
        return "checkpoint-engine";
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        // the owner copies its bucket from host memory into its H2D buffer, then into the broadcast buffer
        new BucketedBroadcast(this, "a checkpoint engine", "ckpt", BucketPipeline.WireOrder.GLOBAL)
                .run(ctx, ctx.trainerRanks(), (root, size, label, then) -> ctx.h2d(root, size, label + "/h2d",
                        () -> ctx.gpuWork(RefitStage.H2D, root, ctx.copySeconds(root, size), then)), done);
    }
}
