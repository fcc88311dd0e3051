package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.List;
import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/**
 * What each inference rank holds of a model under an {@link InferenceLayout}, from the same needs the slice
 * map delivers ({@link InferenceNeeds}, FP8 block scales as {@link SliceMap} cuts them): the bytes of rank r
 * here are {@link SliceMap#neededBytes(int) neededBytes(r)} of any slice map to that layout. The padding rows
 * vLLM allocates past the vocabulary are counted apart: held in GPU memory, never sent.
 */
public final class InferenceShares {
    private InferenceShares() {
    }

    /** Every rank's share, in rank order. */
    public static List<RankShare> of(ModelInventory m, InferenceLayout layout) {
        return of(m.tensors(), AttentionHeads.of(m), layout);
    }

    public static List<RankShare> of(List<Tensor> tensors, AttentionHeads heads, InferenceLayout layout) {
        int experts = 0;
        for (Tensor t : tensors) {
            experts = Math.max(experts, t.expert() + 1);
        }
        InferenceNeeds needs = new InferenceNeeds(layout, heads, experts);
        SliceMap.Scales scales = new SliceMap.Scales(tensors);
        int world = layout.worldSize();
        long[] bytes = new long[world];
        long[] padding = new long[world];
        // copies of each logical expert on each rank, counted once per expert (layer 0's or the first seen)
        int[] expertCount = new int[world];
        boolean[] expertSeen = new boolean[Math.max(experts, 1)];
        for (Tensor t : tensors) {
            int bpe = t.dtype().bytesPerElement();
            List<Need> list = scales.needs(t, needs);
            boolean expert = t.role().isExpert();
            boolean countExpert = expert && t.scaleOf() == null && !expertSeen[t.expert()];
            if (countExpert) {
                expertSeen[t.expert()] = true;
            }
            for (Need n : list) {
                bytes[n.rank()] += n.box().elements() * bpe * n.copies();
                if (countExpert && layout.expertParallel()) {
                    expertCount[n.rank()] += n.copies();
                }
            }
            if ((t.role() == TensorRole.VOCAB_EMBEDDING || t.role() == TensorRole.LM_HEAD) && t.scaleOf() == null) {
                long vocab = t.shape().get(0);
                long padded = (vocab + InferenceNeeds.VOCAB_PADDING - 1) / InferenceNeeds.VOCAB_PADDING
                        * InferenceNeeds.VOCAB_PADDING;
                long per = padded / layout.tp();
                long row = t.bytes() / vocab;
                for (int r = 0; r < world; r++) {
                    long lo = layout.tpRank(r) * per;
                    long real = Math.max(0, Math.min(lo + per, vocab) - lo);
                    padding[r] += (per - real) * row;
                }
            }
        }
        List<RankShare> out = new ArrayList<>(world);
        for (int r = 0; r < world; r++) {
            out.add(new RankShare(r, layout.tpRank(r), r / layout.tp(), bytes[r], padding[r],
                    layout.expertParallel() ? expertCount[r] : experts));
        }
        return out;
    }
}
