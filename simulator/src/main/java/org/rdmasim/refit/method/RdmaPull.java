package org.rdmasim.refit.method;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;
import org.rdmasim.workload.TransferItem;

/**
 * Receiver-driven RDMA pull, as NIXL does it for ModelExpress and vLLM's RDT engines: each trainer rank
 * prepares (gathers, converts) what it publishes, then every inference rank reads its runs from each
 * trainer rank it needs, one READ per route whose descriptors are the route's runs (ModelExpress's
 * {@code slice_plan.py} emits contiguous byte runs and {@code transport/nixl.py} posts them as one batched
 * read), over the lanes the transport backend's policy chooses (UCX's lane selection for NIXL's UCX backend).
 * The READs land in the engine's own tensors: no install copy.
 *
 * <p>With a tree ({@code treeChildren} > 0) ranks holding the same shard ({@code shardOf} equal: the same TP
 * rank of different DP replicas) share it as ModelExpress's {@code publish_self_as_source} does
 * (ai-dynamo/modelexpress issue #449): the lowest rank of a shard pulls from the trainers, and every rank
 * that holds the shard serves up to {@code treeChildren} others of it at once, one READ of the whole shard.
 */
public record RdmaPull(int treeChildren, IntUnaryOperator shardOf) implements RefitMethod {
    public RdmaPull {
        if (treeChildren < 0) {
            throw new IllegalArgumentException("tree children must be >= 0");
        }
        if (treeChildren > 0 && shardOf == null) {
            throw new IllegalArgumentException("a tree needs to know which ranks hold the same shard");
        }
    }

    /** Every inference rank pulls from the trainers. */
    public static RdmaPull direct() {
        return new RdmaPull(0, null);
    }

    public static RdmaPull tree(int children, IntUnaryOperator shardOf) {
        return new RdmaPull(children, shardOf);
    }

    @Override
    public String name() {
        return treeChildren > 0 ? "rdma-pull-tree" : "rdma-pull";
    }

    @Override
    public double registrationSeconds(WireContext ctx) {
        return RouteRegistration.slowestRank(ctx);
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        Countdown prepared = new Countdown(ctx.trainerRanks().size(), () -> pull(ctx, done));
        for (int t : ctx.trainerRanks()) {
            ctx.prepare(ctx.trainer(t), ctx.bytesFrom(t), prepared::arrive);
        }
    }

    private void pull(WireContext ctx, Runnable done) {
        Countdown all = new Countdown(ctx.inferenceRanks().size(), done);
        Map<Integer, List<Integer>> groups = new TreeMap<>();
        for (int i : ctx.inferenceRanks()) {
            groups.computeIfAbsent(treeChildren > 0 ? shardOf.applyAsInt(i) : i, k -> new ArrayList<>()).add(i);
        }
        for (List<Integer> group : groups.values()) {
            int leader = group.get(0);
            for (int m : group) {
                if (ctx.bytesTo(m) != ctx.bytesTo(leader)) {
                    throw new IllegalArgumentException("inference ranks " + leader + " and " + m + " are given the "
                            + "same shard but need " + ctx.bytesTo(leader) + " and " + ctx.bytesTo(m) + " bytes");
                }
            }
            Shard shard = new Shard(ctx, group, all);
            pullRoutes(ctx, leader, () -> shard.holds(leader, null));
        }
    }

    private static void pullRoutes(WireContext ctx, int rank, Runnable then) {
        List<SliceRoute> mine = ctx.plan().routes().stream().filter(r -> r.inferenceRank() == rank).toList();
        Countdown routes = new Countdown(mine.size(), then);
        for (SliceRoute r : mine) {
            TransferItem item = new TransferItem("c" + ctx.cycle() + "/pull/t" + r.trainerRank() + "-i" + rank,
                    ctx.trainer(r.trainerRank()), ctx.inference(rank), r.bytes(), 0, Operation.READ,
                    RouteRegistration.descriptors(r.runs()));
            ctx.post(item, rank, x -> routes.arrive());
        }
    }

    /** The ranks of one shard: who holds it, who waits, and how many pulls each holder serves now. */
    private final class Shard {
        private final WireContext ctx;
        private final Countdown all;
        private final ArrayDeque<Integer> waiting = new ArrayDeque<>();
        private final List<Integer> holders = new ArrayList<>();
        private final Map<Integer, Integer> serving = new TreeMap<>();
        private final long bytes;
        private final int descriptors;

        Shard(WireContext ctx, List<Integer> group, Countdown all) {
            this.ctx = ctx;
            this.all = all;
            waiting.addAll(group.subList(1, group.size()));
            bytes = ctx.bytesTo(group.get(0));
            descriptors = RouteRegistration.descriptors(ctx.runsTo(group.get(0)));
        }

        /** {@code rank} now holds the shard; {@code servedBy} (null for the leader) frees a slot. */
        void holds(int rank, Integer servedBy) {
            all.arrive();
            if (servedBy != null) {
                serving.merge(servedBy, -1, Integer::sum);
            }
            holders.add(rank);
            serving.putIfAbsent(rank, 0);
            dispatch();
        }

        private void dispatch() {
            for (int h : holders) {
                while (!waiting.isEmpty() && serving.get(h) < treeChildren) {
                    int m = waiting.pollFirst();
                    serving.merge(h, 1, Integer::sum);
                    Endpoint from = ctx.inference(h);
                    TransferItem item = new TransferItem("c" + ctx.cycle() + "/tree/i" + h + "-i" + m, from,
                            ctx.inference(m), bytes, 0, Operation.READ, descriptors);
                    ctx.post(item, m, x -> holds(m, h));
                }
            }
        }
    }
}
