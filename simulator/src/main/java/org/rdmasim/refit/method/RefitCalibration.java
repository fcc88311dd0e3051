package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.CalibrationProfile.Kind;
import org.rdmasim.hardware.CalibrationProfile.Parameter;
import org.rdmasim.transport.citation.Citation;

/**
 * The refit stage costs that no mechanism in rdmasim gives, as {@link CalibrationProfile} parameters (key,
 * value, unit, kind, source): each is derived from source code, calibrated from one named measurement,
 * or assumed. A host's profile may carry any of the keys ({@code refit.pauseSeconds.value=...} in its
 * properties file) and then replaces the default here; no shipped profile does yet, so every platform
 * starts from these defaults and a refit's result lists the ones it rested on.
 *
 * <p>Every other stage is a mechanism: gather and conversion from the GPU's HBM and NVLink rates
 * ({@link org.rdmasim.hardware.GpuModel}), host copies and the wire from the fluid network, registration from {@link org.rdmasim.memory.RegistrationParameters}.
 */
public final class RefitCalibration {
    /** Inference engine pause before an update. */
    public static final String PAUSE = "refit.pauseSeconds";
    /** Inference engine resume after an update. */
    public static final String RESUME = "refit.resumeSeconds";
    /** The global barrier that closes an update. */
    public static final String BARRIER = "refit.barrierSeconds";
    /** How far ahead of the next rank each rank of an NCCL broadcast chain is: one pipeline step. */
    public static final String NCCL_STEP = "refit.ncclStepBytes";
    /**
     * The fixed cost of one bucket of a broadcast method, outside the bytes: the call that tells the engine a
     * bucket is coming, the collective's launch, the engine's per-bucket bookkeeping. Paid before each bucket's
     * broadcast, in the communicator's order (so it adds up over the buckets of one sender).
     */
    public static final String BUCKET = "refit.bucketSeconds";

    /**
     * One CUDA IPC handle opened by the engine ({@code cudaIpcOpenMemHandle} in torch's {@code rebuild_cuda_tensor})
     * and the tensor rebuilt around it: a colocated refit pays it per handle, per engine rank.
     */
    public static final String IPC_OPEN = "refit.ipcOpenSeconds";
    /**
     * One tensor through the engine's {@code load_weights} (its weight loader found, the rank's slice taken, the
     * copy launched), outside the copy's bytes: paid per tensor, per engine rank, by every method whose engine
     * installs what it receives through {@code load_weights}: a broadcast (verl, slime, SkyRL and halo clients
     * call it per bucket), checkpoint-engine ({@code checkpoint_engine/worker.py} @59a3c4f L190-192:
     * {@code self.model_runner.model.load_weights(weights)} per bucket), verl's NIXL ring (each received tensor
     * yielded to the rollout's server adapter, which loads it: {@code nixl_checkpoint_engine.py} L474-479 and
     * {@code base.py} L274-276 at verl-project/verl 980ad6e4) and a
     * colocated refit. RDMA pulls and WRITE schedules land in the engine's own tensors, and NeMo-RL's
     * {@code nccl_reshard_refit} receives straight into the live vLLM parameters (NVIDIA-NeMo/RL @e40aa046e
     * {@code vllm_backend.py} L968-1010): they do not pay it.
     */
    public static final String LOAD_TENSOR = "refit.loadTensorSeconds";

    /**
     * The end of one checkpoint-engine update, after its last bucket is loaded, paid once per update in both its
     * modes (MoonshotAI/checkpoint-engine @59a3c4f): {@code _update_per_bucket} tells the engines to drop the IPC
     * buffer, frees its own buffers and runs {@code gc.collect}, {@code ipc_collect} and {@code empty_cache}
     * ({@code checkpoint_engine/ps.py} L860-869), the engines the same ({@code checkpoint_engine/worker.py} L89-100),
     * then asks the engines for their post hook (ps.py L878-880, worker.py L84-85), vLLM's
     * {@code process_weights_after_loading} (worker.py L200-201), and ends on a barrier of its group (ps.py L883);
     * {@code update} then waits on a store-based barrier of every rank (ps.py L576) and destroys the process group
     * (L583-586) and empties the cache once more (L587), all inside the timer of the benchmark's harness
     * ({@code examples/update.py} L116-117, L123-124). Nothing in the source times these apart, so one figure
     * covers them; a method other than checkpoint-engine does not run this code and does not pay it.
     */
    public static final String CKPT_UPDATE_END = "refit.checkpointEngineUpdateEndSeconds";

