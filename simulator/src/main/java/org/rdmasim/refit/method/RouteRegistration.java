package org.rdmasim.refit.method;

/** Registration and descriptor counts shared by the methods that move the slice map's routes. */
final class RouteRegistration {
    private RouteRegistration() {
    }

    /**
     * The slowest rank's registration (all ranks register at once): each trainer rank registers the shards
     * its routes read, each inference rank the buffers it receives into, each buffer once however many peers
     * touch it ({@link RankBuffers}). A trainer rank read by sixteen receivers registers what it does when
     * read by one.
     */
    static double slowestRank(WireContext ctx) {
        Registration reg = ctx.plan().registration();
        RankBuffers b = ctx.plan().buffers();
        double worst = 0;
        for (int t : ctx.trainerRanks()) {
            worst = Math.max(worst, reg.seconds(ctx.registrationTerms(), b.trainerBytes(t), b.trainerTensors(t)));
        }
        for (int i : ctx.inferenceRanks()) {
            worst = Math.max(worst, reg.seconds(ctx.registrationTerms(), b.inferenceBytes(i), b.inferenceTensors(i)));
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
