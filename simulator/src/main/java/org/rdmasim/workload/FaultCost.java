package org.rdmasim.workload;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.transport.TransferResult;

/**
 * What the faults of a run cost: the same variant run with and without them, same seed.
 *
 * <p>Pull time is, for a fan-out, a receiver's wait from asking to having the model (receivers that
 * fell back to storage are counted apart, not averaged in); for a list of transfers, a transfer's time
 * from its first post to the end of its successful attempt (re-posts included). Makespan is from the
 * first post to the last transfer's end, successful or not (when the last attempt gave up, the time
 * until it did). A mean or slowest pull with no successful pull is NaN (written as null).
 */
public record FaultCost(FaultPlan plan, double makespanWith, double makespanWithout, double meanPullWith,
        double meanPullWithout, double maxPullWith, double maxPullWithout, int failedAttempts, int gaveUp) {

    public static FaultCost of(FaultPlan plan, RunResult with, RunResult without) {
        Stats w = stats(with);
        Stats o = stats(without);
        return new FaultCost(plan, w.makespan, o.makespan, w.mean, o.mean, w.max, o.max, w.failedAttempts, w.gaveUp);
    }

    private record Stats(double makespan, double mean, double max, int failedAttempts, int gaveUp) {
    }

    private static Stats stats(RunResult r) {
        int failed = 0;
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        for (TransferResult t : r.transfers()) {
            first = Math.min(first, t.startSeconds());
            if (t.failed()) {
                failed++;
            }
            last = Math.max(last, t.finishSeconds());
        }
        org.apache.commons.math3.util.ResizableDoubleArray pulls = new org.apache.commons.math3.util.ResizableDoubleArray();
        double max = 0;
        int n = 0;
        int gaveUp = 0;
        if (r.fanout() != null) {
            for (FanoutResult.ReceiverPull p : r.fanout().pulls()) {
                if (p.bottleneck() instanceof Bottleneck.Failed) {
                    // the time until it gave up counts in the makespan, so a run where everyone gave up
                    // early is never shorter than the run without faults for it
                    first = Math.min(first, p.arrivalSeconds());
                    last = Math.max(last, p.finishSeconds());
                    gaveUp++;
                    continue;
                }
                pulls.addElement(p.pullSeconds());
                max = Math.max(max, p.pullSeconds());
                n++;
            }
        } else {
            // A transfer and its re-posts (ID#2, ID#3) are one pull: from its first post to its success.
            Map<String, Double> posted = new HashMap<>();
            Map<String, Double> finished = new HashMap<>();
            for (TransferResult t : r.transfers()) {
                String id = base(t.spec().id());
                posted.merge(id, t.startSeconds(), Math::min);
                if (!t.failed()) {
                    finished.merge(id, t.finishSeconds(), Math::max);
                }
            }
            for (Map.Entry<String, Double> e : posted.entrySet()) {
                Double end = finished.get(e.getKey());
                if (end == null) {
                    gaveUp++;
                    continue;
                }
                double d = end - e.getValue();
                pulls.addElement(d);
                max = Math.max(max, d);
                n++;
            }
        }
        double makespan = Double.isInfinite(first) ? 0 : Math.max(0, last - first);
        return new Stats(makespan, n == 0 ? Double.NaN : ReplicationStats.mean(pulls.getElements()), n == 0 ? Double.NaN : max,
                failed, gaveUp);
    }

    private static String base(String id) {
        int hash = id.indexOf('#');
        return hash < 0 ? id : id.substring(0, hash);
    }

    /** Transfers that failed in the run with faults, for tests and reports. */
    public static List<TransferResult> failures(RunResult r) {
        return r.transfers().stream().filter(TransferResult::failed).toList();
    }
}
