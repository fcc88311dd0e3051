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
    private long eventsFired;

    public SimulationClock() {
        this(EventListKind.HEAP);
    }

    public SimulationClock(EventListKind kind) {
        simulator = new Simulator(kind == EventListKind.HEAP ? new HeapEventList() : new Henriksen());
        simulator.init();
    }

    /** Current simulated time, seconds. */
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

    /** Number of events that have fired so far (for benchmarks and progress). */
    public long eventsFired() {
        return eventsFired;
    }

    Simulator simulator() {
        return simulator;
    }

    void countEvent() {
        eventsFired++;
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
        }

        /** Moves a pending event to {@code delaySeconds} from now, or schedules it if it is not pending. */
        public void moveTo(double delaySeconds) {
            if (pending) {
                super.reschedule(delaySeconds);
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
            clock.countEvent();
            action.run();
        }
    }
}
