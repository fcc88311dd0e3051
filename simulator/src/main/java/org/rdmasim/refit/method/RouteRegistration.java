package org.rdmasim.refit.method;

/** Registration and descriptor counts shared by the methods that move the slice map's routes. */
final class RouteRegistration {
    private RouteRegistration() {
    }

    /**
     * The slowest rank's registration: each trainer rank registers the bytes it sends, each inference rank
     * the bytes it receives, with the tensors they come from (all ranks register at once).
     */
    static double slowestRank(WireContext ctx) {
        Registration reg = ctx.plan().registration();
        double worst = 0;
        for (int t : ctx.trainerRanks()) {
            worst = Math.max(worst, reg.seconds(ctx.registrationTerms(), ctx.bytesFrom(t), ctx.tensorsFrom(t)));
        }
        for (int i : ctx.inferenceRanks()) {
            worst = Math.max(worst, reg.seconds(ctx.registrationTerms(), ctx.bytesTo(i), ctx.tensorsTo(i)));
        }
        return worst;
    }

    /** Registration of a broadcast's buffers: {@code depth} buffers of one bucket each. */
    static double bucketBuffers(WireContext ctx, Buckets buckets) {
        long bytes = Math.multiplyExact(buckets.bucketBytes(), (long) buckets.depth());
        return ctx.plan().registration().seconds(ctx.registrationTerms(), bytes, buckets.depth());
    }

    /** A run count as descriptors of one transfer. */
    static int descriptors(long runs) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, runs));
    }
}
