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
            // Consecutive events are often of one kind; the map is consulted only when it changes.
            lastKind = k;
            lastCount = byKind.computeIfAbsent(k, x -> new long[1]);
        }
        lastCount[0]++;
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
            clock.countEvent(action);
            action.run();
        }
    }
}
