package org.rdmasim.refit.layout;

import org.rdmasim.refit.model.ModelInventory;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/**
 * The attention geometry layouts cut query and key/value projections by: whole heads, never parts of one.
 *
 * @param queryHeads {@code num_attention_heads}
 * @param kvHeads    {@code num_key_value_heads} (query groups)
 * @param headDim    {@code head_dim}
 */
public record AttentionHeads(int queryHeads, int kvHeads, int headDim) {
    public AttentionHeads {
        if (queryHeads < 1 || kvHeads < 1 || headDim < 1 || queryHeads % kvHeads != 0) {
            throw new IllegalArgumentException("attention needs heads >= 1 with kv heads dividing query heads, got "
                    + queryHeads + "/" + kvHeads + " x " + headDim);
        }
    }

    public long kvRows() {
        return (long) kvHeads * headDim;
    }

    /** Query rows per query group: the heads sharing one key/value head. */
    public long groupRows() {
        return (long) (queryHeads / kvHeads) * headDim;
    }

    /**
     * The geometry of a model's separate q, k and v projections (GQA), the head width read off the first
     * {@code q_proj} (rows = heads x head_dim); null for a model without them (MLA attention is cut as plain
     * column and row tensors).
     */
    public static AttentionHeads of(ModelInventory m) {
        for (Tensor t : m.tensors()) {
            if (t.role() == TensorRole.ATTN_Q && t.scaleOf() == null) {
                long rows = t.shape().get(0);
                if (rows % m.attentionHeads() != 0) {
                    throw new IllegalArgumentException(t.name() + ": " + rows + " rows are not a whole number of "
                            + m.attentionHeads() + " heads");
                }
                return new AttentionHeads(m.attentionHeads(), m.kvHeads(), (int) (rows / m.attentionHeads()));
            }
        }
        return null;
    }
}