    /**
     * MoonshotAI/checkpoint-engine README.md @415c3205, Benchmark: GLM-4.5-Air BF16, "Update (Broadcast)" on 8 x
     * H800, bucket 3.02 GiB: 3.47 s (validation row CKPT-GLM45AIR-8H800).
     */
    static final double CKPT_GLM45AIR_8H800_PUBLISHED = 3.47;
    /**
     * rdmasim's steady cycle of that row with {@link #CKPT_UPDATE_END} at 0 (the H2D copies, the NVLink chains, the
     * bucket calls and the engines' loads per tensor, {@code scenarios/validation/refit-ckpt-engine-h800.yaml}
     * variant {@code glm-4.5-air}); a test holds the model to it, so a change in those mechanisms shows up here.
     */
    static final double CKPT_GLM45AIR_8H800_MODELLED_WITHOUT = 2.1662;

    /**
     * miles' P2P update ({@link RdmaPull#hostReplica}): the sending rank's {@code model_replica.load_weights} into its
     * CPU replica, for each engine rank it serves, beyond the device-to-host copy rdmasim prices at the PCIe link's
     * and the socket's memory rate: seconds per GB (1e9 bytes) of the engine rank's share loaded. The loop is the
     * sender's own and in series (radixark/miles @9a6fc9e6
     * {@code miles/backends/megatron_utils/update_weight/update_weight_from_distributed/p2p.py} L149-150:
     * the replica is loaded, then written, engine rank by engine rank): SGLang's weight loaders run on the CPU
     * model, one Python call per HF tensor of the bucket, each taking the engine rank's slice of the GPU tensor
     * into the pinned CPU parameter with a synchronous copy. Priced per byte, not per tensor: the source's own note
     * is that the replica's load costs most at small EP, where each engine rank holds more bytes while the tensors
     * handed to {@code load_weights} are the same, and over the five BF16 rows of the blog the time the model lacks
     * is 0.24-0.36 s a GB of the engine rank's share each sender loads, where per HF tensor it is 0.10-0.44 ms.
     * What the fit absorbs besides the loaders is not timed apart by any source: the HF conversion of each bucket on
     * the trainer and the engines' post_process_weights. Megatron's TP and EP all-gathers of each bucket are priced
     * apart, by every rank of the stage over its groups' links (RdmaPull's stage gather), so a row whose EP group
     * spans hosts pays them on the fabric.
     */
    public static final String REPLICA_LOAD = "refit.replicaLoadPerGBSeconds";

    /**
     * lm-sys/lm-sys.github.io {@code blog/2026-04-29-p2p-update.md} @89fa558a (the same table in radixark/miles
     * @9a6fc9e6 {@code docs/en/advanced/p2p-weight-transfer.md}): Qwen3-30B-A3B, train TP4 EP8 on 2 nodes, inference
     * TP8 EP8 on 2 nodes, RDMA 2,160.2 ms (validation row LMSYS-Q30B-RDMA).
     */
    static final double LMSYS_Q30B_RDMA_PUBLISHED = 2.1602;
    /**
     * rdmasim's steady cycle of that row with {@link #REPLICA_LOAD} at 0 (each bucket's TP4 and EP8 all-gathers on
     * NVLink, the replicas' device-to-host copies and the WRITEs from host memory, {@code scenarios/validation/refit-lmsys-p2p-h100.yaml} variant
     * {@code qwen3-30b-rdma}); a test holds the model to it, so a change in those mechanisms shows up here.
     */
    static final double LMSYS_Q30B_RDMA_MODELLED_WITHOUT = 0.2758;
    /**
     * Bytes each sender of that row loads into its replica a cycle: one engine rank's share of Qwen3-30B-A3B under
     * TP8 EP8 ({@code rdmasim model scenarios/models/qwen3-30b-a3b.json --tp 8 --ep 8}), once, as plan_p2p gives each
     * of its 16 trainer ranks one of the 16 inference ranks ({@code p2p_transfer_utils.py} L99-103 @9a6fc9e6).
     */
    static final long LMSYS_Q30B_ENGINE_RANK_BYTES = 7_680_585_728L;

    /** The row's missing time over the GB each sender loads. */
    static double lmsysSecondsPerGb() {
        return (LMSYS_Q30B_RDMA_PUBLISHED - LMSYS_Q30B_RDMA_MODELLED_WITHOUT) / (LMSYS_Q30B_ENGINE_RANK_BYTES / 1e9);
    }

