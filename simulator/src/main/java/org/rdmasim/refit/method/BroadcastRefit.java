package org.rdmasim.refit.method;

import java.util.List;

/**
 * A refit that broadcasts the converted model bucket by bucket from trainer GPUs to every inference rank
 * ({@link NcclBroadcast}, {@link CheckpointEngine}); its plan carries the whole model as broadcast bytes.
 * Both run the bucket loop of {@link BucketedBroadcast} and register only their bucket buffers.
 */
public sealed interface BroadcastRefit extends RefitMethod permits NcclBroadcast, CheckpointEngine {
    /** The bucket size and buffering. */
    Buckets buckets();

    /** NCCL_IB_HCA's list of NICs NCCL may use (empty: all). */
    List<String> ibHca();

    @Override
    default double registrationSeconds(WireContext ctx) {
        return RouteRegistration.bucketBuffers(ctx, buckets());
    }
}
