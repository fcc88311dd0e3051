package org.rdmasim.refit.layout;

/**
 * A vLLM/SGLang serving layout: {@code dp} engines of {@code tp} ranks each, rank = dp_rank * tp + tp_rank.
 *
 * <p>MoE layers see all {@code tp*dp} ranks as one group: vLLM's {@code FusedMoEParallelConfig.make}
 * flattens TP across DP ({@code flatten_tp_across_dp}: size dp*tp, rank dp_rank*tp + tp_rank;
 * vllm-project/vllm vllm/model_executor/layers/fused_moe/config.py). Without expert parallelism the routed
 * experts are then tensor-split over that flattened group; with it ({@code --enable-expert-parallel}) each of
 * the dp*tp ranks owns whole experts, placed by {@code determine_expert_map}'s "linear" strategy
 * (vllm/model_executor/layers/fused_moe/layer.py @0014ec6c): rank r holds the
 * {@code E'/ep + (r < E'%ep ? 1 : 0)} physical experts from {@code r*(E'/ep) + min(r, E'%ep)}, the remainder
 * going to the first ranks, with {@code E' = experts + redundantExperts}.
 *
 * @param redundantExperts EPLB redundant physical experts; vLLM's initial map gives physical expert
 *                         {@code E + i} to logical expert {@code i % E} ({@code EplbState
 *                         .build_initial_global_physical_to_logical_map}, vllm/distributed/eplb/eplb_state.py)
 */
public record InferenceLayout(int tp, int dp, boolean expertParallel, int redundantExperts, boolean separateEngines) {
    public InferenceLayout {
        if (tp < 1 || dp < 1) {
            throw new IllegalArgumentException("inference tp and dp must be >= 1, got tp " + tp + " dp " + dp);
        }
        if (redundantExperts < 0 || (redundantExperts > 0 && !expertParallel)) {
            throw new IllegalArgumentException("redundant experts (" + redundantExperts
                    + ") need expert parallelism and must be >= 0");
        }
    }

    /** DP inside one engine: MoE layers flattened over every rank. */
    public InferenceLayout(int tp, int dp, boolean expertParallel, int redundantExperts) {
        this(tp, dp, expertParallel, redundantExperts, false);
    }

    /** Tensor parallel only, no DP, no EP. */
    public InferenceLayout(int tp) {
        this(tp, 1, false, 0);
    }

    public int worldSize() {
        return tp * dp;
    }

    public int rank(int dpRank, int tpRank) {
        return dpRank * tp + tpRank;
    }

    /** The rank's position inside its engine's TP group. */
    public int tpRank(int rank) {
        return rank % tp;
    }

    /**
     * Size of the group MoE layers use: all ranks, TP flattened across DP; with separate engines (each DP
     * replica its own vLLM instance, as NeMo-RL and verl run them) the engine's TP ranks only.
     */
    public int moeGroup() {
        return separateEngines ? tp : tp * dp;
    }

    /** The rank's position in its MoE group. */
    public int moeRank(int rank) {
        return separateEngines ? tpRank(rank) : rank;
    }

    @Override
    public String toString() {
        return "tp" + tp + " dp" + dp + (expertParallel ? " ep" + moeGroup() : "")
                + (redundantExperts > 0 ? " +" + redundantExperts + " redundant" : "")
                + (separateEngines ? " (separate engines)" : "");
    }
}
