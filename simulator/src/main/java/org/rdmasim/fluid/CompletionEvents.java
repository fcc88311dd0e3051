package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The completion events of a {@link FluidNetwork}: one per flow running on its own and one per
 * {@link FlowGroup} (its smallest tag's), moved when a rate changes. When one fires, every flow due
 * within the same instant on the resources the first one crossed finishes in that event too (their
 * own events are cancelled), followed by one re-solve of the region they leave ({@link RegionSolve}),
 * and only then are their listeners told.
 */
final class CompletionEvents {
    /**
     * Two completions closer than this are the same instant. One picosecond is far below anything the
     * model resolves (PCIe switch hops are ~100 ns) and well above double rounding at second scales.
     */
    static final double SAME_INSTANT_SECONDS = org.rdmasim.engine.SimulationClock.SAME_INSTANT;

    /**
     * When the next pending event is further away than this (relative, like SAME_INSTANT_SECONDS), no
     * other flow can finish at this instant. A thousand times the same-instant window: a flow's pending
     * completion time and its finish recomputed after a settle differ by a few ulps at most.
     */
    static final double NOTHING_ELSE_DUE = 1e-9;

    private final FluidNetwork net;
    /** Scratch by {@link Flow#number}: the scan of the event that last met the flow (see {@link #fire}). */
    private int[] seen = new int[16];
    private int scans;

    CompletionEvents(FluidNetwork net) {
        this.net = net;
    }

    /** Puts {@code f}'s completion at its current rate (cancels it when the flow stands still). */
    void schedule(Flow f, double now) {
        if (f.rate <= 0) {
            if (f.completion != null) {
                f.completion.cancel();
            }
            return;
        }
        double delay = f.remaining / f.rate;
        if (f.completion == null) {
            f.completion = net.clock().schedule(delay, new FlowCompletion(this, f));
        } else {
            f.completion.moveTo(delay);
        }
    }

    /** Puts the group's one event at its smallest tag's finish (cancels it when none is due). */
    void scheduleGroup(FlowGroup g, double now) {
        Flow p = g.pseudo;
        double delay = g.nextDelay(now);
        if (Double.isInfinite(delay)) {
            if (p.completion != null) {
                p.completion.cancel();
            }
            return;
        }
        if (p.completion == null) {
            p.completion = net.clock().schedule(delay, new GroupCompletion(this, p));
        } else {
            p.completion.moveTo(delay);
        }
    }

    /** The event of {@code first} (a flow, or a group's pseudo-flow) fired: finishes it and all due with it. */
    void fire(Flow first) {
        double now = net.clock().now();
        boolean groupEvent = first.aggregate != null;
        if (groupEvent) {
            FlowGroup g = first.aggregate;
            if (g.byTag.isEmpty()) {
                return;
            }
            g.advance(now);
            // The group's event is its smallest tag's: that member is the one due now.
            first = g.byTag.first();
        } else if (first.isFinished()) {
            return;
        }
        List<Flow> finishing = new ArrayList<>();
        if (!groupEvent && net.clock().nextEventTime() - now > NOTHING_ELSE_DUE * Math.max(1.0, now)) {
            // No other event is pending within far more than SAME_INSTANT_SECONDS (plus rounding
            // between a flow's scheduled time and its settled finish), so no other flow finishes now:
            // skip scanning the flows beside it, which on a busy resource costs as much as the re-solve.
            finishing.add(first);
        } else {
            // Flows finishing at this same instant on the resources this flow crossed finish in this
            // event too (their own events are cancelled), so one re-solve covers them all. Looking only
            // at those resources keeps the work proportional to what the event touches.
            List<Flow> componentFlows = new ArrayList<>();
            int mark = ++scans;
            if (seen.length < net.numbers.limit()) {
                seen = Arrays.copyOf(seen, Math.max(net.numbers.limit(), 2 * seen.length));
            }
            for (Resource r : first.pathInternal()) {
                for (Flow f : r.flows) {
                    if (seen[f.number] != mark) {
                        seen[f.number] = mark;
                        componentFlows.add(f);
                    }
                }
            }
            if (first.group != null) {
                // A member is in no resource list: it leads, and the scan below adds whoever else is due.
                finishing.add(first);
            }
            for (Flow f : componentFlows) {
                if (f.aggregate != null) {
                    addMembersFinishing(f.aggregate, first, now, finishing);
                } else if (f == first || finishesNow(f, now)) {
                    finishing.add(f);
                }
            }
        }
        for (Flow f : finishing) {
            if (f.group != null) {
                net.groups.leave(f, now, false);
            } else {
                f.settle(now);
                net.detach(f);
            }
            if (f.completion != null) {
                f.completion.cancel();
            }
            f.markFinished(now);
            net.ended(f);
        }
        List<Resource> touched = new ArrayList<>();
        for (Flow f : finishing) {
            Collections.addAll(touched, f.pathInternal());
        }
        net.region.resolveAround(touched.toArray(new Resource[0]));
        for (Flow f : finishing) {
            f.listener.finished(f);
        }
    }

    /** Members of {@code g} other than {@code skip} whose finish falls within the same instant. */
    private static void addMembersFinishing(FlowGroup g, Flow skip, double now, List<Flow> out) {
        g.advance(now);
        double level = g.level();
        if (!(level > 0)) {
            return;
        }
        double v = g.virtualTimeAt(now);
        for (Flow m : g.byTag) {
            // Tags are in order, so finish times are too: stop at the first one not due now.
            if ((m.tag - v) / level > SAME_INSTANT_SECONDS * Math.max(1.0, now)) {
                break;
            }
            if (m != skip) {
                out.add(m);
            }
        }
    }

    private static boolean finishesNow(Flow f, double now) {
        if (f.rate <= 0) {
            return false;
        }
        double finish = f.lastSettled + f.remaining / f.rate;
        return finish - now <= SAME_INSTANT_SECONDS * Math.max(1.0, now);
    }
}
