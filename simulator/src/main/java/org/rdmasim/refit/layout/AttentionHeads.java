package org.rdmasim.refit.layout;

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

    public long queryRows() {
        return (long) queryHeads * headDim;
    }

    public long kvRows() {
        return (long) kvHeads * headDim;
    }

    /** Query rows per query group: the heads sharing one key/value head. */
    public long groupRows() {
        return (long) (queryHeads / kvHeads) * headDim;
    }
}
