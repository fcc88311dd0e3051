package org.rdmasim.sweep;

import java.util.List;

/**
 * One point and replication of a study: the knob values as written, whether the variant ran, each
 * figure of the study (in the study's order; empty when it failed), what limited the slowest receiver,
 * and the error of a failed variant.
 */
public record ResultRow(int point, int replication, List<String> values, boolean ok, double[] figures, String limiter,
        String error) {
    public ResultRow {
        values = List.copyOf(values);
        figures = figures.clone();
    }

    /** Rows are kept and written in this order, whatever order threads or shards finished them in. */
    public long order(int replications) {
        return (long) point * replications + replication;
    }
}