    /**
     * One call of NeMo-RL's {@code xferdtensor} through its Python fallback, outside its bytes: the host work an
     * inference rank does for one FFN parameter of {@code nccl_reshard_refit} (NVIDIA-NeMo/RL e40aa046e
     * {@code nemo_rl/models/generation/vllm/vllm_backend.py} L983-1008: the receive buffer allocated, the call, the
     * copy back into {@code w13}), where {@code xferdtensor_python_impl} ({@code nemo_rl/weight_sync/xferdtensor_python.py}
     * L960-1045) looks its plan up by mesh and placement signatures, checks the local shard, walks the whole transfer
     * list to stage this rank's sends and receives, records each buffer on the stream, launches one NCCL group of
     * sends and receives and the replicas' all-gather. No call waits on the GPU (a device synchronisation only when
     * a replica communicator is first split, L415), so nothing in the code says how long a call takes; the
     * cost is fitted. Each inference rank walks every FFN parameter of every PP stage on one Python thread
     * (L1012-1036; two CUDA streams do not split the host's work) and the trainer ranks walk their own stage's,
     * at most as many, so a refit pays it once per FFN parameter, in series, on every inference rank. An MoE
     * layer's experts of one projection are one parameter ({@code group_expert_params_in_metadata},
     * {@code nccl_reshard_utils.py} L381-455): Qwen3-30B-A3B makes 48 x 3 = 144 calls whatever its layouts.
     */
    public static final String RESHARD_CALL = "refit.reshardCallSeconds";

    /**
     * NVIDIA-NeMo/RL PR #2971 (merged, e40aa046e), table "DGX-H100 - xferdtensor_python_impl (fallback path)":
     * 30b, EP8xPP2 -> TP8xDP2, BF16, 0.74-1.00 s (validation row NEMO2971-EP8PP2-TP8DP2); the same layout, model
     * (Qwen3 30B) and platform (H100) are restated in the PR's design doc ({@code docs/design-docs/nccl-reshard-refit.md},
     * "Expected Performance"). Midpoint of the range.
     */
    static final double NEMO_EP8PP2_TP8DP2_PUBLISHED = (0.74 + 1.00) / 2;
    /**
     * rdmasim's steady cycle of that row with {@link #RESHARD_CALL} at 0 (expert stacking, the shard-to-shard sends,
     * the replicas' all-gather, the copy back into w13, the misc broadcast and its loads;
     * {@code scenarios/validation/refit-nemo-reshard-h100.yaml} variant {@code ep8pp2-tp8dp2}); a test holds the
     * model to it, so a change in those mechanisms shows up here.
     */
    static final double NEMO_EP8PP2_TP8DP2_MODELLED_WITHOUT = 0.1984;
    /** The xferdtensor calls each inference rank of that row issues: Qwen3-30B-A3B's 48 layers x 3 projections. */
    static final int NEMO_QWEN3_30B_CALLS = 48 * 3;

    /**
     * vLLM's sharded RDT engine: the wait every pull pays for the scatter of the pull that last used its receive
     * slot (two slots, as many as pulls in flight), per pull.
     */
    public static final String RDT_SCATTER = "refit.rdtScatterSeconds";
    /** vLLM's sharded RDT engine: one produce call on the producer's sidecar (chains replayed, slices packed into a blob). */
    public static final String RDT_PACK = "refit.rdtPackSeconds";

    /**
     * One tensor through verl's checkpoint-engine send loop over an FSDP trainer, outside its bytes: the generator's
     * {@code full_tensor()} of the tensor's DTensor shard, an all-gather collective every FSDP rank calls in lockstep
     * (verl-project/verl 6f33c553b {@code verl/workers/engine/fsdp/transformer_impl.py:668-671}), the cast to the
     * rollout's dtype ({@code verl/checkpoint_engine/nccl_checkpoint_engine.py:227}), the bucket's metadata entry and
     * the copy into the bucket ({@code :255-262}); the NIXL engine's loop is the same lines
     * ({@code nixl_checkpoint_engine.py:363-400}), the Mooncake engine's the same loop again. The loop is one Python
     * thread walking the tensors in order, so a bucket is packed no faster than its tensors are walked, and the next
     * bucket's walk overlaps only the previous bucket's transfer. With several senders ({@code nccl_parallel}) every
     * rank still walks every tensor, in lockstep ({@code nccl_parallel_checkpoint_engine.py:25-29} @e88dcf17b:
     * "producing each tensor drives a collective FSDP gather"), so the walk is not divided among them. What the
     * calls' bytes cost (the all-gather over NVLink, the cast and copy in HBM) is priced apart; a Megatron trainer's
     * gather, checkpoint-engine's update and the pull and WRITE methods do not run this loop.
     */
    public static final String PACK_TENSOR = "refit.packTensorSeconds";

