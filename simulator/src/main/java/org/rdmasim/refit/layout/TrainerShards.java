package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/**
 * Which trainer ranks hold which box of each tensor under a {@link TrainerLayout}, in HuggingFace index
 * space, following Megatron-Bridge's conversion mappings (NVIDIA-NeMo/Megatron-Bridge @067f987d,
 * src/megatron/bridge/models/conversion/param_mapping.py): {@code ColumnParallelMapping} (L919) shards dim 0
 * over TP, {@code RowParallelMapping} (L1111) dim 1, {@code QKVMapping} (L1654) gives each TP rank whole query
 * groups, and experts follow {@code gather_from_ep_ranks} (L727): EP rank k owns the contiguous experts
 * {@code [k*E/ep, (k+1)*E/ep)} (Megatron-Core asserts {@code num_moe_experts % ep_size == 0},
 * megatron/core/transformer/moe/moe_layer.py L186), each split over the expert-TP group like its dense
 * counterpart.
 *
 * <p>Megatron keeps q, k, v fused and interleaved per query group and gate/up fused as
 * {@code [gate_shard_i; up_shard_i]} ({@code GatedMLPMapping}, L2591); neither changes which HuggingFace rows a
 * rank holds, only where they sit in its buffer, which {@link SliceMap} accounts for when it counts runs.
 */
final class TrainerShards {
    /** Megatron's {@code --make-vocab-size-divisible-by} default (megatron/training/arguments.py L2441). */
    static final long VOCAB_DIVISOR = 128;

    private final TrainerLayout layout;
    private final AttentionHeads heads;
    private final int layers;
    private final int experts;

    TrainerShards(TrainerLayout layout, AttentionHeads heads, int layers, int experts) {
        this.layout = layout;
        this.heads = heads;
        this.layers = layers;
        this.experts = experts;
        if (heads != null && heads.kvHeads() % layout.tp() != 0) {
            // megatron/core/transformer/transformer_config.py L1462
            throw new IllegalArgumentException("trainer tp " + layout.tp() + " must divide the " + heads.kvHeads()
                    + " query groups (Megatron-Core rejects num_query_groups % tp != 0)");
        }
        if (experts > 0 && experts % layout.ep() != 0) {
            throw new IllegalArgumentException("trainer ep " + layout.ep() + " must divide the " + experts
                    + " routed experts (Megatron-Core asserts num_moe_experts % ep_size == 0)");
        }
    }

    int stage(Tensor t) {
        if (t.layer() >= 0) {
            return layout.stageOf(t.layer(), layers);
        }
        // model-level tensors: the embedding lives on the first stage, the final norm and output layer on the last
        return t.role() == TensorRole.VOCAB_EMBEDDING ? 0 : layout.pp() - 1;
    }

    /** The EP rank owning expert tensor {@code t}: contiguous blocks of E/ep experts. */
    int epRank(Tensor t) {
        if (t.expert() < 0 || t.expert() >= experts) {
            throw new IllegalArgumentException(t.name() + ": expert role without an expert index");
        }
        return t.expert() / (experts / layout.ep());
    }

