package org.rdmasim.workload;

/**
 * Tree fan-out as the ModelExpress proposal describes it ({@code publish_self_as_source}; ai-dynamo/modelexpress
 * #449 [mx-issue-449]): a receiver that has the whole model publishes itself as a source, and every source,
 * the original ones included, serves at most {@code maxChildren} pulls at a time. A receiver that
 * finds every source busy waits for the first free slot.
 */
public record TreeFanout(int maxChildren) {
    public TreeFanout {
        if (maxChildren < 1) {
            throw new IllegalArgumentException("a tree source needs at least one child, got " + maxChildren);
        }
    }
}