    /**
     * verl-project/verl {@code verl/checkpoint_engine/README.md} (the table added at 6f33c553b), Benchmark: the NCCL
     * engine sends Qwen3-30B-A3B-Base from an FSDP world of 2 to 30 receive-only rollouts on 4 x 8 H100 in "~7" s
     * (validation row VERLCE-Q30B-NCCL), with the model's tensors, as rdmasim counts Qwen3-30B-A3B's.
     */
    static final double VERLCE_Q30B_NCCL_PUBLISHED = 7.0;
    static final long VERLCE_Q30B_TENSORS = 18_867;
    /**
     * rdmasim's steady cycle of that row less its tensors' walk ({@link #VERLCE_Q30B_TENSORS} x {@link #PACK_TENSOR}),
     * with the walk bounding the send ({@code scenarios/validation/refit-verl-ckpt-h100.yaml} variant {@code nccl}):
     * the FP32 unshard before the first tensor, then the last bucket's call, broadcast and clone once the walk is
     * done; a test holds the model to it, so a change in those mechanisms shows up here.
     */
    static final double VERLCE_Q30B_NCCL_MODELLED_BESIDE_WALK = 1.3161;

    /**
     * The frame verl's trainer times around a checkpoint engine, once per update, outside the engine's
     * {@code send_weights} and {@code receive_weights}: the trainer's {@code update_weights} timer wraps
     * {@code CheckpointEngineManager.update_weights} (verl-project/verl e88dcf17b
     * {@code verl/trainer/ppo/ray_trainer.py:1690-1691}), which aborts and pauses every vLLM replica
     * ({@code verl/checkpoint_engine/base.py:499}; {@code pause_generation}, {@code vllm_async_server.py:881-884}),
     * builds a Ray worker group of the rollout workers and runs {@code prepare} and {@code init_process_group} on
     * every worker ({@code base.py:502-512, 403-428}; the replicas' KV caches are released before the update and
     * resumed after it, {@code release_kv_cache_replicas} and {@code resume_kv_cache_replicas}, {@code base.py:508-509,
     * 532-533}; nccl_parallel's adds a barrier per group and a zmq ping
     * handshake each round, {@code nccl_parallel_checkpoint_engine.py:568-632}), runs the engine, then
     * {@code finalize} on every worker ({@code base.py:527-530}) and resumes generation ({@code base.py:536}). On the
     * vLLM side each update allocates and hands over a new CUDA IPC bucket ({@code
     * verl/workers/rollout/vllm_rollout/bucketed_weight_transfer.py:174-194}), runs vLLM's
     * {@code process_weights_after_loading} over the model after the last bucket ({@code
     * vllm_rollout/utils.py:306-311}), frees the bucket with {@code gc.collect}, {@code ipc_collect} and
     * {@code empty_cache} ({@code bucketed_weight_transfer.py:196-217}) and clears the prefix cache
     * ({@code vllm_rollout/vllm_rollout.py:239-243}). No source times these steps apart, so one figure covers them,
     * taken from one row; what else that row's gap holds (a per-byte cost the model lacks on EFA would be folded in)
     * is not known.
     */
    public static final String VERL_UPDATE_FRAME = "refit.verlUpdateFrameSeconds";

    /**
     * verl-project/verl PR #7263 (the commit message of e88dcf17b): the stock nccl engine, 2-node 8 x B200 FSDP2
     * trainer to 8 x B200 vLLM rollout, Qwen3.5-27B BF16, GEN_TP=4, bucket 2048 MB, AWS EFA, "3.01s +/-0.25" per
     * refit over 20 refits (validation row VERL7263-STOCK).
     */
    static final double VERL7263_STOCK_PUBLISHED = 3.01;
    /**
     * rdmasim's steady cycle of that row with {@link #VERL_UPDATE_FRAME} at 0 ({@code
     * scenarios/validation/refit-verl-nccl-parallel-efa.yaml} variant {@code stock-nccl}); a test holds the model to
     * it, so a change in the mechanisms under it shows up here.
     */
    static final double VERL7263_STOCK_MODELLED_WITHOUT = 1.1307;

    /**
     * vllm-project/vllm {@code docs/training/weight_transfer/sharded_rdt.md} @027fc251, "A spare receive slot does
     * not help": at 235B "every chunk therefore pays a wait on a scatter dispatched microseconds earlier (measured
     * 7.2 ms/pull at 235B)"; with a spare slot "the extra concurrency inflates the pack (8.3 -> 21.4 ms/call)".
     */
    static final double RDT_SCATTER_AT_235B = 0.0072;
    static final double RDT_PACK_AT_235B = 0.0083;

