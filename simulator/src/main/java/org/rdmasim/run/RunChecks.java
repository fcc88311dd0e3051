package org.rdmasim.run;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.RunResult;

/**
 * {@code run --check}: every event of every replication is verified by the fluid network (no resource
 * over capacity, every rate max-min fair, the incremental solve equal to a solve from scratch), and
 * every result is checked for conservation of bytes and for finite numbers.
 */
public final class RunChecks {
    /**
     * How fluid networks run: verifying each event, and on the reference path (every fast path off).
     * Process-wide: replications run on pool threads, which a thread-local would not reach.
     */
    private record Mode(boolean verifying, boolean reference) {
    }

    private static volatile Mode mode = new Mode(false, false);

    private RunChecks() {
    }

    /** Runs {@code body} with every fluid network verifying each event when {@code on}. */
    public static <T> T with(boolean on, Supplier<T> body) {
        return under(new Mode(on, mode.reference()), body);
    }

    /**
     * Runs {@code body} on the reference path: flows solved one by one (no groups, so no resource followed
     * lazily by a group) and every resource of every host built before the first flow. Results must agree
     * with the default path within 1e-9 relative; tests compare the two.
     */
    public static <T> T withoutFastPaths(Supplier<T> body) {
        return under(new Mode(mode.verifying(), true), body);
    }

    private static <T> T under(Mode m, Supplier<T> body) {
        Mode before = mode;
        mode = m;
        try {
            return body.get();
        } finally {
            mode = before;
        }
    }

    static boolean reference() {
        return mode.reference();
    }

    /** True inside {@link #with} with checks on. */
    public static boolean enabled() {
        return mode.verifying();
    }

    static boolean verifying() {
        return mode.verifying();
    }

    /**
     * What is wrong with {@code r}: a transfer whose lanes do not add up to its size, NICs that sent
     * a different number of bytes than NICs received or than the transfers moved, a resource used
     * above its capacity, or a time, rate or count that is not a finite number.
     */
    public static List<String> violations(RunResult r) {
        List<String> out = new ArrayList<>();
        long moved = 0;
        // A lane stopped by a fault leaves a real-valued remainder: each such lane and each NIC's rounded
        // total may then be off by under a byte. Without faults the totals must match exactly.
        long slack = 0;
        for (TransferResult t : r.transfers()) {
            if (t.failed()) {
                slack += t.lanes().size();
            }
        }
        if (slack > 0) {
            slack += r.nics().size();
        }
        for (TransferResult t : r.transfers()) {
            long lanes = 0;
            for (LaneResult l : t.lanes()) {
                lanes += l.bytes();
                finite(out, "lane " + l.sourceNic() + "->" + l.sinkNic() + " start", l.startSeconds());
                finite(out, "lane " + l.sourceNic() + "->" + l.sinkNic() + " finish", l.finishSeconds());
            }
            if (t.failed()) {
                // A failed transfer's lanes report what they delivered before it failed.
                if (lanes > t.spec().bytes()) {
                    out.add("failed transfer " + t.spec().id() + " delivered " + lanes + " bytes, more than its " + t.spec().bytes());
                }
                moved += lanes;
                finite(out, "transfer " + t.spec().id() + " finish", t.finishSeconds());
                continue;
            }
            if (!t.lanes().isEmpty() && lanes != t.spec().bytes()) {
                out.add("transfer " + t.spec().id() + " moved " + lanes + " bytes over its lanes but is " + t.spec().bytes());
            }
            finite(out, "transfer " + t.spec().id() + " start", t.startSeconds());
            finite(out, "transfer " + t.spec().id() + " finish", t.finishSeconds());
            if (t.finishSeconds() < t.startSeconds()) {
                out.add("transfer " + t.spec().id() + " finishes at " + t.finishSeconds() + " before it starts at " + t.startSeconds());
            }
            moved += t.spec().bytes();
        }
        long tx = 0;
        long rx = 0;
        for (RunResult.NicTraffic n : r.nics()) {
            tx += n.txBytes();
            rx += n.rxBytes();
        }
        if (Math.abs(tx - rx) > slack) {
            out.add("NICs sent " + tx + " bytes but received " + rx);
        }
        if (!r.transfers().isEmpty() && Math.abs(tx - moved) > slack) {
            out.add("NICs sent " + tx + " bytes but the transfers moved " + moved);
        }
        for (RunResult.ResourceUsage u : r.resources()) {
            // The name is built only for a resource that fails a check: ~900k of them at 128k receivers.
            if (!(Double.isFinite(u.capacityBytesPerSecond()) && Double.isFinite(u.bytesCarried())
                    && Double.isFinite(u.peakUtilisation()) && Double.isFinite(u.meanUtilisation())
                    && u.peakUtilisation() <= 1 + 1e-9)) {
                String name = u.name();
                finite(out, name + " capacity", u.capacityBytesPerSecond());
                finite(out, name + " bytes carried", u.bytesCarried());
                finite(out, name + " peak utilisation", u.peakUtilisation());
                finite(out, name + " mean utilisation", u.meanUtilisation());
                if (u.peakUtilisation() > 1 + 1e-9) {
                    out.add(name + " peaked at " + u.peakUtilisation() + " of its capacity");
                }
            }
        }
        for (RunResult.LoadSeries s : r.nicSeries()) {
            for (int i = 0; i < s.gbps().length; i++) {
                finite(out, s.nic() + " load", s.gbps()[i]);
                finite(out, s.nic() + " load time", s.timeSeconds()[i]);
            }
        }
        return out;
    }

    private static void finite(List<String> out, String what, double v) {
        if (!Double.isFinite(v)) {
            out.add(what + " is " + v);
        }
    }
}
