package org.rdmasim.refit.method;

/**
 * The stages of one refit, in the order a cycle passes through them. A pipelined method runs some of them
 * at once (a bucket's wire stage beside the next bucket's fill), so a cycle reports, per stage, how long
 * at least one unit of work was in it, not a share of the wall time.
 */
public enum RefitStage {
    /** The inference engine stops taking new work and drains in-flight requests. */
    PAUSE,
    /**
     * Trainer ranks gather full tensors from their shards: an FSDP all-gather over NVLink ({@code full_tensor()}),
     * or Megatron's TP and EP all-gathers of a broadcast bucket to its sender, over NVLink and, for a group that
     * spans hosts, the fabric ({@link WireContext#shardGather}).
     */
    GATHER,
    /**
     * Conversion on the trainer side: dtype cast, projection fusion, quantisation on the GPU; for miles' P2P update,
     * the sender's load of its CPU replica beyond the copy ({@link RefitCalibration#REPLICA_LOAD}).
     */
    CONVERT,
    /** Memory registration of the buffers the method's NICs touch (first cycle, or every cycle uncached). */
    REGISTER,
    /** Host-to-device copies over PCIe (a checkpoint engine's weights live in host memory). */
    H2D,
    /**
     * A bucket's fixed cost before its bytes move: the call that announces it to the engine, the collective's
     * launch, per-bucket bookkeeping ({@link RefitCalibration#BUCKET}), for broadcast methods; for NeMo-RL's
     * shard-to-shard refit, the host work of its xferdtensor calls ({@link RefitCalibration#RESHARD_CALL}).
     */
    DISPATCH,
    /** The bytes on the fabric (and NVLink hops of a broadcast chain). */
    WIRE,
    /** Copies into the engine's weight tensors on the inference GPU (reload). */
    INSTALL,
    /**
     * checkpoint-engine's update end, once per update after its last load: buffers released with gc, IPC collection
     * and cache emptied, the engines' post-load hook, its closing barriers and the process group destroyed
     * ({@link RefitCalibration#CKPT_UPDATE_END}). checkpoint-engine only.
     */
    UPDATE_END,
    /**
     * verl's frame around its checkpoint engine, once per update: the manager's abort, process groups, finalize and
     * resume and the vLLM adapter's per-update work ({@link RefitCalibration#VERL_UPDATE_FRAME}). A refit timed by
     * verl's trainer through that manager only.
     */
    VERL_FRAME,
    /** The global barrier that ends the update. */
    BARRIER,
    /** The engine takes work again. */
    RESUME
}