    /**
     * Whether {@code plan}'s sender walks the tensors it sends one by one through verl's checkpoint-engine loop: an FSDP
     * trainer (a gather group of two or more ranks, each tensor a DTensor) sending the whole model through an NCCL
     * broadcast, a NIXL ring or a Mooncake ring, the three engines whose {@code send_weights} runs that loop.
     */
    static boolean packsTensors(RefitPlan plan) {
        return plan.preparation().gatherGroup() > 1 && plan.broadcastTensors() > 0
                && (plan.method() instanceof NcclBroadcast || plan.method() instanceof NixlRing);
    }

    /** Whether {@code plan}'s engines load tensors one call per tensor: a colocated refit, or a whole-model method. */
    static boolean loadsTensors(RefitPlan plan) {
        return plan.method() instanceof ColocatedIpc || plan.broadcastTensors() > 0;
    }

    /**
     * vllm-project/vime issue #175 (https://github.com/vllm-project/vime/issues/175, aoshen02, 2026-06-07,
     * description): Qwen3-30B-A3B, 8 x H200, colocated, "same 115 chunks (~170 tensors/chunk)" on both sides;
     * the engine stage ({@code rayget}: rebuild + load_weights) takes 10.9-11.8 s a sync with one IPC handle per
     * tensor (vime) and 2.47-2.53 s with one flattened bucket a chunk (slime). Same chunks, tensors and loader
     * calls: the difference over the extra handles is one handle's cost; slime's stage, less its chunks' fixed
     * cost and handle opens, over its tensors is one tensor's load. Midpoints of the published ranges.
     */
    static final int VIME_CHUNKS = 115;
    static final int VIME_TENSORS_PER_CHUNK = 170;
    static final double VIME_RAYGET_PER_TENSOR = (10.9 + 11.8) / 2;
    static final double VIME_RAYGET_FLATTENED = (2.47 + 2.53) / 2;
    /**
     * vllm-project/vime PR #176 (https://github.com/vllm-project/vime/pull/176, description, "Measured improvement
     * (H200, Qwen3-30B-A3B colocate, bf16)"): with one IPC handle a chunk, "Engine per-chunk load" 14 ms in vLLM, for
     * the same 115 chunks of ~170 tensors. Not used to set the parameter: it checks that vLLM's loader costs per
     * tensor about what SGLang's does (0.082 against 0.092 ms, within 12%).
     */
    static final double VIME_176_VLLM_CHUNK_LOAD = 0.014;

    /** (vime's engine stage - slime's) / (one handle per tensor - one per chunk). */
    static double vimeSecondsPerHandle() {
        int perTensor = VIME_CHUNKS * VIME_TENSORS_PER_CHUNK;
        return (VIME_RAYGET_PER_TENSOR - VIME_RAYGET_FLATTENED) / (perTensor - VIME_CHUNKS);
    }

    /**
     * (slime's engine stage - its chunks' fixed cost - its handle opens) / its tensors. The HBM copy of the rank's
     * share is left in (under 7 ms a sync on H200 for a 61 GB model over four or more ranks, under 0.3%).
     */
    static double vimeSecondsPerTensor() {
        double rest = VIME_RAYGET_FLATTENED - VIME_CHUNKS * haloSecondsPerChunk() - VIME_CHUNKS * vimeSecondsPerHandle();
        return rest / (VIME_CHUNKS * VIME_TENSORS_PER_CHUNK);
    }

    /**
     * whitecircle/halo PR #11 (https://github.com/whitecircle/halo/pull/11, merged; description): "Cross-node
     * weight sync, B300 nodes, full Qwen3-8B (16.4 GB) per sync, one server worker ... vLLM chunk budget
     * (HALO_WEIGHT_SYNC_CHUNK_MB) 1/2/4/8 GiB: 54/63/70/73 GB/s". The same sync on the same pair at two chunk
     * sizes: the bytes, tensors and wire are the same, only the number of chunks differs (16.4 GB makes 16 chunks
     * of 1 GiB, 2 of 8 GiB). halo's vLLM client sends a chunk and waits for the engine's reply to it, which comes
     * once the engine has loaded it, before the next ({@code VLLMWeightSyncClient}: the chunk's packed broadcast,
     * then {@code server_call.wait} on the {@code /update_weights} call), so every tensor's load is paid whatever
     * the chunk, and the difference of the two sync times over the difference of the chunk counts is the cost of
     * one chunk, whatever the wire's rate.
     */
    static final double HALO_SYNC_BYTES = 16.4e9;
    static final double HALO_1GIB_BYTES_PER_SECOND = 54e9;
    static final double HALO_8GIB_BYTES_PER_SECOND = 73e9;

