package org.rdmasim.refit.layout;

/**
 * A Megatron-Core training layout: tensor (tp), pipeline (pp), expert (ep), expert-tensor (etp), context (cp)
 * and data (dp) parallel sizes.
 *
 * <p>Rank order follows Megatron-Core's default {@code order="tp-cp-ep-dp-pp"} (NVIDIA/Megatron-LM @d98e8a64,
 * megatron/core/parallel_state.py L617), tp innermost. Dense weights use the decoder rank generator
 * (L859: ep=1, so global rank = tp + tp*(cp + cp*(dp + dp*pp))); expert weights use the expert rank generator
 * (L887: tp=etp, cp=1, dp=expert data parallel = world/(etp*ep*pp)), so global rank = etp + etp*(ep +
 * ep*(edp + edp*pp)). Both keep pp outermost, so a rank's pipeline stage is the same under either view.
 *
 * <p>Under {@code fsdp} each data-parallel rank keeps only a dim-0 chunk of its (tp, pp) or (etp, ep, pp)
 * shard, the way torch FSDP2 shards a parameter ({@code Shard(0)}: {@code torch.chunk} over the shard group,
 * chunks of ceil(rows/dp) rows, trailing ranks possibly empty; pytorch/pytorch
 * torch/distributed/fsdp/_fully_shard/_fsdp_common.py {@code _chunk_with_empty}). Context-parallel ranks
 * hold full replicas (CP splits the sequence, not the weights).
 *
 * @param firstStageLayers decoder layers on pipeline stage 0, 0 for an even split (Megatron
 *                         {@code num_layers_in_first_pipeline_stage})
 * @param lastStageLayers  decoder layers on the last stage, 0 for an even split
 *                         ({@code num_layers_in_last_pipeline_stage}); the middle stages share the rest evenly
 *                         as in {@code get_transformer_layer_offset} (megatron/core/transformer/transformer_layer.py L65)
 */
public record TrainerLayout(int tp, int pp, int ep, int etp, int cp, int dp, boolean fsdp, int firstStageLayers,
        int lastStageLayers) {
    public TrainerLayout {
        for (int size : new int[] {tp, pp, ep, etp, cp, dp}) {
            if (size < 1) {
                throw new IllegalArgumentException("trainer parallel sizes must be >= 1: tp " + tp + " pp " + pp
                        + " ep " + ep + " etp " + etp + " cp " + cp + " dp " + dp);
            }
        }
        if (firstStageLayers < 0 || lastStageLayers < 0) {
            throw new IllegalArgumentException("stage layer counts must be >= 0");
        }
        if ((tp * cp * dp) % (etp * ep) != 0) {
            throw new IllegalArgumentException("etp*ep (" + etp * ep + ") must divide tp*cp*dp (" + tp * cp * dp
                    + "), as Megatron's expert rank generator requires");
        }
    }

    /** An even pipeline split without FSDP. */
    public TrainerLayout(int tp, int pp, int ep, int etp, int cp, int dp) {
        this(tp, pp, ep, etp, cp, dp, false, 0, 0);
    }

    public TrainerLayout withFsdp() {
        return new TrainerLayout(tp, pp, ep, etp, cp, dp, true, firstStageLayers, lastStageLayers);
    }

    public int worldSize() {
        return tp * cp * dp * pp;
    }

    /** Expert data-parallel size: the replicas (or FSDP chunks) of one expert shard. */
    public int expertDataParallel() {
        return tp * cp * dp / (etp * ep);
    }

    public int denseRank(int tpRank, int cpRank, int dpRank, int ppRank) {
        return tpRank + tp * (cpRank + cp * (dpRank + dp * ppRank));
    }

    public int expertRank(int etpRank, int epRank, int edpRank, int ppRank) {
        return etpRank + etp * (epRank + ep * (edpRank + expertDataParallel() * ppRank));
    }

    /** The pipeline stage holding decoder layer {@code layer} of {@code layers}. */
    public int stageOf(int layer, int layers) {
        for (int s = 0; s < pp; s++) {
            if (layer < firstLayer(s + 1, layers)) {
                return s;
            }
        }
        throw new IllegalArgumentException("layer " + layer + " is outside the model's " + layers + " layers");
    }

    /** First decoder layer of stage {@code stage} ({@code stage == pp} gives {@code layers}). */
    public int firstLayer(int stage, int layers) {
        if (stage <= 0) {
            return 0;
        }
        if (stage >= pp) {
            return layers;
        }
        int middleStages = pp - (firstStageLayers > 0 ? 1 : 0) - (lastStageLayers > 0 ? 1 : 0);
        int middleLayers = layers - firstStageLayers - lastStageLayers;
        if (middleLayers < 0 || (middleStages == 0 ? middleLayers != 0 : middleLayers % middleStages != 0)) {
            throw new IllegalArgumentException(layers + " layers cannot be split over " + pp + " pipeline stages"
                    + " (first stage " + firstStageLayers + ", last stage " + lastStageLayers
                    + "): the middle stages need an even share, as Megatron's get_transformer_layer_offset assumes");
        }
        int perMiddle = middleStages == 0 ? 0 : middleLayers / middleStages;
        int middleRank = firstStageLayers > 0 ? stage - 1 : stage;
        return firstStageLayers + middleRank * perMiddle;
    }

    @Override
    public String toString() {
        return "tp" + tp + " pp" + pp + " ep" + ep + " etp" + etp + " cp" + cp + " dp" + dp + (fsdp ? " fsdp" : "");
    }
}
