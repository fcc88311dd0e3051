package org.rdmasim.report;

import java.util.List;
import java.util.TreeSet;
import org.rdmasim.workload.RunResult;

/**
 * NIC transmit series on one time grid, as the per-NIC chart draws them and nic-throughput.csv lists
 * them: every instant at which some NIC's rate changes, each NIC's rate from that instant on. Instants
 * where no rate changes are merged away; nothing else is. When more change instants remain than a
 * chart can draw, the series are averaged over equal bins instead, which keeps every NIC's bytes
 * exact (the area under each band) and is said in the chart's title.
 *
 * @param times  the instants, seconds
 * @param values per series, its rate in Gbps from each instant to the next
 * @param binned whether the series were averaged over bins of {@code binSeconds}
 */
record NicSteps(double[] times, double[][] values, boolean binned, double binSeconds) {

    static NicSteps of(List<RunResult.LoadSeries> series, int maxInstants) {
        TreeSet<Double> all = new TreeSet<>();
        for (RunResult.LoadSeries s : series) {
            for (double t : s.timeSeconds()) {
                all.add(t);
            }
        }
        double[] grid = all.stream().mapToDouble(Double::doubleValue).toArray();
        double[][] v = sample(series, grid);
        int kept = 0;
        for (int i = 0; i < grid.length; i++) {
            boolean changes = i == 0;
            for (int k = 0; k < v.length && !changes; k++) {
                changes = v[k][i] != v[k][kept - 1];
            }
            if (changes) {
                grid[kept] = grid[i];
                for (double[] row : v) {
                    row[kept] = row[i];
                }
                kept++;
            }
        }
        grid = java.util.Arrays.copyOf(grid, kept);
        for (int k = 0; k < v.length; k++) {
            v[k] = java.util.Arrays.copyOf(v[k], kept);
        }
        if (kept <= maxInstants || kept < 2) {
            return new NicSteps(grid, v, false, 0);
        }
        return binned(grid, v, maxInstants);
    }

    /** Each series' rate at each grid instant (its last change at or before it). */
    private static double[][] sample(List<RunResult.LoadSeries> series, double[] grid) {
        double[][] v = new double[series.size()][grid.length];
        for (int k = 0; k < series.size(); k++) {
            RunResult.LoadSeries s = series.get(k);
            int j = 0;
            double current = 0;
            for (int i = 0; i < grid.length; i++) {
                while (j < s.timeSeconds().length && s.timeSeconds()[j] <= grid[i]) {
                    current = s.gbps()[j++];
                }
                v[k][i] = current;
            }
        }
        return v;
    }

    /** Averages over {@code bins} equal bins from the first instant to the last: each bin keeps its bytes. */
    private static NicSteps binned(double[] grid, double[][] v, int bins) {
        double t0 = grid[0];
        double width = (grid[grid.length - 1] - t0) / bins;
        double[] times = new double[bins + 1];
        double[][] out = new double[v.length][bins + 1];
        for (int b = 0; b <= bins; b++) {
            times[b] = t0 + b * width;
        }
        for (int k = 0; k < v.length; k++) {
            for (int i = 0; i + 1 < grid.length; i++) {
                // spread step i (rate v[k][i] over [grid[i], grid[i+1])) over the bins it covers
                double a = grid[i];
                double e = grid[i + 1];
                int b = Math.min(bins - 1, (int) ((a - t0) / width));
                while (a < e && b < bins) {
                    double end = Math.min(e, times[b + 1]);
                    out[k][b] += v[k][i] * (end - a) / width;
                    a = end;
                    b++;
                }
            }
        }
        return new NicSteps(times, out, true, width);
    }

    /** Gigabits each series carried: the area under its steps. */
    double gigabits(int series) {
        double sum = 0;
        for (int i = 0; i + 1 < times.length; i++) {
            sum += values[series][i] * (times[i + 1] - times[i]);
        }
        return sum;
    }
}