    List<Shard> shards(Tensor t, TensorRole role) {
        long[] shape = SliceMap.shape(t);
        Box whole = Box.whole(shape);
        int stage = stage(t);
        List<Shard> out = new ArrayList<>();
        boolean expert = role.isExpert();
        if (expert) {
            if (t.expert() < 0 || t.expert() >= experts) {
                throw new IllegalArgumentException(t.name() + ": expert role without an expert index");
            }
            int epRank = epRank(t);
            int edp = layout.expertDataParallel();
            int dim = role == TensorRole.EXPERT_COLUMN ? 0 : 1;
            for (int e = 0; e < layout.etp(); e++) {
                Box box = split(t, whole, dim, layout.etp(), e);
                int[] ranks = new int[edp];
                for (int d = 0; d < edp; d++) {
                    ranks[d] = layout.expertRank(e, epRank, d, stage);
                }
                addReplicas(out, box, ranks, edp);
            }
            return out;
        }
        int tp = layout.tp();
        if (role == TensorRole.REPLICATED) {
            addDense(out, whole, allTp(), stage);
            return out;
        }
        for (int r = 0; r < tp; r++) {
            Box box = switch (role) {
                case ATTN_Q, ATTN_KV, COLUMN -> split(t, whole, 0, tp, r);
                case ROW -> split(t, whole, 1, tp, r);
                case VOCAB_EMBEDDING, LM_HEAD -> vocabRows(whole, r);
                default -> throw new IllegalStateException("unhandled role " + role);
            };
            if (box != null) {
                addDense(out, box, new int[] {r}, stage);
            }
        }
        return out;
    }

    private int[] allTp() {
        int[] all = new int[layout.tp()];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        return all;
    }

    /** A dense shard held by the listed TP ranks of every cp and dp rank of the stage (or FSDP chunks of it). */
    private void addDense(List<Shard> out, Box box, int[] tpRanks, int stage) {
        int cp = layout.cp();
        int dp = layout.dp();
        int[] ranks = new int[tpRanks.length * cp * dp];
        int i = 0;
        // dp outermost so that under FSDP the ranks of one dp index are contiguous in this array
        for (int d = 0; d < dp; d++) {
            for (int c = 0; c < cp; c++) {
                for (int r : tpRanks) {
                    ranks[i++] = layout.denseRank(r, c, d, stage);
                }
            }
        }
        addReplicas(out, box, ranks, dp);
    }

    /**
     * The replicas of one box, or under FSDP its dim-0 chunks: {@code ranks} is grouped by the data-parallel
     * index ({@code groups} groups of equal size), and chunk g of {@code torch.chunk(box, groups, dim=0)} goes
     * to group g.
     */
    private void addReplicas(List<Shard> out, Box box, int[] ranks, int groups) {
        if (!layout.fsdp() || groups == 1) {
            int[] sorted = ranks.clone();
            Arrays.sort(sorted);
            out.add(new Shard(box, sorted));
            return;
        }
        long rows = box.size(0);
        long chunk = (rows + groups - 1) / groups;
        int per = ranks.length / groups;
        for (int g = 0; g < groups; g++) {
            Box part = box.narrow(0, box.start(0) + g * chunk, box.start(0) + (g + 1) * chunk);
            if (part == null) {
                continue; // torch.chunk gives fewer chunks than ranks: trailing ranks hold nothing
            }
            int[] sorted = Arrays.copyOfRange(ranks, g * per, (g + 1) * per);
            Arrays.sort(sorted);
            out.add(new Shard(part, sorted));
        }
    }

    /** Even split of dimension {@code dim} into {@code parts}, part {@code index}; the size must divide. */
    static Box split(Tensor t, Box whole, int dim, int parts, int index) {
        if (dim >= whole.dims()) {
            throw new IllegalArgumentException(t.name() + ": cannot split dim " + dim + " of a "
                    + whole.dims() + "-d tensor");
        }
        long n = whole.size(dim);
        if (n % parts != 0) {
            throw new IllegalArgumentException(t.name() + ": dim " + dim + " (" + n + ") is not divisible by "
                    + parts + " ranks");
        }
        long per = n / parts;
        return whole.narrow(dim, index * per, (index + 1) * per);
    }

    /** Megatron pads the vocabulary to a multiple of 128*tp and gives each TP rank an equal row range. */
    private Box vocabRows(Box whole, int r) {
        long multiple = VOCAB_DIVISOR * layout.tp();
        long padded = (whole.size(0) + multiple - 1) / multiple * multiple;
        long per = padded / layout.tp();
        return whole.narrow(0, r * per, (r + 1) * per);
    }

    AttentionHeads heads() {
        return heads;
    }
}
