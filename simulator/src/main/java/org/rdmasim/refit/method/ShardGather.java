package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.refit.layout.TrainerLayout;

/**
 * Megatron's gather of each broadcast bucket to its sending rank, as the LMSYS rows' code runs it (radixark/miles
 * {@code miles/backends/megatron_utils/update_weight/update_weight_from_distributed/mixin.py} @9a6fc9e6; THUDM/slime
 * {@code slime/backends/megatron_utils/update_weight/update_weight_from_distributed.py} @624b824a8 has the same
 * loop):
 * <ul>
 *   <li>a non-expert parameter is all-gathered over its TP group ({@code all_gather_param}, miles
 *       {@code update_weight/common.py} L50-70; slime {@code common.py} L15-57: {@code dist.all_gather} over
 *       {@code mpu.get_tensor_model_parallel_group()}) and packed into the bucket (mixin.py L49-61);</li>
 *   <li>an expert parameter is all-gathered over its expert-TP group the same way, then a batch of them, the
 *       bucket divided by the EP size (mixin.py L81-83), is all-gathered over the EP group
 *       ({@code dist.all_gather(..., group=mpu.get_expert_model_parallel_group(), async_op=True)}, every handle
 *       waited, mixin.py L115-126) before it is converted and sent;</li>
 *   <li>non-expert buckets all go first, expert buckets after (mixin.py L191-193), so the broadcast payload is
 *       taken as its non-expert bytes ({@code denseBytes}) followed by its expert bytes.</li>
 * </ul>
 * Every rank of a group takes part; only the sending rank keeps the bucket. Context-parallel ranks hold whole
 * replicas and gather nothing. The group of rank r is read off Megatron's rank order ({@link TrainerLayout}).
 *
 * <p>Megatron-Bridge's export, as SkyRL's Megatron worker runs it (one sender, trainer rank 0), adds a pipeline
 * step ({@code stages} not empty). SkyRL's {@code MegatronWeightExtractor.extract_weights} calls
 * {@code bridge.export_hf_weights} once per bucket on every trainer rank and only rank 0 broadcasts what it
 * yields to the engines (NovaSky-AI/SkyRL a9564572 {@code skyrl/backends/skyrl_train/workers/megatron/
 * megatron_worker.py} L264-329, {@code weight_sync/broadcast_strategy.py} L131-183); the export's every mapping
 * first broadcasts the parameter from the pipeline stage that owns it to every rank of its PP group
 * ({@code broadcast_from_pp_rank}, NVIDIA-NeMo/Megatron-Bridge 91a15142 {@code src/megatron/bridge/models/
 * conversion/param_mapping.py} L341-428), then all-gathers it over TP ({@code gather_from_tp_ranks}, L613-628;
 * the expert-TP group for experts, L154-159) and, for experts, over EP ({@code gather_from_ep_ranks}, L722-814;
 * ColumnParallelMapping L1020-1045, RowParallelMapping L1183-1208), so that "all ranks receive the full tensors"
 * ({@code model_bridge.py} L1200-1201). Its tasks run in layer order ({@code extract_sort_key}, model_bridge.py
 * L807-814), so the payload is taken as stage 0's bytes, then stage 1's, and so on, each stage's non-expert bytes
 * before its experts (the export interleaves them layer by layer; the gathers' times add either way).
 *
 * @param layout      the trainer's parallel sizes; all 1 when the trainer is not a sharded Megatron one
 * @param denseBytes  bytes of the broadcast payload that are not routed experts, sent first (with {@code stages},
 *                    the sum of theirs)
 * @param heldPerByte trainer bytes gathered per byte sent (2 when BF16 weights are quantised to FP8 after the
 *                    gather, as {@code convert_to_hf} does; the trainer's dtype over the sent dtype otherwise)
 * @param stages      the payload by owning pipeline stage, in stage order, when every bucket is first broadcast
 *                    from its stage over the PP groups (Megatron-Bridge's export); empty when each sender gathers
 *                    only what its own stage holds (miles' stage heads)
 */
public record ShardGather(TrainerLayout layout, long denseBytes, double heldPerByte, List<StageBytes> stages) {
    /** No Megatron gather: an unsharded trainer, or one whose gather is priced elsewhere (FSDP). */
    public static final ShardGather NONE = new ShardGather(new TrainerLayout(1, 1, 1, 1, 1, 1), 0, 1);

    /** One pipeline stage's part of the payload: its non-expert bytes, then its routed experts'. */
    public record StageBytes(long dense, long expert) {
        public StageBytes {
            if (dense < 0 || expert < 0) {
                throw new IllegalArgumentException("a stage's bytes are >= 0, got " + dense + " and " + expert);
            }
        }

        long whole() {
            return Math.addExact(dense, expert);
        }
    }

    /** A payload range's bytes held by one pipeline stage: {@code dense} non-expert, {@code expert} routed experts. */
    record Owned(int stage, long dense, long expert) {
    }

