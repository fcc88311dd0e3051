package org.rdmasim.engine;

import umontreal.ssj.simevents.Event;
import umontreal.ssj.simevents.Simulator;
import umontreal.ssj.simevents.eventlist.Henriksen;

/**
 * One simulation run: an SSJ simulator with its own event list (never the static {@code Sim}
 * facade, so replications can run on parallel threads). Events at the same instant fire in the order
 * they were scheduled, which keeps runs deterministic. The list is {@link HeapEventList} by default;
 * SSJ's Henriksen list remains available ({@link EventListKind#HENRIKSEN}) for comparison.
 */
public final class SimulationClock {
    /** Which SSJ event list drives the run. */
    public enum EventListKind { HEAP, HENRIKSEN }

    private final Simulator simulator;
    private volatile long eventsFired;
    /** Events scheduled so far (moves of pending ones not counted). */
    private long eventsScheduled;
    /** Events fired per action class; one writer (the simulating thread), read by progress displays. */
    private final java.util.concurrent.ConcurrentHashMap<Class<?>, long[]> byKind =
            new java.util.concurrent.ConcurrentHashMap<>();
    private Class<?> lastKind;
    private long[] lastCount;
    /**
     * The kinds met so far and their counters (the map's own arrays), searched by identity before the
     * map: a fan-out's events change kind at almost every event, and the map's lookup (an identity hash of
     * the class, not inlined by the launcher's C1 compiler) ran at each. A run has a handful of kinds.
     */
    private Class<?>[] kinds = new Class<?>[8];
    private long[][] kindCounts = new long[8][];
    private int kindCount;

    public SimulationClock() {
        this(EventListKind.HEAP);
    }

    public SimulationClock(EventListKind kind) {
        simulator = new Simulator(kind == EventListKind.HEAP ? new HeapEventList() : new Henriksen());
        simulator.init();
    }

    /** Current simulated time, seconds. */
    /**
     * Relative width of one instant: times closer than this times max(1, t) are the same instant. Two
     * computations of one time (a group's shared rate, or its members' own) agree to rounding, far
     * inside it; completions and decisions within it must not depend on which came first.
     */
    public static final double SAME_INSTANT = 1e-12;

    /** The width of the instant at the current time, in seconds ({@link #SAME_INSTANT} times max(1, now)). */
    public double instantWidth() {
        return SAME_INSTANT * Math.max(1.0, now());
    }

    public double now() {
        return simulator.time();
    }

    /** Schedules {@code action} after {@code delaySeconds}; returns a handle that can be moved or cancelled. */
    public ScheduledAction schedule(double delaySeconds, Runnable action) {
        ScheduledAction event = new ScheduledAction(this, action);
        event.schedule(delaySeconds);
        return event;
    }

    /** Schedules {@code action} at absolute time {@code atSeconds} (not before now). */
    public ScheduledAction scheduleAt(double atSeconds, Runnable action) {
        return schedule(Math.max(0.0, atSeconds - now()), action);
    }

    /**
     * Takes the place in the firing order (among events of one instant) and the count in
     * {@link #eventsScheduled} that {@link #schedule} would take now, for an event put on the list later
     * with {@link #scheduleReserved}, or never: a caller that may cancel an event before anything can fire
     * (a flow's completion, scheduled by a re-solve, then dropped as the flow joins its group) puts it on
     * the list only once it knows it is kept, and every other event fires as if it had been put there now.
     * Returns -1 where the event list keeps no sequence numbers (SSJ's own lists): schedule now instead.
     */
    public long reserveSequence() {
        if (!(simulator.getEventList() instanceof HeapEventList heap)) {
            return -1;
        }
        eventsScheduled++;
        return heap.reserve(1);
    }

    /**
     * Puts {@code action} on the list {@code delaySeconds} from now with the place {@link #reserveSequence}
     * took (already counted in {@link #eventsScheduled}); nothing may have fired since the reservation.
     */
    public ScheduledAction scheduleReserved(double delaySeconds, Runnable action, long reservedSequence) {
        if (delaySeconds < 0) {
            throw new IllegalArgumentException("Cannot schedule in the past.");
        }
        ScheduledAction event = new ScheduledAction(this, action);
        // As SSJ's Event.schedule computes it: the simulator's time plus the delay.
        event.putReserved((HeapEventList) simulator.getEventList(), simulator.time() + delaySeconds,
                reservedSequence);
        return event;
    }

