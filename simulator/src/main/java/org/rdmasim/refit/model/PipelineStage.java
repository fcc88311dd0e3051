package org.rdmasim.refit.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One trainer pipeline stage: decoder layers {@code [firstLayer, endLayer)} and the model-level tensors Megatron
 * gives it. Megatron-Core splits layers evenly (megatron/core/transformer/transformer_layer.py
 * get_transformer_layer_offset: {@code pp_rank * num_layers / pp_size} without uneven-stage settings), puts the
 * word embedding on the first stage and the final norm and output layer on the last (GPTModel pre_process /
 * post_process); with tied embeddings and more than one stage the last stage keeps its own copy of the
 * embedding as output weight (LanguageModule.setup_embeddings_and_output_layer). MTP layers go to the last stage.
 *
 * @param bytes the stage's bytes, whole (before tensor or expert parallelism cuts them)
 */
public record PipelineStage(int stage, int firstLayer, int endLayer, long bytes) {

    public static List<PipelineStage> split(ModelInventory m, int pp) {
        int layers = m.layers();
        if (pp < 1) {
            throw new IllegalArgumentException("PP must be at least 1, got " + pp);
        }
        if (layers % pp != 0) {
            throw new IllegalArgumentException(layers + " decoder layers do not split evenly over PP " + pp
                    + " (Megatron-Core's even split needs num_layers % PP == 0; uneven first/last stages are not "
                    + "modelled)");
        }
        int per = layers / pp;
        long[] bytes = new long[pp];
        boolean lmHead = false;
        long embedding = 0;
        for (Tensor t : m.tensors()) {
            int stage;
            if (t.layer() >= layers) {
                stage = pp - 1;
            } else if (t.layer() >= 0) {
                stage = t.layer() / per;
            } else if (t.role() == TensorRole.VOCAB_EMBEDDING) {
                stage = 0;
                embedding += t.bytes();
            } else {
                stage = pp - 1;
                lmHead |= t.role() == TensorRole.LM_HEAD;
            }
            bytes[stage] += t.bytes();
        }
        if (!lmHead && pp > 1) {
            bytes[pp - 1] += embedding;
        }
        List<PipelineStage> out = new ArrayList<>();
        for (int s = 0; s < pp; s++) {
            out.add(new PipelineStage(s, s * per, (s + 1) * per, bytes[s]));
        }
        return out;
    }
}