    public ShardGather {
        if (layout == null) {
            throw new IllegalArgumentException("a Megatron gather needs the trainer's layout");
        }
        if (denseBytes < 0) {
            throw new IllegalArgumentException("non-expert bytes are >= 0, got " + denseBytes);
        }
        if (!(heldPerByte > 0) || Double.isInfinite(heldPerByte)) {
            throw new IllegalArgumentException("gathered bytes per byte sent must be finite and > 0, got "
                    + heldPerByte);
        }
        if (stages == null) {
            throw new IllegalArgumentException("a Megatron gather needs its stages (empty when the sender holds them)");
        }
        stages = List.copyOf(stages);
        if (!stages.isEmpty()) {
            if (stages.size() != layout.pp()) {
                throw new IllegalArgumentException("the payload needs one part per pipeline stage: " + stages.size()
                        + " parts for pp " + layout.pp());
            }
            long dense = 0;
            for (StageBytes s : stages) {
                dense = Math.addExact(dense, s.dense());
            }
            if (dense != denseBytes) {
                throw new IllegalArgumentException("the stages' non-expert bytes (" + dense
                        + ") must be the payload's (" + denseBytes + ")");
            }
        }
    }

    /** A sender that gathers only its own stage's buckets over TP and EP (miles' update). */
    public ShardGather(TrainerLayout layout, long denseBytes, double heldPerByte) {
        this(layout, denseBytes, heldPerByte, List.of());
    }

    /**
     * Megatron-Bridge's export ({@code export_hf_weights}): each stage's part of the payload is broadcast from that
     * stage over the PP groups, then all-gathered over TP and EP to the sender.
     */
    public static ShardGather exported(TrainerLayout layout, List<StageBytes> stages, double heldPerByte) {
        long dense = 0;
        for (StageBytes s : stages) {
            dense = Math.addExact(dense, s.dense());
        }
        return new ShardGather(layout, dense, heldPerByte, stages);
    }

    /** Whether any group has more than one rank. */
    public boolean gathers() {
        return layout.tp() > 1 || layout.ep() > 1 || layout.etp() > 1;
    }

    /** Whether a bucket is first broadcast over the PP groups from the stage that holds it. */
    public boolean overPipeline() {
        return !stages.isEmpty() && layout.pp() > 1;
    }

    /** Bytes of the payload range {@code [from, from + size)} that are non-expert. */
    long denseIn(long from, long size) {
        if (stages.isEmpty()) {
            return overlap(from, size, 0, denseBytes);
        }
        long out = 0;
        for (Owned o : owners(from, size)) {
            out += o.dense();
        }
        return out;
    }

    /** The payload range {@code [from, from + size)} by the stage holding it, in payload order; empty without stages. */
    List<Owned> owners(long from, long size) {
        List<Owned> out = new ArrayList<>();
        long start = 0;
        for (int s = 0; s < stages.size(); s++) {
            StageBytes part = stages.get(s);
            long dense = overlap(from, size, start, part.dense());
            long expert = overlap(from, size, start + part.dense(), part.expert());
            if (dense + expert > 0) {
                out.add(new Owned(s, dense, expert));
            }
            start += part.whole();
        }
        return out;
    }

    private static long overlap(long from, long size, long start, long length) {
        return Math.max(0, Math.min(from + size, start + length) - Math.max(from, start));
    }

    /**
     * Bytes each trainer rank holds of {@code dense} non-expert and {@code expert} routed-expert payload bytes, in
     * the trainer's dtype: a TP shard of the one (replicated over CP and DP), an expert-TP x EP shard of
     * the other (replicated over expert DP).
     */
    long heldBy(long dense, long expert) {
        return Math.round(dense * heldPerByte / layout.tp() + expert * heldPerByte / (layout.etp() * layout.ep()));
    }

    /** The PP group of trainer rank {@code rank} with stage {@code root}'s rank first, then the rest in stage order. */
    List<Integer> pipelineGroup(int rank, int root) {
        int columns = columns();
        int column = rank % columns;
        List<Integer> out = new ArrayList<>();
        out.add(column + root * columns);
        for (int s = 0; s < layout.pp(); s++) {
            if (s != root) {
                out.add(column + s * columns);
            }
        }
        return out;
    }

    /** Ranks of one pipeline stage: Megatron's rank order keeps pp outermost. */
    int columns() {
        return layout.tp() * layout.cp() * layout.dp();
    }

    /** The TP group of trainer rank {@code rank}, in TP rank order. */
    List<Integer> tensorGroup(int rank) {
        int tp = layout.tp();
        int cp = layout.cp();
        int dp = layout.dp();
        int cpRank = rank / tp % cp;
        int dpRank = rank / (tp * cp) % dp;
        int ppRank = rank / (tp * cp * dp);
        List<Integer> out = new ArrayList<>();
        for (int t = 0; t < tp; t++) {
            out.add(layout.denseRank(t, cpRank, dpRank, ppRank));
        }
        return out;
    }

    /** The expert-TP group of trainer rank {@code rank}. */
    List<Integer> expertTensorGroup(int rank) {
        List<Integer> out = new ArrayList<>();
        for (int t = 0; t < layout.etp(); t++) {
            out.add(layout.expertRank(t, expertRank(rank), expertDataRank(rank), stage(rank)));
        }
        return out;
    }

    /** The EP group of trainer rank {@code rank}, in EP rank order. */
    List<Integer> expertGroup(int rank) {
        List<Integer> out = new ArrayList<>();
        for (int e = 0; e < layout.ep(); e++) {
            out.add(layout.expertRank(rank % layout.etp(), e, expertDataRank(rank), stage(rank)));
        }
        return out;
    }

    private int expertRank(int rank) {
        return rank / layout.etp() % layout.ep();
    }

    private int expertDataRank(int rank) {
        return rank / (layout.etp() * layout.ep()) % layout.expertDataParallel();
    }

    private int stage(int rank) {
        return rank / (layout.tp() * layout.cp() * layout.dp());
    }
}
