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
    private final AtomicLong loopCollectorCpuNanos = new AtomicLong();
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
     * Where one replication's event loop starts, on the thread that runs it: its wall clock, and where this
     * watch measures CPU ({@link #measureCpu}) that thread's CPU time, the collector threads' CPU time and the
     * collections' pause time and count so far (-1 for what the JVM or the system cannot tell).
     */
    public record LoopStart(long wallNanos, long cpuNanos, long collectorCpuNanos, long collectionMillis,
            long collections) {
    }

    private volatile boolean measuresCpu;

    /** Has {@link #simulated(LoopStart)} measure the loops' CPU, their collectors' and their collections too (bench). */
    public void measureCpu() {
        measuresCpu = true;
    }

    /** Marks the start of an event loop on the calling thread (see {@link #simulated(LoopStart)}). */
    public LoopStart loopStart() {
        if (!measuresCpu) {
            return new LoopStart(System.nanoTime(), -1, -1, 0, 0);
        }
        long[] gc = collections();
        return new LoopStart(System.nanoTime(), threadCpuNanos(), collectorCpuNanos(), gc[0], gc[1]);
    }

    /**
     * Adds what one replication's event loop took since {@code start}, on the same thread: wall time, and
     * where measured the thread's own CPU time (a shared machine stretches wall time by the wait for a
     * core, not this) and the collections that ran meanwhile: their threads' CPU (the serial collector
     * works on the JVM's VM thread while the loop waits), their pause time and count. With replications on
     * several threads, one collection is counted by each loop it stopped.
     */
    public void simulated(LoopStart start) {
        simulatingNanos.addAndGet(System.nanoTime() - start.wallNanos());
        if (!measuresCpu || start.cpuNanos() < 0) {
            return;
        }
        long cpu = threadCpuNanos();
        if (cpu >= 0) {
            simulatingCpuNanos.addAndGet(cpu - start.cpuNanos());
        }
        long collector = collectorCpuNanos();
        if (collector >= 0 && start.collectorCpuNanos() >= 0) {
            loopCollectorCpuNanos.addAndGet(collector - start.collectorCpuNanos());
        } else {
            loopCollectorCpuNanos.set(Long.MIN_VALUE / 2);
        }
        long[] gc = collections();
        loopCollectionMillis.addAndGet(gc[0] - start.collectionMillis());
        loopCollections.addAndGet(gc[1] - start.collections());
    }

    /** CPU time of the simulating threads in their event loops, summed over replications, seconds (0 unmeasured). */
    public double simulatingCpuSeconds() {
        return simulatingCpuNanos.get() / 1e9;
    }

    /**
     * CPU time of the collector threads while event loops ran, seconds; negative where the system does not
     * tell a thread's CPU by its name (Linux's /proc does).
     */
    public double loopCollectorCpuSeconds() {
        return loopCollectorCpuNanos.get() / 1e9;
    }

    /** Whether the system told the collector threads' CPU time ({@link #loopCollectorCpuSeconds} is not negative). */
    public boolean collectorCpuKnown() {
        return loopCollectorCpuSeconds() >= 0;
    }

    /**
     * What collecting cost the event loops, seconds: the collector threads' CPU time where the system tells it,
     * else the collections' pause time (wall). A bench adds it to the loops' own CPU, so that a collector that
     * runs on another thread still counts against the events.
     */
    public double loopCollectingSeconds() {
        return collectorCpuKnown() ? loopCollectorCpuSeconds() : loopCollectionSeconds();
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

    /**
     * CPU time so far of the JVM's threads that collect: the VM thread (where the serial collector runs,
     * the launcher's choice) and the parallel and G1 collectors' workers, read from Linux's
     * /proc/self/task/TID/stat (utime and stime, fields 14 and 15, in clock ticks of 1/100 s: proc(5));
     * -1 where there is no such file.
     */
    private static long collectorCpuNanos() {
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return -1;
        }
        long ticks = 0;
        try {
            for (java.io.File t : tasks) {
                String comm;
                String stat;
                try {
                    comm = java.nio.file.Files.readString(t.toPath().resolve("comm")).trim();
                    if (!(comm.equals("VM Thread") || comm.startsWith("GC Thread") || comm.startsWith("G1 "))) {
                        continue;
                    }
                    stat = java.nio.file.Files.readString(t.toPath().resolve("stat"));
                } catch (java.nio.file.NoSuchFileException gone) {
                    continue; // a thread that ended meanwhile
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // f[0] is field 3 (state): utime is field 14, stime field 15
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            }
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
        return ticks * 10_000_000L;
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

    /** The most events any one replication's list held pending at once (0 for lists that do not count). */
    public int peakPending() {
        int most = 0;
        for (SimulationClock c : clocks) {
            most = Math.max(most, c.peakPending());
        }
        return most;
    }

    /**
     * The event list's mean size at each event taken off it, over every replication's events (0 for lists
     * that do not count): the scale a bare loop at a constant {@code bench --pending} compares with.
     */
    public double meanPending() {
        long pops = 0;
        long sizes = 0;
        for (SimulationClock c : clocks) {
            long[] p = c.pendingAtPops();
            pops += p[0];
            sizes += p[1];
        }
        return pops == 0 ? 0 : (double) sizes / pops;
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
