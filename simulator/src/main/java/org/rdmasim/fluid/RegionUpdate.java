package org.rdmasim.fluid;

import java.util.List;
import org.rdmasim.engine.SimulationClock;

/**
 * The network's side of a re-solve (SimGrid's model above its src/kernel/lmm): hands the resources an
 * event touched to the solver ({@link RegionSolve}), then, at the clock's now, settles the re-rated
 * flows' bytes at the rates they ran at, moves the completion events of those whose rate changed,
 * records the new loads (telling the observers), and lets groups form. With grouping on it first checks
 * that the region's groups still hold ({@link FlowGroups#brokenGroups}); when one does not, it puts the
 * old rates back, dissolves it and solves again flow by flow.
 */
final class RegionUpdate {
    private final SimulationClock clock;
    private final ResourceTable resources;
    private final FlowNumbers numbers;
    private final FlowGroups groups;
    private final CompletionSchedule schedule;
    private final List<LoadObserver> observers;
    private final RegionSolve solver;
    /** Re-solves every flow from scratch after each event and fails on any difference (tests only). */
    boolean verifying;
    private long groupFallbacks;

    RegionUpdate(SimulationClock clock, ResourceTable resources, FlowNumbers numbers, FlowGroups groups,
            CompletionSchedule schedule, List<LoadObserver> observers) {
        this.clock = clock;
        this.resources = resources;
        this.numbers = numbers;
        this.groups = groups;
        this.schedule = schedule;
        this.observers = observers;
        this.solver = new RegionSolve(resources);
    }

    long solves() {
        return solver.solves();
    }

    long flowsSolved() {
        return solver.flowsSolved();
    }

    /** Times a group had to be dissolved because its members stopped sharing one bottleneck. */
    long groupFallbacks() {
        return groupFallbacks;
    }

    /** Re-solves the flows an event at the resources {@code seeds} can affect and reschedules those whose rate changed. */
    void resolveAround(Resource[] seeds) {
        resolveAround(seeds, seeds.length);
    }

    /**
     * An array of at least {@code count} resources for the seeds of a re-solve, to write from its start and
     * pass to {@link #resolveAround(Resource[], int)}: the one kept between events for lane starts and
     * completions (a fresh one per lane start and per group completion was ~4% and ~5% of a 65,536-receiver
     * fan-out's garbage), or a fresh one while a re-solve is reading the kept one (an event reached from
     * inside another's).
     */
    Resource[] seedArray(int count) {
        if (seedScratchInUse) {
            return new Resource[count];
        }
        if (seedScratch.length < count) {
            seedScratch = new Resource[Math.max(count, 2 * seedScratch.length)];
        }
        return seedScratch;
    }

    /** The seeds array {@link #seedArray} hands out; only its first entries of each re-solve are read. */
    private Resource[] seedScratch = new Resource[16];
    /** Whether a re-solve is reading {@link #seedScratch}. */
    private boolean seedScratchInUse;

    /**
     * {@link #resolveAround(Resource[])} on the first {@code seedCount} resources of {@code seeds} (from
     * {@link #seedArray}, or an array of the caller's). Read only until this returns.
     */
    void resolveAround(Resource[] seeds, int seedCount) {
        boolean kept = seeds == seedScratch && !seedScratchInUse;
        if (kept) {
            seedScratchInUse = true;
        }
        try {
            resolve(seeds, seedCount);
        } finally {
            if (kept) {
                seedScratchInUse = false;
            }
        }
    }

    private void resolve(Resource[] seeds, int seedCount) {
        RateChanges changes = solveKeepingGroups(seeds, seedCount);
        double now = clock.now();
        int heldFrom = held;
        reschedule(changes, now);
        recordLoads(changes, now);
        if (groups.minMembers > 0) {
            groups.formGroups(changes.flows(), now);
        }
        placeHeld(heldFrom);
        if (verifying) {
            MaxMinOracle oracle = new MaxMinOracle(resources, groups, clock.now());
            List<String> bad = oracle.scratchMismatches();
            bad.addAll(oracle.invariantViolations());
            if (!bad.isEmpty()) {
                throw new IllegalStateException("at t=" + clock.now() + ": " + String.join("; ", bad));
            }
        }
    }

