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
 *
 * <p>With {@code p2pRanks} above 0 it runs checkpoint-engine's P2P update instead ({@link P2pUpdate}): the
 * inference ranks 0 to {@code p2pRanks - 1} read the buckets from the owners' host memory over RDMA (Mooncake's
 * Transfer Engine), broadcast them among themselves and load them.
 *
 * @param ibHca    {@code NCCL_IB_HCA} in the variant's environment: the NICs NCCL may use on each host
 * @param p2pRanks 0: the broadcast update; N: the P2P update of inference ranks 0 to N - 1
 *                 ({@code ParameterServer.update(ranks=range(0, N))})
 */
public record CheckpointEngine(Buckets buckets, NcclIbHca ibHca, int p2pRanks) implements BroadcastRefit {
    public CheckpointEngine {
        if (buckets == null) {
            throw new IllegalArgumentException("a checkpoint engine needs its bucket size");
        }
        if (ibHca == null) {
            throw new IllegalArgumentException("a checkpoint engine needs its NCCL_IB_HCA (NcclIbHca.unset() when not set)");
        }
        if (p2pRanks < 0) {
            throw new IllegalArgumentException("a P2P update names at least one rank (0: the broadcast update), got "
                    + p2pRanks);
        }
    }

    /** The broadcast update. */
    public CheckpointEngine(Buckets buckets, NcclIbHca ibHca) {
        this(buckets, ibHca, 0);
    }

    public static CheckpointEngine of(Buckets buckets) {
        return new CheckpointEngine(buckets, NcclIbHca.unset());
    }

    /** The P2P update of inference ranks 0 to {@code ranks - 1}, NCCL_IB_HCA unset. */
    public static CheckpointEngine p2p(Buckets buckets, int ranks) {
        if (ranks < 1) {
            throw new IllegalArgumentException("a P2P update names at least one rank, got " + ranks);
        }
        return new CheckpointEngine(buckets, NcclIbHca.unset(), ranks);
    }

    /** Whether this is the P2P update. */
    public boolean p2p() {
        return p2pRanks > 0;
    }

    @Override
    public String name() {
        return p2p() ? "checkpoint-engine p2p" : "checkpoint-engine";
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        if (p2p()) {
            P2pUpdate.run(this, ctx, done);
            return;
        }
        // the owner copies its bucket from host memory into its H2D buffer, then into the broadcast buffer
        new BucketedBroadcast(this, "a checkpoint engine", "ckpt", BucketPipeline.WireOrder.GLOBAL)
                .run(ctx, ctx.trainerRanks(), (root, size, label, then) -> ctx.h2d(root, size, label + "/h2d",
                        () -> ctx.gpuWork(RefitStage.H2D, root, ctx.copySeconds(root, size), then)), done);
    }
}
