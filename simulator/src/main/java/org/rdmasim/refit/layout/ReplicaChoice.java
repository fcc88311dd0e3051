package org.rdmasim.refit.layout;

/**
 * Which of several trainer ranks holding the same bytes (data-parallel or context-parallel replicas,
 * replicated tensors) an inference rank reads them from. Either way each byte is read once per receiver.
 */
public enum ReplicaChoice {
    /**
     * Always the first replica in rank order: ModelExpress' merge keeps one representative per shard
     * geometry, the first offered ({@code merge_shard_tables}, ai-dynamo/modelexpress @3db6bdc4,
     * modelexpress_client/python/modelexpress/refit/reshard/rendezvous.py L261, since #635).
     */
    FIRST,
    /**
     * The replica at {@code inferenceRank % replicas}, so a fleet's reads spread over the replicas, as
     * ModelExpress' {@code MX_RESHARD_SPREAD_SOURCES} rotation by receiver rank did (commit a07ffe6e).
     */
    SPREAD
}
