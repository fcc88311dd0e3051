package org.rdmasim.refit.layout;

/**
 * What one inference rank holds of a model's weights.
 *
 * @param bytes        checkpoint bytes the rank holds: the sum, over tensors, of the part of each it loads (a KV
 *                     head replicated over several ranks counts on each)
 * @param paddingBytes rows past the vocabulary that vLLM allocates when it pads the embedding and lm_head: held
 *                     in GPU memory, never sent
 * @param experts      routed experts of each MoE layer on the rank: whole ones under expert parallelism (more
 *                     than {@code routed / ranks} on the first ranks and with redundant experts), all of them as
 *                     slices without it
 */
public record RankShare(int rank, int tpRank, int dpRank, long bytes, long paddingBytes, int experts) {
}