    /** Chunks a sync of {@code bytes} makes at {@code chunk} bytes a chunk. */
    static long chunks(double bytes, long chunk) {
        return (long) Math.ceil(bytes / chunk);
    }

    /** The per-chunk cost the halo PR #11 curve gives: (t(1 GiB) - t(8 GiB)) / (chunks(1 GiB) - chunks(8 GiB)). */
    static double haloSecondsPerChunk() {
        double t1 = HALO_SYNC_BYTES / HALO_1GIB_BYTES_PER_SECOND;
        double t8 = HALO_SYNC_BYTES / HALO_8GIB_BYTES_PER_SECOND;
        return (t1 - t8) / (chunks(HALO_SYNC_BYTES, Buckets.GIB) - chunks(HALO_SYNC_BYTES, 8 * Buckets.GIB));
    }

    /**
     * The NCCL constants a broadcast's step is made of, at the release {@link BroadcastOrder} reads: the simple
     * protocol's buffer, the steps it is cut into, and the steps a broadcast chunk takes.
     */
    private static final List<Citation> NCCL_STEP_SOURCES = List.of(
            Citation.parse("NVIDIA/nccl v2.30.7-1 src/init.cc:813 DEFAULT_BUFFSIZE"),
            Citation.parse("NVIDIA/nccl v2.30.7-1 src/include/device.h:26 NCCL_STEPS"),
            Citation.parse("NVIDIA/nccl v2.30.7-1 src/include/collectives.h:28 BROADCAST_CHUNKSTEPS"));

