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
 * @param layout      the trainer's parallel sizes; all 1 when the trainer is not a sharded Megatron one
 * @param denseBytes  bytes of the broadcast payload that are not routed experts, sent first
 * @param heldPerByte trainer bytes gathered per byte sent (2 when BF16 weights are quantised to FP8 after the
 *                    gather, as {@code convert_to_hf} does; the trainer's dtype over the sent dtype otherwise)
 */
public record ShardGather(TrainerLayout layout, long denseBytes, double heldPerByte) {
    /** No Megatron gather: an unsharded trainer, or one whose gather is priced elsewhere (FSDP). */
    public static final ShardGather NONE = new ShardGather(new TrainerLayout(1, 1, 1, 1, 1, 1), 0, 1);

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
    }

    /** Whether any group has more than one rank. */
    public boolean gathers() {
        return layout.tp() > 1 || layout.ep() > 1 || layout.etp() > 1;
    }

    /** Bytes of the payload range {@code [from, from + size)} that are non-expert. */
    long denseIn(long from, long size) {
        return Math.max(0, Math.min(from + size, denseBytes) - from);
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
