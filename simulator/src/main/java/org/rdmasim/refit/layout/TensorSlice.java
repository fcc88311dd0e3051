package org.rdmasim.refit.layout;

import org.rdmasim.refit.model.Tensor;

/**
 * One intersection of the slice map: the part of {@code tensor} that {@code inferenceRank} reads from
 * {@code trainerRank}, as {@code runs} contiguous byte runs totalling {@code bytes} (copies included).
 *
 * @param box          the overlap, in the tensor's index space
 * @param trainerShard what the trainer rank holds of the tensor
 * @param need         what the inference rank needs of the tensor
 */
public record TensorSlice(Tensor tensor, int trainerRank, int inferenceRank, Box box, Box trainerShard, Box need,
        long bytes, long runs) {
}