    private static final List<Parameter> DEFAULTS = List.of(
            new Parameter(PAUSE, 0, "s", Kind.ASSUMED,
                    "no public measurement isolates an engine's pause; prime-rl PR #2010 reports an unconditional "
                            + "pause/resume adding 20 s to every update on one deployment, not a default",
                    "an engine paused by the caller before the refit costs nothing here; set it per scenario"),
            new Parameter(RESUME, 0, "s", Kind.ASSUMED, "as " + PAUSE, "resuming costs nothing here"),
            new Parameter(BARRIER, 0, "s", Kind.ASSUMED,
                    "the barrier is a Gloo/TCP round trip (le.qun.ch/en/blog/2025/09/17/rl-weight-transfer-2: "
                            + "barrier over Gloo/Ethernet); no published figure for its cost",
                    "a barrier after the last byte costs nothing here"),
            new Parameter(NCCL_STEP, 4L * 1024 * 1024 / 8, "B", Kind.DERIVED,
                    "NCCL's DEFAULT_BUFFSIZE (1 << 22) over NCCL_STEPS 8, BROADCAST_CHUNKSTEPS 1: one 512 KiB step per "
                            + "chunk (" + Citation.join(NCCL_STEP_SOURCES) + ")", ""),
            new Parameter(BUCKET, haloSecondsPerChunk(), "s", Kind.CALIBRATED,
                    "whitecircle/halo PR #11: Qwen3-8B (16.4 GB) synced over EFA by a vLLM client at 54 GB/s in 1 GiB "
                            + "chunks and 73 GB/s in 8 GiB chunks, each chunk waited for; the 16 - 2 extra chunks take "
                            + "the time difference",
                    "every framework's bucket (verl, checkpoint-engine, SGLang clients) costs what halo's vLLM "
                            + "client's chunk does; RDMA pulls and WRITE schedules have no per-bucket call and do not pay it"),
            new Parameter(IPC_OPEN, vimeSecondsPerHandle(), "s", Kind.CALIBRATED,
                    "vllm-project/vime issue #175: Qwen3-30B-A3B colocated on 8 x H200, 115 chunks of ~170 tensors; the "
                            + "engine stage takes 10.9-11.8 s with one CUDA IPC handle per tensor and 2.47-2.53 s with "
                            + "one per chunk; the difference over the 19,435 extra handles",
                    "vLLM's and SGLang's engines spend the same per tensor apart from the handle (vime is vLLM, slime "
                            + "SGLang); a handle costs the same whatever its size"),
            new Parameter(LOAD_TENSOR, vimeSecondsPerTensor(), "s", Kind.CALIBRATED,
                    "vllm-project/vime issue #175: slime's engine stage (SGLang), 2.47-2.53 s for 115 chunks of ~170 "
                            + "tensors, less 115 chunk calls at " + BUCKET + " and 115 handle opens, over the 19,550 "
                            + "tensors; vime PR #176 measured vLLM's own per-chunk load at 14 ms for the same chunks "
                            + "(0.082 ms a tensor)",
                    "every engine's load_weights (vLLM's, SGLang's) costs per tensor what SGLang's did there on H200 "
                            + "hosts, whatever the host's CPU; a Ray call per chunk costs what halo's vLLM client chunk "
                            + "does"),
            new Parameter(PACK_TENSOR, (VERLCE_Q30B_NCCL_PUBLISHED - VERLCE_Q30B_NCCL_MODELLED_BESIDE_WALK)
                    / VERLCE_Q30B_TENSORS, "s", Kind.CALIBRATED,
                    "verl-project/verl verl/checkpoint_engine/README.md (table of 6f33c553b): the NCCL engine sends "
                            + "Qwen3-30B-A3B-Base (18,867 tensors) from FSDP world size 2 to 30 receive-only rollouts "
                            + "on 4 x 8 H100 in ~7 s (row VERLCE-Q30B-NCCL), less rdmasim's 1.316 s for it beside the "
                            + "walk (the FP32 unshard, then the last bucket's call and broadcast), over the tensors; the "
                            + "loop at verl-project/verl 6f33c553b verl/checkpoint_engine/nccl_checkpoint_engine.py:225-262 "
                            + "and verl-project/verl 6f33c553b verl/workers/engine/fsdp/transformer_impl.py:668-671",
                    "the walk bounds that send (the NIXL engine, the same loop over a different wire, publishes the "
                            + "same ~7 s); a tensor costs the same whatever its size, FSDP group, host CPU and engine "
                            + "(NCCL, NIXL, Mooncake, nccl_parallel), fitted on one 30B MoE on H100 hosts"),
            new Parameter(CKPT_UPDATE_END, CKPT_GLM45AIR_8H800_PUBLISHED - CKPT_GLM45AIR_8H800_MODELLED_WITHOUT, "s",
                    Kind.CALIBRATED,
                    "MoonshotAI/checkpoint-engine README @415c3205: GLM-4.5-Air's broadcast update on 8 x H800, "
                            + "3.47 s, less rdmasim's 2.166 s for it without this term (row CKPT-GLM45AIR-8H800); "
                            + "the update's end at checkpoint-engine @59a3c4f: buffers freed, gc.collect, ipc_collect "
                            + "and empty_cache on both sides, vLLM's process_weights_after_loading, the closing "
                            + "barriers and the process group destroyed (checkpoint_engine/ps.py L576, L583-587, "
                            + "L860-883; checkpoint_engine/worker.py L84-100, L200-201)",
                    "every checkpoint-engine update ends in the same time whatever its model, hosts, GPU count and "
                            + "mode (fitted on one 8-GPU broadcast update of GLM-4.5-Air); other methods do not run "
                            + "this code"),
            new Parameter(VERL_UPDATE_FRAME, VERL7263_STOCK_PUBLISHED - VERL7263_STOCK_MODELLED_WITHOUT, "s",
                    Kind.CALIBRATED,
                    "verl-project/verl PR #7263: the stock nccl engine's refit of Qwen3.5-27B from an 8 x B200 FSDP2 "
                            + "trainer to 8 x B200 vLLM TP4 over AWS EFA, 3.01 s a refit, less rdmasim's 1.131 s for "
                            + "it without this term (row VERL7263-STOCK); the frame at verl-project/verl e88dcf17b: "
                            + "the trainer's update_weights timer (verl/trainer/ppo/ray_trainer.py L1690-1691) around "
                            + "CheckpointEngineManager.update_weights (verl/checkpoint_engine/base.py L486-538: abort, "
                            + "process groups built, KV caches released, the engine, finalize, KV caches resumed, "
                            + "resume) and the vLLM adapter's per-update "
                            + "work (verl/workers/rollout/vllm_rollout/bucketed_weight_transfer.py L174-217, "
                            + "vllm_rollout/utils.py L306-311)",
                    "every refit verl's trainer times through the checkpoint-engine manager into vLLM rollouts costs "
                            + "this once per update, whatever its engine, model, bytes and hosts (fitted on one 2-host "
                            + "27B refit over EFA); whatever else that row's gap holds is folded in; benchmarks that "
                            + "call the engines directly do not run this code"),
            new Parameter(REPLICA_LOAD, lmsysSecondsPerGb(), "s/GB", Kind.CALIBRATED,
                    "lm-sys/lm-sys.github.io blog/2026-04-29-p2p-update.md @89fa558a: Qwen3-30B-A3B's RDMA P2P update "
                            + "(radixark/miles @9a6fc9e6, 16 trainer ranks each serving one engine rank of TP8 EP8), "
                            + "2.160 s, less rdmasim's 0.276 s for it without this term (row LMSYS-Q30B-RDMA: the "
                            + "stage's per-bucket TP and EP all-gathers, the replicas' copies and writes), over "
                            + "the 7.68 GB each sender loads into its CPU replica (p2p.py L149-150)",
                    "the sender's replica load (SGLang's weight loaders on the CPU model), with the trainer's "
                            + "HF conversion and the engines' post-processing the fit also holds, costs the same per byte loaded whatever the model, its dtype and the engine ranks a "
                            + "sender serves; other methods do not run this code"),
            new Parameter(RESHARD_CALL, (NEMO_EP8PP2_TP8DP2_PUBLISHED - NEMO_EP8PP2_TP8DP2_MODELLED_WITHOUT)
                    / NEMO_QWEN3_30B_CALLS, "s", Kind.CALIBRATED,
                    "NVIDIA-NeMo/RL PR #2971 (e40aa046e): Qwen3-30B-A3B EP8xPP2 -> TP8xDP2 on DGX-H100 through "
                            + "xferdtensor_python_impl, 0.74-1.00 s, less rdmasim's 0.198 s for it without this term "
                            + "(row NEMO2971-EP8PP2-TP8DP2), over the 144 xferdtensor calls each inference rank makes "
                            + "(nemo_rl/models/generation/vllm/vllm_backend.py L983-1032, "
                            + "nemo_rl/weight_sync/xferdtensor_python.py L960-1045)",
                    "a call costs the same whatever its layouts, bytes and replicas, paid in series on every "
                            + "inference rank after the bytes, with nothing of it overlapping them; the rest of the gap "
                            + "on that row (Megatron's export of each misc parameter, vLLM's "
                            + "process_weights_after_loading) is folded into it; the every-parameter form (PR #2413, "
                            + "before the fallback existed) does not pay it"),
            new Parameter(RDT_SCATTER, RDT_SCATTER_AT_235B, "s", Kind.CALIBRATED,
                    "vllm-project/vllm docs/training/weight_transfer/sharded_rdt.md @027fc251: every chunk waits for "
                            + "the scatter of the chunk that last used its receive slot, 'measured 7.2 ms/pull at 235B' "
                            + "(Qwen3-235B-A22B)",
                    "a pull's scatter wait is the same whatever the model, its bytes and tensors a pull"),
            new Parameter(RDT_PACK, RDT_PACK_AT_235B, "s", Kind.CALIBRATED,
                    "vllm-project/vllm docs/training/weight_transfer/sharded_rdt.md @027fc251: the producer's pack "
                            + "'8.3 ms/call' at 235B without a spare slot (21.4 with one, GIL-bound in the sidecar)",
                    "a produce call costs the same whatever its bytes; the doc does not say whether 8.3 ms is the "
                            + "per-name pack's or the cheap pack's"));