    /**
     * Schedules {@code actions.apply(i)} at absolute time {@code atSeconds[i]} (not before now) for each
     * i: the events fire exactly as {@code atSeconds.length} calls of {@link #scheduleAt} in index order
     * would (the same times, the same order among events of one instant, the same
     * {@link #eventsScheduled} count, the same {@link #nextEventTime}), but only the earliest of them not
     * yet fired is on the event list: the next is put there, at the place in the firing order it took
     * now, as the one before it fires, and its action is made then. Why: a fan-out's 65,536 arrivals
     * and a transfer list's posts, all scheduled at the start, made every push and pop of the run sift
     * through a heap of 65k+ events, each step a cache miss (a quarter of a 65,536-receiver fan-out's
     * event loop in {@link HeapEventList}, perf).
     */
    public void scheduleAllAt(double[] atSeconds, java.util.function.IntFunction<Runnable> actions) {
        int n = atSeconds.length;
        if (!(simulator.getEventList() instanceof HeapEventList heap)) {
            for (int i = 0; i < n; i++) {
                scheduleAt(atSeconds[i], actions.apply(i));
            }
            return;
        }
        if (n == 0) {
            return;
        }
        double now = now();
        double[] time = new double[n];
        boolean inOrder = true;
        for (int i = 0; i < n; i++) {
            // as scheduleAt and SSJ's Event.schedule compute it: now + max(0, at - now)
            time[i] = now + Math.max(0.0, atSeconds[i] - now);
            if (i > 0 && !(time[i] >= time[i - 1])) {
                inOrder = false;
            }
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (!inOrder) {
            // by time, then index: the order of the sequence numbers the list would have given them
            Integer[] boxed = new Integer[n];
            for (int i = 0; i < n; i++) {
                boxed[i] = i;
            }
            java.util.Arrays.sort(boxed, (a, b) -> {
                int c = Double.compare(time[a], time[b]);
                return c != 0 ? c : Integer.compare(a, b);
            });
            for (int i = 0; i < n; i++) {
                order[i] = boxed[i];
            }
        }
        long firstSequence = heap.reserve(n);
        eventsScheduled += n;
        new Chain(this, heap, time, order, firstSequence, actions).putNext();
    }

    /** What {@link #scheduleAllAt} has still to put on the list, in firing order. */
    private static final class Chain {
        private final SimulationClock clock;
        private final HeapEventList heap;
        private final double[] time;
        private final int[] order;
        private final long firstSequence;
        private final java.util.function.IntFunction<Runnable> actions;
        private int next;

        Chain(SimulationClock clock, HeapEventList heap, double[] time, int[] order, long firstSequence,
                java.util.function.IntFunction<Runnable> actions) {
            this.clock = clock;
            this.heap = heap;
            this.time = time;
            this.order = order;
            this.firstSequence = firstSequence;
            this.actions = actions;
        }

        void putNext() {
            if (next == order.length) {
                return;
            }
            int i = order[next++];
            ScheduledAction e = new ScheduledAction(clock, actions.apply(i));
            e.chain = this;
            e.putReserved(heap, time[i], firstSequence + i);
        }
    }

    /**
     * Time of the earliest pending event (the one running now is no longer pending), or
     * {@code +Infinity} when none is. Lets a handler see cheaply whether anything else is due at the
     * same instant.
     */
    public double nextEventTime() {
        umontreal.ssj.simevents.Event first = simulator.getEventList().getFirst();
        return first == null ? Double.POSITIVE_INFINITY : first.time();
    }

    /** Runs until the event list is empty or {@link #stop()} is called. Synchronous. */
    public void run() {
        simulator.start();
    }

    public void stop() {
        simulator.stop();
    }

    /**
     * Events scheduled so far. While it is unchanged nothing new was put on the list, so an action that
     * was scheduled last still fires right after every event scheduled before it at its time: a caller
     * can add work to it rather than schedule another event at the same instant.
     */
    public long eventsScheduled() {
        return eventsScheduled;
    }

    /**
     * The most events pending at once so far (0 on SSJ's Henriksen list, which does not count them): the
     * size of the list each push and pop of the run worked on, which is what a bare loop's
     * {@code bench --pending} sets.
     */
    public int peakPending() {
        return simulator.getEventList() instanceof HeapEventList heap ? heap.peakSize() : 0;
    }

    /**
     * Events taken off the list so far and the list's size summed over those takes, the event taken
     * counted ({0, 0} on SSJ's Henriksen list): their quotient is the mean size each pop of the run worked
     * on, the figure a bare loop's {@code bench --pending} holds constant.
     */
    public long[] pendingAtPops() {
        return simulator.getEventList() instanceof HeapEventList heap ? new long[] {heap.firsts(), heap.sizeAtFirsts()}
                : new long[2];
    }

    /** Number of events that have fired so far (for benchmarks and progress). */
    public long eventsFired() {
        return eventsFired;
    }

    /**
     * Events fired so far by kind: the simple name of each action's class (the model's events are
     * small named classes such as {@code FlowCompletion}; anonymous actions show as lambdas).
     */
    public java.util.Map<String, Long> eventsByKind() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        byKind.forEach((k, n) -> out.merge(kindName(k), n[0], Long::sum));
        return out;
    }

