package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.List;
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
 */
public record WriteSchedule(long chunkBytes, int inFlight) implements RefitMethod {
    public WriteSchedule {
        if (chunkBytes < 1 || inFlight < 1) {
            throw new IllegalArgumentException("a WRITE schedule needs pieces of at least one byte and one buffer");
        }
    }

    @Override
    public String name() {
        return "write-schedule";
    }

    @Override
    public double registrationSeconds(WireContext ctx) {
        return RouteRegistration.slowestRank(ctx);
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        List<BucketPipeline.Unit> units = new ArrayList<>();
        List<Integer> senders = ctx.trainerRanks();
        for (int s = 0; s < senders.size(); s++) {
            int t = senders.get(s);
            for (SliceRoute r : ctx.plan().routes()) {
                if (r.trainerRank() != t) {
                    continue;
                }
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
}
