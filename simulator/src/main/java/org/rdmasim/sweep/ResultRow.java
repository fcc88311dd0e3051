package org.rdmasim.sweep;

import java.util.List;

/**
 * One point and replication of a study: the knob values as written, whether the variant ran, each
 * figure of the study (in the study's order; empty when it failed), what limited the slowest receiver,
 * the calibrated or assumed parameters that limit's number is, and the error of a failed variant.
 *
 * @param limitNumbers each calibrated or assumed parameter the limiter is a number of, as {@code key (kind)}
 *                     (e.g. {@code refit.bucketSeconds (calibrated)}); empty when a mechanism limits the row. Taken
 *                     from the limit's own fields (hardware.Bottleneck's parameters, a refit bound's stage
 *                     parameters and their evidence), never from the limiter's words
 */
public record ResultRow(int point, int replication, List<String> values, boolean ok, double[] figures, String limiter,
        List<String> limitNumbers, String error) {
    public ResultRow {
        values = List.copyOf(values);
        limitNumbers = List.copyOf(limitNumbers);
        figures = figures.clone();
    }

    /** A row whose limit (if any) is a mechanism, or that failed. */
    public ResultRow(int point, int replication, List<String> values, boolean ok, double[] figures, String limiter,
            String error) {
        this(point, replication, values, ok, figures, limiter, List.of(), error);
    }

    /** Rows are kept and written in this order, whatever order threads or shards finished them in. */
    public long order(int replications) {
        return (long) point * replications + replication;
    }
}