    private final List<Parameter> parameters;

    private RefitCalibration(List<Parameter> parameters) {
        this.parameters = List.copyOf(parameters);
    }

    /** The defaults, with no profile's values. */
    public static RefitCalibration defaults() {
        return new RefitCalibration(DEFAULTS);
    }

    /** The defaults, each replaced by {@code profile}'s parameter of the same key where it has one. */
    public static RefitCalibration of(CalibrationProfile profile) {
        List<Parameter> out = new ArrayList<>();
        for (Parameter d : DEFAULTS) {
            out.add(profile.parameter(d.key()).orElse(d));
        }
        return new RefitCalibration(out);
    }

    /** These parameters with {@code key} set to {@code value} (a scenario's override), of the kind and source given. */
    public RefitCalibration with(String key, double value, Kind kind, String source) {
        List<Parameter> out = new ArrayList<>();
        boolean found = false;
        for (Parameter p : parameters) {
            if (p.key().equals(key)) {
                out.add(new Parameter(key, value, p.unit(), kind, source, ""));
                found = true;
            } else {
                out.add(p);
            }
        }
        if (!found) {
            throw new IllegalArgumentException("no refit parameter '" + key + "' (expected one of "
                    + String.join(", ", DEFAULTS.stream().map(Parameter::key).toList()) + ")");
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(key + " must be a finite value >= 0, got " + value);
        }
        return new RefitCalibration(out);
    }

    public double value(String key) {
        return get(key).value();
    }

    public Parameter get(String key) {
        return parameters.stream().filter(p -> p.key().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no refit parameter '" + key + "'"));
    }

    public List<Parameter> parameters() {
        return parameters;
    }
}
