package org.rdmasim.refit.layout;

/**
 * Everything one inference rank needs from one trainer rank under a slice map, summed over tensors: what
 * a transfer method moves between the two GPUs.
 *
 * @param trainerRank   global rank in the trainer layout (placed by the layout on a host's GPU)
 * @param inferenceRank global rank in the inference layout
 * @param bytes         bytes of the contiguous runs, summed
 * @param runs          contiguous byte runs on the trainer side: the descriptors a one-sided RDMA
 *                      method posts for them
 * @param tensors       distinct tensors the runs come from
 */
public record SliceRoute(int trainerRank, int inferenceRank, long bytes, long runs, int tensors) {
    public SliceRoute {
        if (trainerRank < 0 || inferenceRank < 0) {
            throw new IllegalArgumentException("ranks must be >= 0");
        }
        if (bytes < 1 || runs < 1 || tensors < 1) {
            throw new IllegalArgumentException("a route moves at least one run of one byte");
        }
    }
}
