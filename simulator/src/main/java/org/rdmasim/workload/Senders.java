package org.rdmasim.workload;

/**
 * Which trainer ranks send a broadcast refit's buckets ({@code senders:} of a refit): a count of ranks, or the
 * head of each pipeline stage. Only NCCL broadcast reads it; every other method leaves it at rank 0 alone.
 */
public sealed interface Senders permits Senders.Ranks, Senders.StageHeads {
    /** Every trainer rank, striped (verl's {@code nccl_parallel}). */
    Senders ALL = new Ranks(0);
    /** Trainer rank 0 alone (verl's stock {@code nccl} engine). */
    Senders RANK_ZERO = new Ranks(1);
    /** The first rank of each pipeline stage, one bucket at a time (miles' and slime's NCCL update). */
    Senders STAGE_HEADS = new StageHeads();

    /**
     * {@code count} trainer ranks, evenly spaced in rank order, each sending over its own communicator.
     *
     * @param count 0 every trainer rank, 1 rank 0 alone, N in between
     */
    record Ranks(int count) implements Senders {
        public Ranks {
            if (count < 0) {
                throw new IllegalArgumentException("senders is 0 (all) or a count of trainer ranks, got " + count);
            }
        }
    }

    /**
     * The first rank of each pipeline stage sends its stage's buckets, one bucket at a time from its call through
     * the engines' load under the engines' lock, the broadcasts one at a time beside the loads (miles' NCCL update:
     * {@code NcclBroadcast#oneAtATime}).
     */
    record StageHeads() implements Senders {
    }

    static Senders ranks(int count) {
        return new Ranks(count);
    }

    /** Every trainer rank sends. */
    default boolean all() {
        return equals(ALL);
    }

    /** Trainer rank 0 sends every bucket. */
    default boolean rankZeroAlone() {
        return equals(RANK_ZERO);
    }
}
