package org.rdmasim.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What a running scenario shows to an observer on another thread (the progress line, {@code bench}):
 * the clocks of its replications, how long they spent simulating, and how many events of which kind
 * they fired. Reads while simulating are racy by design: a display can be a few events behind.
 */
public final class RunWatch {
    private final List<SimulationClock> clocks = new CopyOnWriteArrayList<>();
    /** Work counters of the replications' models by name (summed over replications when read). */
    private final List<Map.Entry<String, LongSupplier>> counters = new CopyOnWriteArrayList<>();
    private final AtomicLong simulatingNanos = new AtomicLong();
    private final AtomicLong simulatingCpuNanos = new AtomicLong();
    private final AtomicLong loopCollectionMillis = new AtomicLong();
    private final AtomicLong loopCollections = new AtomicLong();
    private final AtomicLong rerunNanos = new AtomicLong();
    private final AtomicLong expected = new AtomicLong();
    private volatile Class<?> finishKind;
    private volatile int perUnit = 1;
    /** Units finished, counted by the run itself where no one event marks a unit done (a refit's cycles). */
    private final AtomicLong counted = new AtomicLong();

    private volatile String doing;

    /**
     * What the run does beyond its own simulation, for the progress line (a refit trying the changes that
     * would halve it, each a run of its own); null when nothing is.
     */
    public void doing(String what) {
        doing = what;
    }

    /** What {@link #doing(String)} last said, or null. */
    public String doing() {
        return doing;
    }

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
        if (kind != null) {
            // a run that counts its own units (finished) leaves the event kind of the others in place
            finishKind = kind;
            perUnit = Math.max(1, eventsPerUnit);
        }
    }

    /**
     * Adds the wall time a refit spent rerunning itself with one change each ("what would halve it"): runs
     * of their own, neither the variant's build nor its event loop.
     */
    public void reran(long nanos) {
        rerunNanos.addAndGet(nanos);
    }

    /** Wall time of the "what would halve it" reruns, summed over variants, seconds. */
    public double rerunSeconds() {
        return rerunNanos.get() / 1e9;
    }

    /** Adds the wall time one replication spent in its event loop. */
    public void simulated(long nanos) {
        simulatingNanos.addAndGet(nanos);
    }

    /**
     * Where one replication's event loop starts, on the thread that runs it: its wall clock, that thread's
     * CPU time (-1 where the JVM cannot tell) and the collectors' pause time and count so far.
     */
    public record LoopStart(long wallNanos, long cpuNanos, long collectionMillis, long collections) {
    }

    /** Marks the start of an event loop on the calling thread (see {@link #simulated(LoopStart)}). */
    public static LoopStart loopStart() {
        long[] gc = collections();
        return new LoopStart(System.nanoTime(), threadCpuNanos(), gc[0], gc[1]);
    }

    /**
     * Adds what one replication's event loop took since {@code start}, on the same thread: wall time, the
     * thread's own CPU time (a shared machine stretches wall time by the wait for a core, not this) and the
     * collections that ran meanwhile (the serial collector works on a thread of its own while the loop
     * waits; with replications on several threads, one collection is counted by each loop it stopped).
     */
    public void simulated(LoopStart start) {
        simulatingNanos.addAndGet(System.nanoTime() - start.wallNanos());
        long cpu = threadCpuNanos();
        if (cpu >= 0 && start.cpuNanos() >= 0) {
            simulatingCpuNanos.addAndGet(cpu - start.cpuNanos());
        }
        long[] gc = collections();
        loopCollectionMillis.addAndGet(gc[0] - start.collectionMillis());
        loopCollections.addAndGet(gc[1] - start.collections());
    }

    /** CPU time of the simulating threads in their event loops, summed over replications, seconds. */
    public double simulatingCpuSeconds() {
        return simulatingCpuNanos.get() / 1e9;
    }

    /** Collection pause time (wall) while event loops ran, seconds, and how many collections that was. */
    public double loopCollectionSeconds() {
        return loopCollectionMillis.get() / 1e3;
    }

    public long loopCollections() {
        return loopCollections.get();
    }

    private static long threadCpuNanos() {
        java.lang.management.ThreadMXBean t = java.lang.management.ManagementFactory.getThreadMXBean();
        return t.isCurrentThreadCpuTimeSupported() ? t.getCurrentThreadCpuTime() : -1;
    }

    /** Pause time (ms) and count of every collection so far, all collectors summed. */
    private static long[] collections() {
        long millis = 0;
        long count = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            millis += Math.max(0, gc.getCollectionTime());
            count += Math.max(0, gc.getCollectionCount());
        }
        return new long[] {millis, count};
    }

    public long expectedUnits() {
        return expected.get();
    }

    /** Adds {@code units} finished units, for runs {@link #expect}ed with no event kind. */
    public void finished(long units) {
        counted.addAndGet(units);
    }

    public long finishedUnits() {
        Class<?> k = finishKind;
        long n = 0;
        if (k != null) {
            for (SimulationClock c : clocks) {
                n += c.eventsOf(k);
            }
        }
        return counted.get() + n / perUnit;
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

    /**
     * Adds a replication's work counter (such as how many flows its rate solves re-rated), read on
     * demand; counters of one name from several replications are summed.
     */
    public void count(String name, LongSupplier value) {
        counters.add(Map.entry(name, value));
    }

    /** The counters by name, summed over replications, in the order first added. */
    public Map<String, Long> counts() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, LongSupplier> c : counters) {
            out.merge(c.getKey(), c.getValue().getAsLong(), Long::sum);
        }
        return out;
    }

    /** Wall time spent in event loops, summed over replications, seconds. */
    public double simulatingSeconds() {
        return simulatingNanos.get() / 1e9;
    }
}
