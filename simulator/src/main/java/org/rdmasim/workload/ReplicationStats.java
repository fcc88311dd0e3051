package org.rdmasim.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.moment.Mean;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.rdmasim.transport.TransferResult;

/**
 * Statistics over the replications of one variant: per replication the makespan and the mean, p50 and
 * p99 of per-receiver pull time; across replications the mean of each with a 95% confidence interval
 * (Student's t with n - 1 degrees of freedom), and the p50/p99 of all pulls pooled. Every statistic is
 * Apache Commons Math's: the mean, the bias-corrected standard deviation, the t quantile and the
 * percentiles, which are nearest-rank (estimation type R_1, the inverse of the empirical distribution),
 * so they are always an observed pull time.
 */
public record ReplicationStats(int replications, Estimate makespanSeconds, Estimate meanPullSeconds,
        Estimate p50PullSeconds, Estimate p99PullSeconds, double pooledP50PullSeconds, double pooledP99PullSeconds) {

    /** A mean over replications with its 95% confidence interval (the mean itself when n = 1). */
    public record Estimate(double mean, double ci95Low, double ci95High, double stdDev) {
        static Estimate of(double[] xs) {
            int n = xs.length;
            double mean = new Mean().evaluate(xs);
            if (n < 2) {
                return new Estimate(mean, mean, mean, 0);
            }
            double sd = new StandardDeviation(true).evaluate(xs);
            double half = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975) * sd / Math.sqrt(n);
            return new Estimate(mean, mean - half, mean + half, sd);
        }
    }

    public static ReplicationStats of(List<RunResult> runs) {
        int n = runs.size();
        double[] makespan = new double[n];
        double[] mean = new double[n];
        double[] p50 = new double[n];
        double[] p99 = new double[n];
        List<double[]> all = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < n; i++) {
            double[] pulls = pullSeconds(runs.get(i));
            Arrays.sort(pulls);
            all.add(pulls);
            total += pulls.length;
            makespan[i] = makespan(runs.get(i));
            mean[i] = mean(pulls);
            p50[i] = percentile(pulls, 0.50);
            p99[i] = percentile(pulls, 0.99);
        }
        double[] pooled = new double[total];
        int k = 0;
        for (double[] a : all) {
            System.arraycopy(a, 0, pooled, k, a.length);
            k += a.length;
        }
        Arrays.sort(pooled);
        return new ReplicationStats(n, Estimate.of(makespan), Estimate.of(mean), Estimate.of(p50), Estimate.of(p99),
                percentile(pooled, 0.50), percentile(pooled, 0.99));
    }

    /** The mean of {@code values} (Commons Math's, with its second-pass correction); 0 for no values. */
    public static double mean(double[] values) {
        return values.length == 0 ? 0 : new Mean().evaluate(values);
    }

    /**
     * Nearest-rank percentile: the smallest value with at least {@code p} of all at or below it (Commons
     * Math's estimation type R_1); 0 for no values.
     */
    public static double percentile(double[] values, double p) {
        if (values.length == 0) {
            return 0;
        }
        return new Percentile().withEstimationType(Percentile.EstimationType.R_1).evaluate(values, 100 * p);
    }

    /**
     * Pull time of every receiver: for a fan-out, from asking to having the model (every cycle);
     * otherwise per sink buffer, from its first post to its last completion.
     */
    public static double[] pullSeconds(RunResult r) {
        if (r.fanout() != null) {
            return r.fanout().pulls().stream().mapToDouble(FanoutResult.ReceiverPull::pullSeconds).toArray();
        }
        Map<String, double[]> span = new LinkedHashMap<>();
        for (TransferResult t : r.transfers()) {
            double[] s = span.computeIfAbsent(t.spec().sink().toString(),
                    x -> new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY});
            s[0] = Math.min(s[0], t.startSeconds());
            s[1] = Math.max(s[1], t.finishSeconds());
        }
        return span.values().stream().mapToDouble(s -> s[1] - s[0]).toArray();
    }

    /**
     * First arrival (or post) to last completion; for a fan-out's refit cycles, the sum of the cycles' pull
     * phases; for a refit workload, its wall time over every cycle (what summary.json's makespanSeconds
     * says), not the span of its wire transfers, which leaves out every other stage.
     */
    public static double makespan(RunResult r) {
        if (r.refit() != null) {
            return r.refit().cycles().isEmpty() ? 0 : r.refit().wallSeconds();
        }
        if (r.fanout() != null && !r.fanout().cycles().isEmpty()) {
            return r.fanout().cycles().stream().mapToDouble(FanoutResult.Cycle::pullMakespanSeconds).sum();
        }
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        for (TransferResult t : r.transfers()) {
            first = Math.min(first, t.startSeconds());
            last = Math.max(last, t.finishSeconds());
        }
        return r.transfers().isEmpty() ? 0 : last - first;
    }
}
