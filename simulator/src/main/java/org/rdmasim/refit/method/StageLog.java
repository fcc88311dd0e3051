package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * When each stage was busy during one cycle, as intervals; a stage's time is the length of their union
 * (two buckets on the wire at once count once), so overlapped stages each show their own span.
 */
final class StageLog {
    private final Map<RefitStage, List<double[]>> intervals = new EnumMap<>(RefitStage.class);

    void add(RefitStage stage, double start, double end) {
        if (end < start) {
            throw new IllegalArgumentException(stage + " ends before it starts");
        }
        intervals.computeIfAbsent(stage, s -> new ArrayList<>()).add(new double[] {start, end});
    }

    /** Seconds each stage was busy, every stage listed (0 when it never ran). */
    Map<RefitStage, Double> busySeconds() {
        Map<RefitStage, Double> out = new EnumMap<>(RefitStage.class);
        for (RefitStage s : RefitStage.values()) {
            out.put(s, union(intervals.getOrDefault(s, List.of())));
        }
        return out;
    }

    void clear() {
        intervals.clear();
    }

    private static double union(List<double[]> list) {
        if (list.isEmpty()) {
            return 0.0;
        }
        List<double[]> sorted = new ArrayList<>(list);
        sorted.sort((a, b) -> Double.compare(a[0], b[0]));
        double total = 0;
        double start = sorted.get(0)[0];
        double end = sorted.get(0)[1];
        for (double[] iv : sorted) {
            if (iv[0] > end) {
                total += end - start;
                start = iv[0];
                end = iv[1];
            } else {
                end = Math.max(end, iv[1]);
            }
        }
        return total + (end - start);
    }
}
