package org.rdmasim.sweep;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.rdmasim.report.ReceiverSummary;
import org.rdmasim.workload.ReplicationStats;
import org.rdmasim.workload.RunResult;

/** A number a study records for each point and replication, read off one replication's result. */
public enum Figure {
    P50_PULL("p50PullSeconds", "p50 pull time (s)"),
    P99_PULL("p99PullSeconds", "p99 pull time (s)"),
    MEAN_PULL("meanPullSeconds", "mean pull time (s)"),
    MAKESPAN("makespanSeconds", "makespan (s)"),
    AGGREGATE_GBPS("aggregateGbps", "aggregate throughput (Gbps)");

    private final String key;
    private final String axis;

    Figure(String key, String axis) {
        this.key = key;
        this.axis = axis;
    }

    /**
     * True for a figure taken over every receiver's pull. A refit has none: each inference rank receives
     * in every cycle (a broadcast's ranks also relay), so a span from a rank's first transfer to its last
     * adds cycles and stages together and is no one pull; a refit study may not ask for these.
     */
    public boolean perPull() {
        return this == P50_PULL || this == P99_PULL || this == MEAN_PULL;
    }

    /** The column name in the result table. */
    public String key() {
        return key;
    }

    public String axis() {
        return axis;
    }

    /** The figure named {@code key}; an unknown name fails with the names there are. */
    public static Figure byKey(String key) {
        for (Figure f : values()) {
            if (f.key.equals(key)) {
                return f;
            }
        }
        throw new StudyInputException("unknown figure '" + key + "'; expected one of "
                + Arrays.stream(values()).map(Figure::key).collect(Collectors.joining(", ")));
    }

    /**
     * This figure of one replication: pull-time percentiles are nearest-rank over every receiver's pull
     * (as {@link ReplicationStats} takes them), the aggregate is all bytes over the makespan. For a refit
     * the makespan is its wall time over every cycle and the aggregate the wire bytes of every cycle over
     * it, the numbers its summary.json gives; a pull figure of a refit is refused (see {@link #perPull()}).
     */
    public double of(RunResult r) {
        if (r.refit() != null && perPull()) {
            throw new IllegalArgumentException("figure '" + key + "' is per receiver pull, which a refit has none of");
        }
        return switch (this) {
            case P50_PULL -> percentile(r, 0.50);
            case P99_PULL -> percentile(r, 0.99);
            case MEAN_PULL -> ReplicationStats.mean(ReplicationStats.pullSeconds(r));
            case MAKESPAN -> ReplicationStats.makespan(r);
            case AGGREGATE_GBPS -> ReceiverSummary.of(r).aggregateGbps();
        };
    }

    private static double percentile(RunResult r, double p) {
        double[] pulls = ReplicationStats.pullSeconds(r);
        Arrays.sort(pulls);
        return ReplicationStats.percentile(pulls, p);
    }
}
