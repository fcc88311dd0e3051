package org.rdmasim.refit.method;

import org.rdmasim.transport.config.NcclIbHca;

/**
 * MoonshotAI's checkpoint-engine ({@code checkpoint_engine/ps.py} @415c3205, {@code _update_per_bucket}), both its
 * modes run by {@link CheckpointUpdate} as the code runs them: the converted weights wait in host memory, each
 * owner rank's share cut into buckets of its own; round after round, every receiver gets its next bucket into its
 * GPU's H2D buffer (the broadcast update: each owner copies its own over PCIe, all at once; the P2P update: the
 * updated ranks read them from the owners' host memory over RDMA), then bucket after bucket is copied into half
 * {@code gidx % 2} of the double broadcast buffer, broadcast over one process group
 * ({@code dist.broadcast(buffer_b, src=brank)}) and reloaded by every inference engine through CUDA IPC
 * ({@code load_weights} per bucket), a reload overlapping the next broadcast. Each bucket pays the per-bucket
 * fixed cost ({@link RefitCalibration#BUCKET}) before its broadcast. The buffers are always two: the code has no
 * single-buffer mode. Not modelled: the fallback without an H2D buffer when GPU memory is short (L1043-1060).
 *
 * <p>The owners are the plan's trainer ranks (their GPUs' hosts hold the weights in host memory; a
 * colocated deployment places them on inference GPUs). No gather or conversion: the host copy is already the
 * inference checkpoint. The bucket size is the caller's, or checkpoint-engine's own rule
 * ({@link Buckets#checkpointEngineRule}).
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
        if (buckets.depth() != 2) {
            throw new IllegalArgumentException("checkpoint-engine always broadcasts from two halves of one buffer "
                    + "(checkpoint_engine/ps.py L1215)");
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

    /** What the P2P update needs of a host's RDMA devices, as {@link #p2pDevicesProblem} is said against. */
    public static final String P2P_DEVICES_RULE = CheckpointUpdate.P2P_DEVICES_RULE;

    /**
     * What keeps the P2P update from opening host {@code h}'s RDMA devices (those {@code ibHca} leaves, or its compute
     * NICs), "host h has 3 RDMA devices for 8 GPUs", or null when it can: checkpoint-engine splits them evenly over
     * the host's GPUs.
     */
    public static String p2pDevicesProblem(org.rdmasim.hardware.Host h, NcclIbHca ibHca) {
        return CheckpointUpdate.devicesProblem(h, ibHca);
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
        CheckpointUpdate.run(this, ctx, done);
    }
}
