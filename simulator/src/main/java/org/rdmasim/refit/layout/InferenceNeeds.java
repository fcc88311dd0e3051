package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.List;

import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/**
 * Which box of each tensor each inference rank loads under an {@link InferenceLayout}, following vLLM's
 * loaders (vllm-project/vllm, vllm/model_executor/layers/): {@code ColumnParallelLinear} narrows dim 0 and
 * {@code RowParallelLinear} dim 1 by the TP rank; {@code QKVParallelLinear} gives each rank
 * {@code num_heads = nh/tp} query heads and, when {@code tp >= nkv}, one KV head shared by
 * {@code num_kv_head_replicas = tp/nkv} ranks (rank r loads KV head {@code r / replicas}), so K and V are
 * loaded more than once across a TP group; {@code VocabParallelEmbedding} and {@code ParallelLMHead} pad
 * the vocabulary to a multiple of {@code DEFAULT_VOCAB_PADDING_SIZE = 64} and give each rank an equal row
 * range (rows past the real vocabulary are padding nobody sends). SGLang's {@code python/sglang/srt/layers/
 * linear.py} has the same head arithmetic.
 */
final class InferenceNeeds {
    /** vLLM vocab_parallel_embedding.py {@code DEFAULT_VOCAB_PADDING_SIZE}. */
    static final long VOCAB_PADDING = 64;

    private final InferenceLayout layout;
    private final AttentionHeads heads;
    private final int experts;
    /** Per logical expert, the EP ranks holding a physical copy (with repeats for two copies on one rank). */
    private final List<List<Integer>> expertHolders;

    InferenceNeeds(InferenceLayout layout, AttentionHeads heads, int experts) {
        this.layout = layout;
        this.heads = heads;
        this.experts = experts;
        this.expertHolders = new ArrayList<>();
        if (heads != null) {
            int tp = layout.tp();
            if (heads.queryHeads() % tp != 0) {
                throw new IllegalArgumentException("inference tp " + tp + " must divide the " + heads.queryHeads()
                        + " query heads");
            }
            if (tp >= heads.kvHeads() ? tp % heads.kvHeads() != 0 : heads.kvHeads() % tp != 0) {
                throw new IllegalArgumentException("inference tp " + tp + " and the " + heads.kvHeads()
                        + " KV heads must divide one another (vLLM QKVParallelLinear)");
            }
        }
        if (layout.expertParallel() && experts > 0) {
            int ep = layout.moeGroup();
            long physical = (long) experts + layout.redundantExperts();
            if (physical < ep) {
                throw new IllegalArgumentException("expert parallel over " + ep + " ranks needs at least " + ep
                        + " physical experts, the model has " + physical);
            }
            for (int e = 0; e < experts; e++) {
                expertHolders.add(new ArrayList<>());
            }
            long base = physical / ep;
            long remainder = physical % ep;
            for (int r = 0; r < ep; r++) {
                // determine_expert_map, "linear": the remainder goes to the first ranks
                long local = base + (r < remainder ? 1 : 0);
                long start = r * base + Math.min(r, remainder);
                for (long p = start; p < start + local; p++) {
                    int logical = (int) (p < experts ? p : (p - experts) % experts);
                    expertHolders.get(logical).add(r);
                }
            }
        }
    }

    List<Need> needs(Tensor t, TensorRole role) {
        long[] shape = SliceMap.shape(t);
        Box whole = Box.whole(shape);
        List<Need> out = new ArrayList<>();
        int world = layout.worldSize();
        if (role.isExpert()) {
            if (layout.expertParallel()) {
                List<Integer> holders = expertHolders.get(t.expert());
                for (int i = 0; i < holders.size(); i++) {
                    int rank = holders.get(i);
                    int copies = 1;
                    while (i + 1 < holders.size() && holders.get(i + 1) == rank) {
                        copies++;
                        i++;
                    }
                    if (layout.separateEngines()) {
                        // each engine (DP replica) spreads the experts over its own TP ranks: the same map in every one
                        for (int d = 0; d < layout.dp(); d++) {
                            out.add(new Need(layout.rank(d, rank), whole, copies));
                        }
                    } else {
                        out.add(new Need(rank, whole, copies));
                    }
                }
                return out;
            }
            // no EP: experts are tensor-split over TP flattened across DP (separate engines: over each engine's TP)
            int dim = role == TensorRole.EXPERT_COLUMN ? 0 : 1;
            for (int r = 0; r < world; r++) {
                out.add(new Need(r, TrainerShards.split(t, whole, dim, layout.moeGroup(), layout.moeRank(r)), 1));
            }
            return out;
        }
        int tp = layout.tp();
        Box[] perTp = new Box[tp];
        for (int r = 0; r < tp; r++) {
            perTp[r] = switch (role) {
                case REPLICATED -> whole;
                case COLUMN, ATTN_Q -> TrainerShards.split(t, whole, 0, tp, r);
                case ROW -> TrainerShards.split(t, whole, 1, tp, r);
                case ATTN_KV -> kvRows(t, whole, r);
                case VOCAB_EMBEDDING, LM_HEAD -> vocabRows(whole, r);
                default -> throw new IllegalStateException("unhandled role " + role);
            };
        }
        for (int r = 0; r < world; r++) {
            Box box = perTp[layout.tpRank(r)];
            if (box != null) {
                out.add(new Need(r, box, 1));
            }
        }
        return out;
    }

    private Box kvRows(Tensor t, Box whole, int tpRank) {
        int tp = layout.tp();
        if (heads == null || tp < heads.kvHeads()) {
            return TrainerShards.split(t, whole, 0, tp, tpRank);
        }
        int replicas = tp / heads.kvHeads();
        long rowsPerHead = whole.size(0) / heads.kvHeads();
        long head = tpRank / replicas;
        return whole.narrow(0, head * rowsPerHead, (head + 1) * rowsPerHead);
    }

    private Box vocabRows(Box whole, int tpRank) {
        long padded = (whole.size(0) + VOCAB_PADDING - 1) / VOCAB_PADDING * VOCAB_PADDING;
        if (padded % layout.tp() != 0) {
            throw new IllegalArgumentException("padded vocabulary " + padded + " is not divisible by inference tp "
                    + layout.tp() + " (vLLM divides it evenly)");
        }
        long per = padded / layout.tp();
        return whole.narrow(0, tpRank * per, (tpRank + 1) * per);
    }

    int experts() {
        return experts;
    }
}
