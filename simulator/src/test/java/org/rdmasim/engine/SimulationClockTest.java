package org.rdmasim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import umontreal.ssj.rng.RandomStream;

class SimulationClockTest {
    /** Fires a random schedule with moves and cancellations and records the firing order. */
    private static List<String> trace(SimulationClock.EventListKind kind, long seed) {
        SimulationClock clock = new SimulationClock(kind);
        Random rnd = new Random(seed);
        List<String> fired = new ArrayList<>();
        List<SimulationClock.ScheduledAction> events = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            String name = "e" + i;
            // Coarse times so many events share an instant and the tie order matters.
            events.add(clock.schedule(rnd.nextInt(50), () -> fired.add(name + "@" + clock.now())));
        }
        for (int i = 0; i < 500; i++) {
            SimulationClock.ScheduledAction e = events.get(rnd.nextInt(events.size()));
            if (rnd.nextBoolean()) {
                e.moveTo(rnd.nextInt(50));
            } else {
                e.cancel();
            }
        }
        clock.run();
        return fired;
    }

    @Test
    void heapListFiresInTheSameOrderAsHenriksen() {
        for (long seed = 1; seed <= 5; seed++) {
            List<String> heap = trace(SimulationClock.EventListKind.HEAP, seed);
            assertEquals(trace(SimulationClock.EventListKind.HENRIKSEN, seed), heap, "seed " + seed);
            assertFalse(heap.isEmpty());
        }
    }

    /**
     * As {@link #trace}, but each event, when it fires, moves two others (earlier, later or to now),
     * as fluid completions move on every rate change mid-run.
     */
    private static List<String> traceMovingWhileRunning(SimulationClock.EventListKind kind, long seed) {
        SimulationClock clock = new SimulationClock(kind);
        Random rnd = new Random(seed);
        List<String> fired = new ArrayList<>();
        List<SimulationClock.ScheduledAction> events = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String name = "e" + i;
            events.add(clock.schedule(rnd.nextInt(200), () -> {
                fired.add(name + "@" + clock.now());
                for (int k = 0; k < 2; k++) {
                    SimulationClock.ScheduledAction other = events.get(rnd.nextInt(events.size()));
                    if (other.isPending()) {
                        other.moveTo(rnd.nextInt(4) == 0 ? 0.0 : rnd.nextInt(30));
                    }
                }
            }));
        }
        clock.run();
        return fired;
    }

    @Test
    void heapListMovesEventsMidRunAsHenriksenDoes() {
        for (long seed = 1; seed <= 5; seed++) {
            List<String> heap = traceMovingWhileRunning(SimulationClock.EventListKind.HEAP, seed);
            assertEquals(traceMovingWhileRunning(SimulationClock.EventListKind.HENRIKSEN, seed), heap, "seed " + seed);
            assertEquals(3000, heap.size(), "every event fires once");
        }
    }

    /**
     * A batch of events at coarse, unordered times (many share an instant) beside other events scheduled
     * before and after the batch and from inside firing events, some at zero delay: records the firing
     * order, each event's view of the next event time, and the scheduled count at the end.
     */
    private static List<String> traceBatch(boolean chained, long seed) {
        SimulationClock clock = new SimulationClock();
        Random rnd = new Random(seed);
        List<String> fired = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String name = "before" + i;
            clock.schedule(rnd.nextInt(40), () -> fired.add(name + "@" + clock.now() + " next " + clock.nextEventTime()));
        }
        int n = 1000;
        double[] at = new double[n];
        for (int i = 0; i < n; i++) {
            at[i] = rnd.nextInt(40) - 1.0; // -1: in the past, clamped to now as scheduleAt does
        }
        Random inner = new Random(seed + 100);
        java.util.function.IntFunction<Runnable> action = i -> () -> {
            fired.add("batch" + i + "@" + clock.now() + " next " + clock.nextEventTime());
            if (i % 3 == 0) {
                String name = "from" + i;
                clock.schedule(inner.nextInt(3), () -> fired.add(name + "@" + clock.now()));
            }
        };
        if (chained) {
            clock.scheduleAllAt(at, action);
        } else {
            for (int i = 0; i < n; i++) {
                clock.scheduleAt(at[i], action.apply(i));
            }
        }
        for (int i = 0; i < 300; i++) {
            String name = "after" + i;
            clock.schedule(rnd.nextInt(40), () -> fired.add(name + "@" + clock.now()));
        }
        fired.add("scheduled " + clock.eventsScheduled());
        clock.run();
        fired.add("scheduled " + clock.eventsScheduled() + " fired " + clock.eventsFired());
        return fired;
    }

    @Test
    void aBatchScheduledAllAtOnceFiresAsScheduledOneByOne() {
        for (long seed = 1; seed <= 5; seed++) {
            List<String> oneByOne = traceBatch(false, seed);
            assertEquals(oneByOne, traceBatch(true, seed), "seed " + seed);
            assertEquals(2 + 300 + 1000 + 334 + 300, oneByOne.size());
        }
    }

    @Test
    void sameInstantFiresFirstInFirstOut() {
        SimulationClock clock = new SimulationClock();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int k = i;
            clock.schedule(1.0, () -> order.add(k));
        }
        clock.run();
        for (int i = 0; i < 100; i++) {
            assertEquals(i, order.get(i));
        }
        assertEquals(100, clock.eventsFired());
    }

    @Test
    void namedStreamsAreReproducibleAndIndependent() {
        RandomStream a1 = new RandomStreams(42, 0).stream("arrivals");
        RandomStream a2 = new RandomStreams(42, 0).stream("arrivals");
        RandomStream b = new RandomStreams(42, 0).stream("jitter");
        RandomStream c = new RandomStreams(42, 1).stream("arrivals");
        double x1 = a1.nextDouble();
        assertEquals(x1, a2.nextDouble());
        assertNotEquals(x1, b.nextDouble());
        assertNotEquals(x1, c.nextDouble());
    }

    /** A chain of 100,000 events, each scheduling the next: far more than one interrupt-check interval. */
    private static void chain(SimulationClock clock, long[] fired) {
        clock.schedule(1e-6, () -> {
            if (++fired[0] < 100_000) {
                chain(clock, fired);
            }
        });
    }

    @Test
    void anInterruptedThreadStopsTheLoopWithinOneCheckInterval() {
        SimulationClock clock = new SimulationClock();
        long[] fired = {0};
        chain(clock, fired);
        Thread.currentThread().interrupt(); // as the Ctrl-C hook does while a variant simulates
        try {
            SimulationInterrupted e = org.junit.jupiter.api.Assertions.assertThrows(SimulationInterrupted.class, clock::run);
            org.junit.jupiter.api.Assertions.assertTrue(Thread.currentThread().isInterrupted(),
                    "the flag stays set, so callers tell a stop from a failure");
            org.junit.jupiter.api.Assertions.assertTrue(fired[0] < 1024, "stopped after " + fired[0] + " events: " + e.getMessage());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anUninterruptedRunFiresEveryEvent() {
        SimulationClock clock = new SimulationClock();
        long[] fired = {0};
        for (int i = 0; i < 5000; i++) {
            clock.schedule(i * 1e-6, () -> fired[0]++);
        }
        clock.run();
        assertEquals(5000, fired[0]);
        assertEquals(5000, clock.eventsFired());
    }

    /**
     * Events held back with a reserved place ({@link SimulationClock#reserveSequence}), some of them never
     * put on the list, fire as if each kept one had been scheduled at its reservation and each dropped one
     * scheduled and cancelled there: same order among events of one instant, same eventsScheduled count.
     */
    @Test
    void reservedEventsFireAsIfScheduledAtTheirReservation() {
        for (long seed = 1; seed <= 5; seed++) {
            List<String> direct = new ArrayList<>();
            SimulationClock a = new SimulationClock(SimulationClock.EventListKind.HEAP);
            List<String> held = new ArrayList<>();
            SimulationClock b = new SimulationClock(SimulationClock.EventListKind.HEAP);
            Random ra = new Random(seed);
            Random rb = new Random(seed);
            List<long[]> reserved = new ArrayList<>();
            List<Integer> delays = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                String name = "e" + i;
                int delay = ra.nextInt(20);
                assertEquals(delay, rb.nextInt(20));
                boolean dropped = ra.nextInt(3) == 0;
                assertEquals(dropped, rb.nextInt(3) == 0);
                SimulationClock.ScheduledAction e = a.schedule(delay, () -> direct.add(name + "@" + a.now()));
                if (dropped) {
                    e.cancel();
                }
                if (i % 2 == 0) {
                    // every other event is held back, the rest scheduled at once between them
                    long sequence = b.reserveSequence();
                    if (!dropped) {
                        reserved.add(new long[] {i, sequence});
                        delays.add(delay);
                    }
                } else {
                    SimulationClock.ScheduledAction f = b.schedule(delay, () -> held.add(name + "@" + b.now()));
                    if (dropped) {
                        f.cancel();
                    }
                }
            }
            for (int k = 0; k < reserved.size(); k++) {
                String name = "e" + reserved.get(k)[0];
                b.scheduleReserved(delays.get(k), () -> held.add(name + "@" + b.now()), reserved.get(k)[1]);
            }
            assertEquals(a.eventsScheduled(), b.eventsScheduled(), "seed " + seed);
            a.run();
            b.run();
            assertFalse(direct.isEmpty());
            assertEquals(direct, held, "seed " + seed);
        }
    }

    /**
     * The list's size at each pop: a hold model keeps P events pending (each event fired schedules the next),
     * so every pop but the last P - 1 finds P on the list (the drain at the end finds P-1, P-2, ..., 1), and
     * the peak is P; {@code bench --scenario --repeats} holds its bare loop to these sizes.
     */
    @Test
    void countsTheListSizeAtEachPop() {
        int pending = 7;
        int events = 100;
        SimulationClock clock = new SimulationClock();
        long[] fired = {0};
        Runnable[] action = new Runnable[1];
        action[0] = () -> {
            if (++fired[0] + pending <= events) {
                clock.schedule(1.0 + fired[0] % 3, action[0]);
            }
        };
        for (int i = 0; i < pending; i++) {
            clock.schedule(i, action[0]);
        }
        clock.run();
        long[] pops = clock.pendingAtPops();
        assertEquals(events, pops[0]);
        // (events - pending + 1) pops at P, then P-1 ... 1
        long expected = (long) (events - pending + 1) * pending + (long) (pending - 1) * pending / 2;
        assertEquals(expected, pops[1]);
        assertEquals(pending, clock.peakPending());
        long[] none = new SimulationClock(SimulationClock.EventListKind.HENRIKSEN).pendingAtPops();
        assertEquals(0, none[0] + none[1], "Henriksen's list does not count");
    }
}
