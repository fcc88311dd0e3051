package org.rdmasim.refit.method;

import org.rdmasim.transport.config.NcclIbHca;

/**
 * A refit that broadcasts the converted model bucket by bucket from trainer GPUs to every inference rank
 * ({@link NcclBroadcast}, {@link CheckpointEngine}); its plan carries the whole model as broadcast bytes.
 * An NCCL broadcast runs the bucket loop of {@link BucketedBroadcast}, checkpoint-engine its own rounds
 * ({@link CheckpointUpdate}); both register only their bucket buffers.
 */
public sealed interface BroadcastRefit extends RefitMethod permits NcclBroadcast, CheckpointEngine {
    /** The bucket size and buffering. */
    Buckets buckets();

    /** {@code NCCL_IB_HCA}: the NICs NCCL may use on each host ({@link NcclIbHca#unset()}: every one). */
    NcclIbHca ibHca();

    @Override
    default double registrationSeconds(WireContext ctx) {
        return RouteRegistration.bucketBuffers(ctx, buckets());
    }
}
