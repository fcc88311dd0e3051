package org.rdmasim.fluid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rdmasim.engine.SimulationClock;

/**
 * What a {@link FluidNetwork} does when a completion event is due (one per flow running on its own and
 * one per {@link FlowGroup}, its smallest tag's, put on the clock by {@link CompletionSchedule}). When one fires, every flow due
 * within the same instant on the resources the first one crossed finishes in that event too (their
 * own events are cancelled), followed by one re-solve of the region they leave ({@link RegionUpdate}),
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

    private final SimulationClock clock;
    private final ResourceTable resources;
    private final FlowNumbers numbers;
    private final RunningFlows running;
    private final FlowGroups groups;
    private final RegionUpdate update;
    /** Scratch by {@link Flow#number}: the scan of the event that last met the flow (see {@link #fire}). */
    private int[] seen = new int[16];
    private int scans;
    /**
     * Scratch for {@link #finish}: the flows crossing the first finishing flow's resources. Kept between
     * events (cleared at each use, read before any listener runs): a fresh list grew by copying on every
     * group completion of a large fan-out, whose source resources carry every group's pseudo-flow.
     */
    private final ArrayList<Flow> componentFlows = new ArrayList<>();
    /**
     * Scratch for {@link #finish}, kept between events like {@link #componentFlows}: the flows finishing and
     * their listeners (the seeds of the re-solve are {@link RegionUpdate#seedArray}'s). Fresh ones per group
     * completion were, with the seeds array, ~5% of a 65,536-receiver fan-out's garbage.
     */
    private final ArrayList<Flow> finishingScratch = new ArrayList<>();
    private final ArrayList<FlowListener> listenersScratch = new ArrayList<>();
    private boolean scratchInUse;

    CompletionEvents(SimulationClock clock, ResourceTable resources, FlowNumbers numbers, RunningFlows running,
            FlowGroups groups, RegionUpdate update) {
        this.clock = clock;
        this.resources = resources;
        this.numbers = numbers;
        this.running = running;
        this.groups = groups;
        this.update = update;
    }

    /** The event of {@code first}, a flow running on its own, fired: finishes it and all due with it. */
    void fire(Flow first) {
        if (first.isFinished()) {
            return;
        }
        finish(first, false, clock.now());
    }

    /** The event of group {@code g} fired: finishes its member with the smallest tag and all due with it. */
    void fireGroup(FlowGroup g) {
        if (g.byTag.isEmpty()) {
            return;
        }
        double now = clock.now();
        g.advance(now);
        // The group's event is its smallest tag's: that member is the one due now.
        finish(g.firstByTag(), true, now);
    }

    private void finish(Flow first, boolean groupEvent, double now) {
        // The scratch lists are this event's unless an event's finish is reached from inside another's (a
        // listener's doing): that one takes fresh ones, as every finish once did.
        boolean own = !scratchInUse;
        scratchInUse = true;
        try {
            finish(first, groupEvent, now, own ? finishingScratch : new ArrayList<>(),
                    own ? listenersScratch : new ArrayList<>());
        } finally {
            if (own) {
                scratchInUse = false;
                finishingScratch.clear();
                listenersScratch.clear();
            }
        }
    }

    private void finish(Flow first, boolean groupEvent, double now, ArrayList<Flow> finishing,
            ArrayList<FlowListener> listeners) {
        if (!groupEvent && clock.nextEventTime() - now > NOTHING_ELSE_DUE * Math.max(1.0, now)) {
            // No other event is pending within far more than SAME_INSTANT_SECONDS (plus rounding
            // between a flow's scheduled time and its settled finish), so no other flow finishes now:
            // skip scanning the flows beside it, which on a busy resource costs as much as the re-solve.
            finishing.add(first);
        } else {
            // Flows finishing at this same instant on the resources this flow crossed finish in this
            // event too (their own events are cancelled), so one re-solve covers them all. Looking only
            // at those resources keeps the work proportional to what the event touches.
            componentFlows.clear();
            int mark = ++scans;
            if (seen.length < numbers.limit()) {
                seen = Arrays.copyOf(seen, Math.max(numbers.limit(), 2 * seen.length));
            }
            for (int at = 0, ends = first.pathLength(); at < ends; at++) {
                Resource r = first.pathArray()[at];
                Crossing on = resources.crossing(r);
                for (int k = 0, n = on.size(); k < n; k++) {
                    Flow f = on.flow(k);
                    if (seen[f.number] != mark) {
                        seen[f.number] = mark;
                        componentFlows.add(f);
                    }
                }
                // A resource following a blend is crossed by the blended groups' members only, none of
                // them in its list: the groups are met through their pseudo-flows.
                Level[] blended = groups.blendedAt(r);
                if (blended != null) {
                    for (Level part : blended) {
                        Flow p = ((FlowGroup) part).pseudo;
                        if (seen[p.number] != mark) {
                            seen[p.number] = mark;
                            componentFlows.add(p);
                        }
                    }
                }
            }
            if (groups.groupOf(first) != null) {
                // A member is in no resource list: it leads, and the scan below adds whoever else is due.
                finishing.add(first);
            }
            for (int i = 0; i < componentFlows.size(); i++) {
                Flow f = componentFlows.get(i);
                FlowGroup g = groups.aggregate(f);
                if (g != null) {
                    addMembersFinishing(g, first, now, finishing);
                } else if (f == first || finishesNow(f, now)) {
                    finishing.add(f);
                }
            }
        }
        for (int i = 0; i < finishing.size(); i++) {
            Flow f = finishing.get(i);
            if (groups.groupOf(f) != null) {
                groups.leave(f, now, false);
            } else {
                f.settle(now);
                running.detach(f);
            }
            if (f.completion != null) {
                f.completion.cancel();
            }
            f.markFinished(now);
            listeners.add(running.ended(f));
        }
        int seedCount = 0;
        for (int i = 0; i < finishing.size(); i++) {
            seedCount += finishing.get(i).pathLength();
        }
        update.resolveAround(paths(finishing, update.seedArray(seedCount)), seedCount);
        for (int i = 0; i < finishing.size(); i++) {
            listeners.get(i).finished(finishing.get(i));
        }
    }

    /**
     * The resources of the flows' paths, one flow after the other (the seeds of the re-solve), written
     * from the start of {@code out} (long enough for them).
     */
    private static Resource[] paths(ArrayList<Flow> flows, Resource[] out) {
        int at = 0;
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            System.arraycopy(f.pathArray(), 0, out, at, f.pathLength());
            at += f.pathLength();
        }
        return out;
    }

    /** Members of {@code g} other than {@code skip} whose finish falls within the same instant. */
    private static void addMembersFinishing(FlowGroup g, Flow skip, double now, ArrayList<Flow> out) {
        g.advance(now);
        double level = g.level();
        if (!(level > 0)) {
            return;
        }
        double v = g.virtualTimeAt(now);
        double window = SAME_INSTANT_SECONDS * Math.max(1.0, now);
        // A larger tag finishes later, so the members due now are the first ones in tag order. Read in
        // place: a list and a predicate per group met, on every completion, were ~4% of a large run's garbage.
        MembersByTag members = g.byTag;
        for (int i = 0, n = members.size(); i < n && !((members.tagAt(i) - v) / level > window); i++) {
            Flow m = members.at(i);
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
