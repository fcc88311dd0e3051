package org.rdmasim.refit.method;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.transport.Endpoint;

/**
 * The trainer's walk over the tensors it sends, as verl's checkpoint engines run it over an FSDP trainer: one Python
 * loop takes each tensor from the engine's generator ({@code full_tensor()}, an all-gather every FSDP rank calls in
 * lockstep), casts it and copies it into the bucket ({@link RefitCalibration#PACK_TENSOR}, per tensor; verl-project/verl
 * 6f33c553b {@code verl/checkpoint_engine/nccl_checkpoint_engine.py:225-262}). The walk is one sequence in bucket order
 * whichever rank owns a bucket: with several senders ({@code nccl_parallel}) every rank walks every tensor
 * (verl-project/verl e88dcf17b {@code verl/checkpoint_engine/nccl_parallel_checkpoint_engine.py:25-29}), so bucket b's
 * walk starts once bucket b - 1's has ended and its sender has a free buffer. The GPU work a bucket's calls launch (the
 * all-gather's and the copies' bytes) runs beside its walk, and the bucket is packed once both are done.
 *
 * <p>A plan whose sender runs no such loop ({@link RefitCalibration#packsTensors}) fills its buckets with the GPU work
 * alone, as before.
 */
final class TensorWalk {
    private final WireContext ctx;
    private final double perTensor;
    private final boolean walks;
    /** Buckets whose sender is ready to pack them, by bucket index, waiting for the walk to reach them. */
    private final Map<Integer, Runnable> ready = new TreeMap<>();
    private int next;
    private boolean walking;

    TensorWalk(WireContext ctx) {
        this.ctx = ctx;
        this.walks = RefitCalibration.packsTensors(ctx.plan());
        this.perTensor = ctx.plan().calibration().value(RefitCalibration.PACK_TENSOR);
    }

    /**
     * Packs bucket {@code bucket} ({@code tensors} tensors) on {@code sender}: once the walk reaches it, walks its
     * tensors while {@code work} (the GPU work of its bytes) runs, and calls {@code then} when both are done. Without
     * the loop, {@code work} alone.
     */
    void pack(int bucket, Endpoint sender, long tensors, java.util.function.Consumer<Runnable> work, Runnable then) {
        if (!walks || perTensor <= 0) {
            work.accept(then);
            return;
        }
        ready.put(bucket, () -> {
            Countdown packed = new Countdown(2, then);
            ctx.gpuCall(RefitStage.GATHER, sender, tensors * perTensor, "pack calls", "the sender's walk over "
                    + "the bucket's tensors, one full_tensor(), cast and copy each", List.of(RefitCalibration.PACK_TENSOR),
                    () -> {
                        walking = false;
                        next++;
                        packed.arrive();
                        advance();
                    });
            work.accept(packed::arrive);
        });
        advance();
    }

    private void advance() {
        if (walking) {
            return;
        }
        Runnable r = ready.remove(next);
        if (r != null) {
            walking = true;
            r.run();
        }
    }
}
