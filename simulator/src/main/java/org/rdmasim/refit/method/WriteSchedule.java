package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.rdmasim.refit.layout.SliceRoute;
import org.rdmasim.transport.Operation;
import org.rdmasim.workload.TransferItem;

/**
 * A static RDMA WRITE schedule, as Perplexity's weight transfer runs it (research.perplexity.ai, "Weight
 * Transfer for RL Post-Training in under 2 seconds"; le.qun.ch/en/blog/2025/09/17/rl-weight-transfer-2):
 * a controller computes once which trainer GPU writes which bytes to which inference GPU, in what order;
 * each refit every sender walks its list, preparing the next piece on the GPU ({@code full_tensor()},
 * fusion, quantisation) while earlier pieces are on the wire, and the receiver is never notified: the
 * WRITEs land in its weights, and a global barrier closes the update.
 *
 * <p>Each route, in the plan's order, is cut into pieces of at most {@code chunkBytes}; a sender keeps at
 * most {@code inFlight} prepared pieces not yet written (its staging buffers), and WRITEs of one sender run
 * at once (they are posted asynchronously). The lanes are the transport backend's policy; Perplexity's own
 * TransferEngine stripes over the NICs of a GPU, which a backend with explicit lanes models.
 *
 * <p>The order in which a sender walks its routes is an {@link Order}. Perplexity says its controller decides
 * "which training GPU sends which parameter to which inference GPU, and in what order" (the article's "High-level
 * workflow", step 2) without publishing the rule, so the slice map's order is the default and the other is an
 * assumption a scenario names.
 */
public record WriteSchedule(long chunkBytes, int inFlight, Order order) implements RefitMethod {
    /** How each sender orders its routes. */
    public enum Order {
        /** The plan's order (the slice map's, by inference rank: every sender starts at the lowest rank it feeds). */
        SLICE_MAP,
        /**
         * Receiver-staggered (an assumption, not a published rule): sender k of S starts at the inference rank
         * at position floor(k * I / S) of the I ranks fed and walks on in rank order, wrapping round, so at any
         * moment the senders spread over the receivers instead of all writing to the same one.
         */
        RECEIVER_STAGGERED
    }

    public WriteSchedule {
        if (chunkBytes < 1 || inFlight < 1) {
            throw new IllegalArgumentException("a WRITE schedule needs pieces of at least one byte and one buffer");
        }
        Objects.requireNonNull(order, "order");
    }

    /** A schedule in the slice map's order. */
    public WriteSchedule(long chunkBytes, int inFlight) {
        this(chunkBytes, inFlight, Order.SLICE_MAP);
    }

    @Override
    public String name() {
        return order == Order.RECEIVER_STAGGERED ? "write-schedule-staggered" : "write-schedule";
    }

    @Override
    public double registrationSeconds(WireContext ctx) {
        return RouteRegistration.slowestRank(ctx);
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        List<BucketPipeline.Unit> units = new ArrayList<>();
        List<Integer> senders = ctx.trainerRanks();
        List<Integer> receivers = ctx.inferenceRanks();
        for (int s = 0; s < senders.size(); s++) {
            int t = senders.get(s);
            for (SliceRoute r : routesOf(ctx.plan().routes(), t, s, senders.size(), receivers)) {
                int pieces = (int) ((r.bytes() + chunkBytes - 1) / chunkBytes);
                for (int p = 0; p < pieces; p++) {
                    long bytes = Math.min(chunkBytes, r.bytes() - (long) p * chunkBytes);
                    long runs = Math.max(1, Math.round((double) r.runs() * bytes / r.bytes()));
                    TransferItem item = new TransferItem("c" + ctx.cycle() + "/write/t" + t + "-i" + r.inferenceRank()
                            + "/" + p, ctx.trainer(t), ctx.inference(r.inferenceRank()), bytes, 0, Operation.WRITE,
                            RouteRegistration.descriptors(runs));
                    units.add(new BucketPipeline.Unit(s,
                            then -> ctx.prepare(ctx.trainer(t), bytes, then),
                            then -> ctx.post(item, r.inferenceRank(), x -> then.run()),
                            null));
                }
            }
        }
        new BucketPipeline(units, inFlight, BucketPipeline.WireOrder.NONE, done).start();
    }

    /**
     * Sender {@code t}'s routes in the order it writes them: the plan's (by inference rank), or, staggered, the
     * same list rotated to start at the receiver at position floor(k * I / S) of the I ranks fed, k being the
     * sender's position among the S senders.
     */
    private List<SliceRoute> routesOf(List<SliceRoute> plan, int t, int k, int senders, List<Integer> receivers) {
        List<SliceRoute> mine = new ArrayList<>();
        for (SliceRoute r : plan) {
            if (r.trainerRank() == t) {
                mine.add(r);
            }
        }
        if (order == Order.SLICE_MAP || mine.isEmpty()) {
            return mine;
        }
        mine.sort(Comparator.comparingInt(SliceRoute::inferenceRank));
        int start = receivers.get((int) ((long) k * receivers.size() / senders));
        int first = 0;
        while (first < mine.size() && mine.get(first).inferenceRank() < start) {
            first++;
        }
        List<SliceRoute> out = new ArrayList<>(mine.subList(first, mine.size()));
        out.addAll(mine.subList(0, first));
        return out;
    }
}
