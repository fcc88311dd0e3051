package org.rdmasim.refit.model;

/**
 * How layouts cut a tensor, in the HuggingFace {@code [out, in]} orientation. Trainer (Megatron) and
 * inference (vLLM, SGLang) layouts both cut by role: a column-parallel linear splits dim 0 over its
 * tensor-parallel group, a row-parallel linear dim 1, an expert tensor belongs to one expert-parallel
 * rank and is then split like its dense counterpart over the expert tensor-parallel group.
 */
public enum TensorRole {
    /** Held whole by every rank: norms, router, biases of row-parallel layers. */
    REPLICATED,
    /** Token embedding: rows (vocabulary, padded) split over TP. */
    VOCAB_EMBEDDING,
    /** Output projection: rows (vocabulary, padded) split over TP. */
    LM_HEAD,
    /** Query projection (GQA): dim 0 split over TP by attention head. */
    ATTN_Q,
    /** Key or value projection (GQA): dim 0 split by KV head; replicated when TP exceeds the KV heads. */
    ATTN_KV,
    /** Other column-parallel linear (MLA up-projections, dense gate or up): dim 0 split over TP. */
    COLUMN,
    /** Row-parallel linear (attention output, dense down): dim 1 split over TP. */
    ROW,
    /** A routed expert's gate or up projection: whole expert on one EP rank, dim 0 split over ETP. */
    EXPERT_COLUMN,
    /** A routed expert's down projection: whole expert on one EP rank, dim 1 split over ETP. */
    EXPERT_ROW;

    /** A routed expert's tensor: it belongs to one expert-parallel rank. */
    public boolean isExpert() {
        return this == EXPERT_COLUMN || this == EXPERT_ROW;
    }
}
