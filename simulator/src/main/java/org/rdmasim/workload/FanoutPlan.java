package org.rdmasim.workload;

import java.util.List;
import org.rdmasim.transport.Operation;

/**
 * R receivers get a model from S sources: who holds it, who wants it, when they ask, how they pick
 * a source, and whether finished receivers serve others (tree fan-out). Transfers are generated as
 * the run goes, since a tree needs completions to know its next sources.
 *
 * @param receivers   receiving hosts, each with the GPUs that want the model, in arrival order
 * @param sources     hosts holding the model at the start, with the GPUs that hold it
 * @param modelBytes  the model's size
 * @param tree        null for direct fan-out (sources serve any number of receivers at once)
 * @param operation   READ (receivers pull, as ModelExpress does) or WRITE (sources push)
 * @param descriptors descriptors per GPU transfer (one ucp_get_nbx / ucp_put_nbx each)
 */
public record FanoutPlan(List<Member> receivers, List<Member> sources, long modelBytes, ModelLayout layout,
        ArrivalProcess arrival, SourceAssignment assignment, TreeFanout tree, Operation operation, int descriptors,
        RefitCycles cycles, Jitter jitter) {

    /** A host and the GPUs on it that take part. */
    public record Member(String host, List<String> gpus) {
        public Member {
            gpus = List.copyOf(gpus);
            if (gpus.isEmpty()) {
                throw new IllegalArgumentException("host " + host + " takes part with no GPU");
            }
        }
    }

    public FanoutPlan {
        receivers = List.copyOf(receivers);
        sources = List.copyOf(sources);
        if (receivers.isEmpty() || sources.isEmpty()) {
            throw new IllegalArgumentException("a fan-out needs at least one receiver and one source");
        }
        if (modelBytes < 1) {
            throw new IllegalArgumentException("the model must have at least one byte");
        }
        if (descriptors < 1) {
            throw new IllegalArgumentException("at least one descriptor per transfer");
        }
    }

    /** Bytes receiver GPU {@code k} of {@code gpus} pulls: the whole model, or its shard (remainder to the first shards). */
    public long bytesForGpu(int k, int gpus) {
        if (layout == ModelLayout.WHOLE) {
            return modelBytes;
        }
        long base = modelBytes / gpus;
        return base + (k < modelBytes % gpus ? 1 : 0);
    }

    /** The source GPU receiver GPU {@code k} pulls from: its shard's holder, or (whole model) the source's GPUs in turn. */
    public String sourceGpu(List<String> sourceGpus, int k) {
        return layout == ModelLayout.SHARDED ? sourceGpus.get(k) : sourceGpus.get(k % sourceGpus.size());
    }

    /**
     * The transfers the first receiver posts to the first source, as a run posts them (ids without a
     * cycle): what {@code explain} shows, since every receiver of one host shape chooses the same lanes.
     */
    public List<TransferItem> firstPull() {
        return pulls(receivers.get(0), sources.get(0));
    }

    /** The transfers receiver {@code r} posts to {@code s} (a source, or in a tree a receiver it pulls from). */
    public List<TransferItem> pulls(Member r, Member s) {
        List<TransferItem> out = new java.util.ArrayList<>();
        for (int k = 0; k < r.gpus().size(); k++) {
            out.add(new TransferItem(r.host() + ":" + r.gpus().get(k),
                    new org.rdmasim.transport.Endpoint(s.host(), sourceGpu(s.gpus(), k)),
                    new org.rdmasim.transport.Endpoint(r.host(), r.gpus().get(k)), bytesForGpu(k, r.gpus().size()), 0,
                    operation, descriptors));
        }
        return out;
    }

    public FanoutPlan withSources(List<Member> newSources) {
        return new FanoutPlan(receivers, newSources, modelBytes, layout, arrival, assignment, tree, operation, descriptors,
                cycles, jitter);
    }

    public FanoutPlan withTree(TreeFanout newTree) {
        return new FanoutPlan(receivers, sources, modelBytes, layout, arrival, assignment, newTree, operation, descriptors,
                cycles, jitter);
    }
}
