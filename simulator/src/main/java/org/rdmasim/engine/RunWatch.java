package org.rdmasim.engine;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a running scenario shows to an observer on another thread (the progress line, {@code bench}):
 * the clocks of its replications, how long they spent simulating, and how many events of which kind
 * they fired. Reads while simulating are racy by design: a display can be a few events behind.
 */
public final class RunWatch {
    private final List<SimulationClock> clocks = new CopyOnWriteArrayList<>();
    private final AtomicLong simulatingNanos = new AtomicLong();
    private final AtomicLong expected = new AtomicLong();
    private volatile Class<?> finishKind;
    private volatile int perUnit = 1;

    /** A replication's clock, before its first event. */
    public void attach(SimulationClock clock) {
        clocks.add(clock);
    }

    /**
     * Declares {@code units} more units of work (receivers of a fan-out, or transfers), each finished
     * when {@code eventsPerUnit} events of class {@code kind} have fired.
     */
    public void expect(long units, Class<?> kind, int eventsPerUnit) {
        expected.addAndGet(units);
        finishKind = kind;
        perUnit = Math.max(1, eventsPerUnit);
    }

    /** Adds the wall time one replication spent in its event loop. */
    public void simulated(long nanos) {
        simulatingNanos.addAndGet(nanos);
    }

    public long expectedUnits() {
        return expected.get();
    }

    public long finishedUnits() {
        Class<?> k = finishKind;
        if (k == null) {
            return 0;
        }
        long n = 0;
        for (SimulationClock c : clocks) {
            n += c.eventsOf(k);
        }
        return n / perUnit;
    }

    /** The furthest simulated time any replication has reached, seconds. */
    public double simulatedSeconds() {
        double t = 0;
        for (SimulationClock c : clocks) {
            t = Math.max(t, c.now());
        }
        return t;
    }

    public long events() {
        long n = 0;
        for (SimulationClock c : clocks) {
            n += c.eventsFired();
        }
        return n;
    }

    public Map<String, Long> eventsByKind() {
        Map<String, Long> out = new TreeMap<>();
        for (SimulationClock c : clocks) {
            c.eventsByKind().forEach((k, n) -> out.merge(k, n, Long::sum));
        }
        return out;
    }

    /** Wall time spent in event loops, summed over replications, seconds. */
    public double simulatingSeconds() {
        return simulatingNanos.get() / 1e9;
    }
}
