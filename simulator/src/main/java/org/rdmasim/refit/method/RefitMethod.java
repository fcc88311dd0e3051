package org.rdmasim.refit.method;

/**
 * How a refit moves weights from trainer GPUs to inference GPUs, one implementation per method real systems
 * use. Each runs the part of a cycle between registration and the barrier on a {@link WireContext}: the
 * preparation on the trainer GPUs, host copies, the wire, and the install into the engine, with the overlap the
 * real system has.
 *
 * <p>The scenario names a method by its {@link org.rdmasim.workload.RefitMethodKind}, which also carries the
 * traits asked before any plan is built (whether the method sends in buckets, reads {@code NCCL_IB_HCA}, rides
 * UCX's lanes, is one a variant's "what would halve it" tries); the scenario reader, the sizing search and those
 * reruns branch on the kind, and {@link org.rdmasim.refit.RefitSetup} builds the implementation from it and
 * describes the plan by it. Once a plan is built, a few places still ask its method's type: {@link RefitRun}
 * (which stage parameters and registration terms a result rests on: none for {@link ColocatedIpc}, the scatter
 * and pack costs for {@link ShardedRdt} only), {@link RefitCalibration#loadsTensors}, and RefitSetup and the run
 * package for what an implementation holds ({@link NcclP2p#bulk}, {@link RdmaPull#hostReplica},
 * {@link CheckpointEngine#p2p}).
 * <ul>
 *   <li>{@link RdmaPull}: receiver-driven RDMA READ of the slice map's runs (NIXL/ModelExpress), optionally
 *       with inference-to-inference tree fan-out;</li>
 *   <li>{@link ShardedRdt}: vLLM's sharded RDT engine, per gather group, each consumer's slice read from one
 *       producer's packed blob (vLLM, SkyRL);</li>
 *   <li>{@link NcclP2p}: NCCL send/recv of the slice map's runs, shard to shard, replicas striped and
 *       all-gathered (NeMo-RL's {@code nccl_reshard} through {@code xferdtensor_python_impl});</li>
 *   <li>{@link WriteSchedule}: a static RDMA WRITE schedule, pipelined per sender (Perplexity's TransferEngine);</li>
 *   <li>{@link BroadcastRefit}, bucket by bucket to every inference rank:
 *     <ul>
 *       <li>{@link NcclBroadcast}: NCCL broadcast per bucket, from one rank or striped over trainer ranks;</li>
 *       <li>{@link CheckpointEngine}: host memory to GPU, broadcast, reload (MoonshotAI checkpoint-engine); its
 *           P2P update reads the buckets from the owners' host memory over RDMA instead ({@link CheckpointUpdate}).</li>
 *     </ul></li>
 *   <li>{@link ColocatedIpc}: trainer and engine on the same GPUs, weights handed over through CUDA IPC
 *       handles bucket by bucket (slime, verl, OpenRLHF's hybrid engine); no NIC.</li>
 * </ul>
 */
public sealed interface RefitMethod permits RdmaPull, WriteSchedule, BroadcastRefit, NixlRing, ColocatedIpc,
        NcclP2p, ShardedRdt {
    /** A short name for results. */
    String name();

    /** Seconds one cycle that pays for registration spends in it (ranks register at once: the slowest). */
    double registrationSeconds(WireContext ctx);

    /** Runs the method's stages of one cycle on {@code ctx}'s clock and calls {@code done} when the last byte is installed. */
    void run(WireContext ctx, Runnable done);
}
