package org.rdmasim.refit.model;

import java.util.ArrayList;
import java.util.List;

/**
 * An inference engine's weight layout as vLLM builds it: {@code tp} tensor-parallel ranks per replica, {@code dp}
 * replicas, and the MoE layers either tensor-parallel over all {@code tp x dp} ranks or, with expert parallelism,
 * expert-parallel over them (vllm/model_executor/layers/fused_moe/config.py, FusedMoEParallelConfig.make: without
 * EP the MoE tensor-parallel size is dp x tp; with EP the EP size is dp x tp and the expert TP size 1). Rank
 * {@code r} is TP rank {@code r % tp} of replica {@code r / tp}.
 *
 * @param redundantExperts EPLB's extra physical experts per MoE layer (vLLM {@code num_redundant_experts});
 *                         physical slot {@code s} starts as logical expert {@code s mod E}
 *                         (vllm/distributed/eplb/eplb_state.py,
 *                         EplbState.build_initial_global_physical_to_logical_map: {@code range(E)} then
 *                         {@code i % E} for the redundant ones)
 */
public record InferenceLayout(int tp, int dp, boolean expertParallel, int redundantExperts) {
    /** vllm/model_executor/layers/vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE. */
    public static final int VOCAB_PADDING = 64;

    public InferenceLayout {
        if (tp < 1 || dp < 1) {
            throw new IllegalArgumentException("TP and DP must be at least 1, got TP " + tp + ", DP " + dp);
        }
        if (redundantExperts < 0) {
            throw new IllegalArgumentException("redundant experts must be >= 0, got " + redundantExperts);
        }
        if (redundantExperts > 0 && !expertParallel) {
            throw new IllegalArgumentException("redundant experts need expert parallelism (vLLM's EPLB runs with "
                    + "--enable-expert-parallel)");
        }
        Math.multiplyExact(tp, dp);
    }

    public int ranks() {
        return tp * dp;
    }

    /** Every rank's share, in rank order. */
    public List<RankShare> shares(ModelInventory m) {
        checkHeads(m);
        int moeTp = expertParallel ? 1 : ranks();
        List<RankShare> out = new ArrayList<>();
        for (int r = 0; r < ranks(); r++) {
            int tpRank = r % tp;
            int[] copies = expertCopies(m, r);
            long bytes = 0;
            long padding = 0;
            for (Tensor t : m.tensors()) {
                switch (t.role()) {
                    case REPLICATED -> bytes += t.bytes();
                    case VOCAB_EMBEDDING, LM_HEAD -> {
                        long vocab = t.shape().get(0);
                        long padded = CheckpointTensors.ceilDiv(vocab, VOCAB_PADDING) * VOCAB_PADDING;
                        if (padded % tp != 0) {
                            throw new IllegalArgumentException(t.name() + ": the padded vocabulary " + padded
                                    + " is not a multiple of TP " + tp + " (vLLM divides it evenly)");
                        }
                        long per = padded / tp;
                        long lo = tpRank * per;
                        long real = Math.max(0, Math.min(lo + per, vocab) - lo);
                        long row = t.bytes() / vocab;
                        bytes += real * row;
                        padding += (per - real) * row;
                    }
                    case ATTN_Q, COLUMN -> bytes += cut(t, 0, tp);
                    case ROW -> bytes += cut(t, 1, tp);
                    case ATTN_KV -> bytes += tp >= m.kvHeads() ? cut(t, 0, m.kvHeads()) : cut(t, 0, tp);
                    case EXPERT_COLUMN, EXPERT_ROW -> {
                        if (expertParallel) {
                            bytes += copies[t.expert()] * t.bytes();
                        } else {
                            bytes += cut(t, t.role() == TensorRole.EXPERT_COLUMN ? 0 : 1, moeTp);
                        }
                    }
                    default -> throw new IllegalStateException("role " + t.role());
                }
            }
            int experts = 0;
            for (int c : copies) {
                experts += c;
            }
            out.add(new RankShare(r, tpRank, r / tp, bytes, padding, expertParallel ? experts : m.routedExperts()));
        }
        return out;
    }

    /**
     * How many physical copies of each routed expert rank {@code r} holds: vLLM's "linear" placement of the
     * {@code E + redundant} physical experts over the EP ranks, the remainder going to the first ranks
     * (vllm/model_executor/layers/fused_moe/layer.py determine_expert_map).
     */
    int[] expertCopies(ModelInventory m, int r) {
        int e = m.routedExperts();
        int[] copies = new int[e];
        if (!expertParallel || e == 0) {
            return copies;
        }
        int slots = e + redundantExperts;
        int base = slots / ranks();
        int rem = slots % ranks();
        int local = base + (r < rem ? 1 : 0);
        int start = r * base + Math.min(r, rem);
        for (int s = start; s < start + local; s++) {
            copies[s % e]++;
        }
        return copies;
    }

    private void checkHeads(ModelInventory m) {
        boolean q = false;
        boolean kv = false;
        for (Tensor t : m.tensors()) {
            q |= t.role() == TensorRole.ATTN_Q;
            kv |= t.role() == TensorRole.ATTN_KV;
        }
        if (q && m.attentionHeads() % tp != 0) {
            throw new IllegalArgumentException(m.attentionHeads() + " attention heads do not divide over TP " + tp
                    + " (vLLM needs heads % TP == 0)");
        }
        int nkv = m.kvHeads();
        if (kv && (tp >= nkv ? tp % nkv != 0 : nkv % tp != 0)) {
            throw new IllegalArgumentException(nkv + " KV heads and TP " + tp + ": vLLM needs one to divide the "
                    + "other (QKVParallelLinear replicates KV heads when TP exceeds them)");
        }
    }

    /** Bytes of one of {@code parts} equal pieces of {@code t} along {@code dim}. */
    private static long cut(Tensor t, int dim, int parts) {
        if (dim >= t.shape().size()) {
            throw new IllegalArgumentException(t.name() + ": a row-parallel tensor needs two dimensions, has "
                    + t.shape());
        }
        long d = t.shape().get(dim);
        if (d % parts != 0) {
            String what = t.scaleOf() != null ? "its FP8 block scale's dimension " + dim + " (" + d + " blocks; vLLM "
                    + "needs each rank's share of the weight to be whole blocks)" : "dimension " + dim + " (" + d + ")";
            throw new IllegalArgumentException(t.name() + ": " + what + " does not split into " + parts + " equal "
                    + "parts");
        }
        return t.bytes() / parts;
    }
}
