package org.rdmasim.workload;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A refit as a scenario states it ({@code workload: refit:}), in plain values: the model, the trainer's and
 * the inference engine's layouts placed on host groups, the transfer method with its knobs, and the cycles.
 * The refit packages build their plan from it; this layer only carries it.
 *
 * @param model            a HuggingFace config.json or an explicit tensor list, resolved against the scenario
 * @param inferenceDtype   the dtype inference loads ({@code fp8}: block-quantised 128 x 128, {@code bf16}), null
 *                         for the checkpoint's own
 * @param trainerHosts     hosts holding the trainer ranks, rank r on host r / GPUs-per-host, GPU r % GPUs-per-host
 * @param inferenceHosts   hosts holding the inference ranks, placed the same way
 * @param method           the transfer method ({@link RefitMethodKind})
 * @param registration     how the GPU memory the NICs touch is registered ({@link RefitRegistrationMode})
 * @param poolSegments     allocator segments a pooled registration registers (read for {@code pool} only)
 * @param stageSeconds     the scenario's values of the named stage parameters (pause, resume, barrier), by key
 */
public record RefitSpec(Path model, String inferenceDtype, List<String> trainerHosts, Trainer trainer,
        List<String> inferenceHosts, Inference inference, RefitMethodKind method, Knobs knobs,
        RefitRegistrationMode registration, int poolSegments, boolean registrationCached, int registrationHcas,
        int cycles, Map<String, Double> stageSeconds) {
    /**
     * {@code registrationHcas} when the scenario does not say: as many HCAs as UCX maps a trainer GPU buffer on
     * for a method whose registrations go through UCX, else 1 ({@code RefitSetup} resolves it).
     */
    public static final int REGISTRATION_HCAS_AS_UCX_MAPS = 0;

    public RefitSpec {
        if (registrationHcas < 0) {
            throw new IllegalArgumentException("registrationHcas must be >= 1, or 0 for as many as UCX maps");
        }
        trainerHosts = List.copyOf(trainerHosts);
        inferenceHosts = List.copyOf(inferenceHosts);
        stageSeconds = Map.copyOf(stageSeconds);
    }

    /**
     * Megatron sizes: tensor, pipeline, expert, expert-tensor, context and data parallel; FSDP over dp; decoder
     * layers on the first and last pipeline stage (0: an even split); the dtype the trainer holds its weights in
     * ({@code fp32}, or null for the checkpoint's own); whether FSDP keeps each rank's parameter shard in host
     * memory between steps (FSDP's {@code CPUOffload(offload_params=True)}).
     */
    public record Trainer(int tp, int pp, int ep, int etp, int cp, int dp, boolean fsdp, int firstStageLayers,
            int lastStageLayers, String dtype, boolean offloaded) {
        /** A trainer holding the checkpoint's dtype on its GPUs. */
        public Trainer(int tp, int pp, int ep, int etp, int cp, int dp, boolean fsdp, int firstStageLayers,
                int lastStageLayers) {
            this(tp, pp, ep, etp, cp, dp, fsdp, firstStageLayers, lastStageLayers, null, false);
        }

        public int ranks() {
            return tp * pp * cp * dp;
        }
    }

    /**
     * vLLM sizes: TP per engine, DP engines, expert parallel over all TP x DP ranks, EPLB redundant experts; and the
     * engine the ranks run, when the scenario states it (null: not stated, no engine-specific load step priced).
     */
    public record Inference(int tp, int dp, boolean expertParallel, int redundantExperts, boolean separateEngines,
            InferenceEngine engine, boolean firstReplicaReads) {
        /**
         * The replica reads spread over the replicas (ModelExpress' opt-in rotation by receiver rank), as a
         * scenario that does not say has them.
         */
        public Inference(int tp, int dp, boolean expertParallel, int redundantExperts, boolean separateEngines,
                InferenceEngine engine) {
            this(tp, dp, expertParallel, redundantExperts, separateEngines, engine, false);
        }

        /** DP inside one engine (vLLM's {@code data_parallel_size}). */
        public Inference(int tp, int dp, boolean expertParallel, int redundantExperts) {
            this(tp, dp, expertParallel, redundantExperts, false);
        }

        /** The engine not stated. */
        public Inference(int tp, int dp, boolean expertParallel, int redundantExperts, boolean separateEngines) {
            this(tp, dp, expertParallel, redundantExperts, separateEngines, null);
        }

        public int ranks() {
            return tp * dp;
        }
    }

    /**
     * The method's knobs.
     *
     * @param senders        broadcast senders ({@link Senders}): trainer rank 0 alone (verl's nccl engine), every
     *                       trainer rank striped (verl nccl_parallel), N trainer ranks evenly spaced in rank order, or
     *                       the head of each pipeline stage
     * @param treeChildren   RDMA pull: inference ranks each rank serves its shard to (0: no tree)
     * @param bucketBytes    bucket (broadcast, checkpoint engine) or piece (WRITE schedule) size; 0 when unset
     * @param doubleBuffered two buffers per sender, filling one while the other is on the wire
     * @param hostBounce     colocated IPC: each bucket staged in host memory and back (D2H then H2D)
     * @param perTensorHandles colocated IPC: one CUDA IPC handle per tensor instead of one per bucket
     * @param everyParameterShardToShard NCCL send/recv: every parameter shard to shard (NeMo-RL PR #2808's scope)
     *                       instead of FFN projections only with the rest broadcast (PR #2971's)
     * @param spareSlot      sharded RDT: one receive slot more than pulls in flight (no scatter wait per pull)
     * @param p2pRanks       checkpoint-engine: 0 for its broadcast update, N for its P2P update of inference ranks
     *                       0 to N - 1 ({@code ParameterServer.update(ranks=range(0, N))})
     * @param receiverStaggered WRITE schedule: each sender starts at its own receiver (an assumed order) instead
     *                       of the slice map's order
     * @param hostReplica    rdma-pull: the senders write from a CPU replica of each engine rank's shard in host
     *                       memory, loaded from the trainer GPU before the wire (miles' P2P update)
     * @param verlManager    the time is verl's trainer timer around its checkpoint-engine manager into vLLM rollouts
     *                       (the frame around the engine paid once per update), not the engine's own log
     */
    public record Knobs(Senders senders, int treeChildren, long bucketBytes, boolean doubleBuffered, boolean hostBounce,
            boolean perTensorHandles, boolean everyParameterShardToShard, boolean spareSlot, int p2pRanks,
            boolean receiverStaggered, boolean hostReplica, boolean verlManager) {
        /**
         * The knobs every method shares, every method-specific one off (a broadcast's or a pull's defaults): the
         * one place a try or a scenario starts from fresh knobs, so none is dropped by a shorter constructor.
         */
        public static Knobs of(Senders senders, int treeChildren, long bucketBytes, boolean doubleBuffered) {
            return new Knobs(senders, treeChildren, bucketBytes, doubleBuffered, false, false, false, false, 0, false,
                    false, false);
        }

        public Knobs {
            if (senders == null) {
                throw new IllegalArgumentException("a refit's knobs need their senders (Senders.RANK_ZERO when unset)");
            }
            if (p2pRanks < 0) {
                throw new IllegalArgumentException("p2pRanks is 0 (broadcast) or a count of inference ranks, got "
                        + p2pRanks);
            }
        }

        public Knobs withHostBounce(boolean bounce) {
            return new Knobs(senders, treeChildren, bucketBytes, doubleBuffered, bounce, perTensorHandles, everyParameterShardToShard,
                    spareSlot, p2pRanks, receiverStaggered, hostReplica, verlManager);
        }

        public boolean allSenders() {
            return senders.all();
        }

        public Knobs withSenders(Senders n) {
            return new Knobs(n, treeChildren, bucketBytes, doubleBuffered, hostBounce, perTensorHandles,
                    everyParameterShardToShard, spareSlot, p2pRanks, receiverStaggered, hostReplica, verlManager);
        }

        /** The same knobs, timed (or not) through verl's checkpoint-engine manager. */
        public Knobs withVerlManager(boolean managed) {
            return new Knobs(senders, treeChildren, bucketBytes, doubleBuffered, hostBounce, perTensorHandles,
                    everyParameterShardToShard, spareSlot, p2pRanks, receiverStaggered, hostReplica, managed);
        }

        public Knobs withBucket(long bytes) {
            return new Knobs(senders, treeChildren, bytes, doubleBuffered, hostBounce, perTensorHandles,
                    everyParameterShardToShard, spareSlot, p2pRanks, receiverStaggered, hostReplica, verlManager);
        }
    }

    public RefitSpec withMethod(RefitMethodKind newMethod, Knobs newKnobs) {
        return new RefitSpec(model, inferenceDtype, trainerHosts, trainer, inferenceHosts, inference, newMethod, newKnobs,
                registration, poolSegments, registrationCached, registrationHcas, cycles, stageSeconds);
    }

    public RefitSpec withInference(Inference newInference) {
        return new RefitSpec(model, inferenceDtype, trainerHosts, trainer, inferenceHosts, newInference, method, knobs,
                registration, poolSegments, registrationCached, registrationHcas, cycles, stageSeconds);
    }

    /** This refit with the stage parameter {@code key} ({@code refit.loadTensorSeconds}) stated as {@code seconds}. */
    public RefitSpec withStage(String key, double seconds) {
        Map<String, Double> stages = new java.util.HashMap<>(stageSeconds);
        stages.put(key, seconds);
        return new RefitSpec(model, inferenceDtype, trainerHosts, trainer, inferenceHosts, inference, method, knobs,
                registration, poolSegments, registrationCached, registrationHcas, cycles, stages);
    }

    public RefitSpec withRegistration(RefitRegistrationMode mode, int hcas) {
        return new RefitSpec(model, inferenceDtype, trainerHosts, trainer, inferenceHosts, inference, method, knobs, mode,
                poolSegments, registrationCached, hcas, cycles, stageSeconds);
    }
}
