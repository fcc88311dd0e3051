package org.rdmasim.refit.layout;

/**
 * One distinct piece of a tensor on the trainer side and the ranks holding identical copies of it
 * (data-parallel and context-parallel replicas, or tensor-parallel ranks of a replicated tensor), in
 * ascending rank order.
 */
record Shard(Box box, int[] ranks) {
    int source(int inferenceRank, ReplicaChoice choice) {
        return choice == ReplicaChoice.FIRST ? ranks[0] : ranks[inferenceRank % ranks.length];
    }
}