    /**
     * Solves, settles the region's flows at their old rates, and repeats while a group of the region no
     * longer holds at the new rates: such a group is dissolved at the old rates (members keep the rate
     * they ran at until now) and the region solved again. A repeat follows a dissolve, so this ends.
     */
    private RateChanges solveKeepingGroups(Resource[] seeds, int seedCount) {
        while (true) {
            double now = clock.now();
            RateChanges changes = solver.solveAround(seeds, seedCount, resources.count(), numbers.limit());
            settle(changes, now);
            List<FlowGroup> broken = groups.brokenGroups(changes);
            if (broken.isEmpty()) {
                return changes;
            }
            changes.rollBack();
            groups.dissolve(broken, now);
            groupFallbacks++;
        }
    }

    /**
     * Counts the bytes each re-rated flow moved until now, at the rate and under the limit it ran at; a
     * group's pseudo-flow has no bytes of its own, its group's virtual clock advances at the old level.
     */
    private void settle(RateChanges changes, double now) {
        java.util.ArrayList<Flow> flows = changes.flows();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            FlowGroup g = groups.aggregate(f);
            if (g != null) {
                g.advance(now, changes.rateBefore(i));
            } else {
                f.settle(now, changes.rateBefore(i), changes.limitBefore(i));
            }
        }
    }

    /** Moves the completion event of every flow whose rate changed (and of every group of the region). */
    private void reschedule(RateChanges changes, double now) {
        java.util.ArrayList<Flow> flows = changes.flows();
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            FlowGroup g = groups.aggregate(f);
            if (g != null) {
                // Its smallest tag may have changed even when its level did not.
                schedule.scheduleGroup(g, now);
                if (f.rate != changes.rateBefore(i)) {
                    groups.levelChanged(g);
                }
            } else if (f.completion == null && f.rate > 0 && groups.minMembers > 0) {
                hold(f, f.remaining / f.rate);
            } else if (f.rate != changes.rateBefore(i) || f.completion == null || !f.completion.isPending()) {
                schedule.schedule(f, now);
            }
        }
    }

    /*
     * A flow with no completion yet (one just started) that joins its group in formGroups below would have
     * its new event cancelled there at once: in a refit's lane start of 16,000 flows, each was put on a
     * list of ~49,000 events and taken off it again (~6% of refit-256-to-128's loop: the sifts, the
     * event's two objects). Its event is held back instead, with the place in the order of its instant
     * (and the count in eventsScheduled) that scheduling it here would have given it, and is put on the
     * list after formGroups only if the flow still runs on its own: the events that fire, their times and
     * their order are those of scheduling every one here. Held as parallel arrays kept between events;
     * a re-solve reached from inside another's (none is, between reschedule and placeHeld) would stack
     * its own above the caller's from `held`.
     */
    private Flow[] heldFlows = new Flow[16];
    private double[] heldDelays = new double[16];
    private long[] heldSequences = new long[16];
    private int held;

    private void hold(Flow f, double delaySeconds) {
        long sequence = clock.reserveSequence();
        if (sequence < 0) {
            schedule.schedule(f, clock.now());
            return;
        }
        if (held == heldFlows.length) {
            int n = 2 * held;
            heldFlows = java.util.Arrays.copyOf(heldFlows, n);
            heldDelays = java.util.Arrays.copyOf(heldDelays, n);
            heldSequences = java.util.Arrays.copyOf(heldSequences, n);
        }
        heldFlows[held] = f;
        heldDelays[held] = delaySeconds;
        heldSequences[held] = sequence;
        held++;
    }

    /** Puts the held completions from {@code from} on of the flows that did not join a group. */
    private void placeHeld(int from) {
        for (int k = from; k < held; k++) {
            Flow f = heldFlows[k];
            heldFlows[k] = null;
            if (groups.groupOf(f) == null && !f.isFinished() && f.completion == null) {
                schedule.scheduleReserved(f, heldDelays[k], heldSequences[k]);
            }
        }
        held = from;
    }

    /** Records each touched resource's new load from now on and tells the observers of every change. */
    private void recordLoads(RateChanges changes, double now) {
        for (int t = 0; t < changes.touchedCount(); t++) {
            Resource r = changes.touched(t);
            double load = changes.loadAfter(t);
            if (load != r.load()) {
                r.setLoad(now, load);
                for (int i = 0; i < observers.size(); i++) {
                    observers.get(i).loadChanged(r, now, load);
                }
            }
        }
    }
}