    /** Events fired so far whose action is of class {@code kind}. */
    public long eventsOf(Class<?> kind) {
        long[] n = byKind.get(kind);
        return n == null ? 0 : n[0];
    }

    private static String kindName(Class<?> k) {
        String s = k.getSimpleName();
        return s.isEmpty() || k.isSynthetic() ? "(unnamed) " + k.getName().replaceAll("\\$\\$Lambda.*", "") : s;
    }

    Simulator simulator() {
        return simulator;
    }

    /**
     * Events between two looks at the thread's interrupt flag (a field read, once per 1,024 events): at
     * the 80k-170k events/s the README's "How fast" reports, an interrupt is seen within ~15 ms.
     */
    private static final long INTERRUPT_CHECK_MASK = 1023;

    void countEvent(Runnable action) {
        long fired = ++eventsFired;
        if ((fired & INTERRUPT_CHECK_MASK) == 0 && Thread.currentThread().isInterrupted()) {
            // the flag stays set: callers tell a stop from a failure by it
            simulator.stop();
            throw new SimulationInterrupted(now(), fired);
        }
        Class<?> k = action.getClass();
        if (k != lastKind) {
            // Consecutive events are often of one kind; the kinds are searched only when it changes.
            lastKind = k;
            lastCount = countOf(k);
        }
        lastCount[0]++;
    }

    private long[] countOf(Class<?> k) {
        for (int i = 0; i < kindCount; i++) {
            if (kinds[i] == k) {
                return kindCounts[i];
            }
        }
        long[] count = byKind.computeIfAbsent(k, x -> new long[1]);
        if (kindCount == kinds.length) {
            kinds = java.util.Arrays.copyOf(kinds, 2 * kindCount);
            kindCounts = java.util.Arrays.copyOf(kindCounts, 2 * kindCount);
        }
        kinds[kindCount] = k;
        kindCounts[kindCount++] = count;
        return count;
    }

    /** An SSJ event that runs one action; it can be rescheduled while pending. */
    public static final class ScheduledAction extends Event {
        private final SimulationClock clock;
        private final Runnable action;
        private boolean pending;
        /** Slot in a {@link HeapEventList}, -1 when not in one. */
        int slot = -1;
        /** Insertion order, the last tie-breaker of a {@link HeapEventList}. */
        long sequence;
        /** Non-null when {@link #scheduleAllAt} put this event on the list: it puts the next one when this fires. */
        private Chain chain;

        ScheduledAction(SimulationClock clock, Runnable action) {
            super(clock.simulator());
            this.clock = clock;
            this.action = action;
        }

        @Override
        public void schedule(double delay) {
            super.schedule(delay);
            pending = true;
            clock.eventsScheduled++;
        }

        /** Puts this event on {@code heap} at {@code time}, with a sequence number reserved earlier. */
        void putReserved(HeapEventList heap, double time, long reservedSequence) {
            eventTime = time;
            pending = true;
            heap.addReserved(this, reservedSequence);
        }

        /** Moves a pending event to {@code delaySeconds} from now, or schedules it if it is not pending. */
        public void moveTo(double delaySeconds) {
            if (pending && sim.getEventList() instanceof HeapEventList heap) {
                // Fluid flows move their completion on every rate change: change the time in place
                // and sift once, rather than SSJ's remove-then-add (two sifts).
                if (delaySeconds < 0) {
                    throw new IllegalArgumentException("Cannot schedule in the past.");
                }
                eventTime = sim.time() + delaySeconds;
                heap.moved(this);
                // It now fires after the events already at its new time, as a new one would.
                clock.eventsScheduled++;
            } else if (pending) {
                // SSJ's reschedule puts the event after the others of its new time: as good as new.
                super.reschedule(delaySeconds);
                clock.eventsScheduled++;
            } else {
                schedule(delaySeconds);
            }
        }

        @Override
        public boolean cancel() {
            if (!pending) {
                return false;
            }
            pending = false;
            return super.cancel();
        }

        public boolean isPending() {
            return pending;
        }

        @Override
        public void actions() {
            pending = false;
            if (chain != null) {
                // before the action runs: while it runs, the next is pending, as it would be unchained
                Chain c = chain;
                chain = null;
                c.putNext();
            }
            clock.countEvent(action);
            action.run();
        }
    }
}
