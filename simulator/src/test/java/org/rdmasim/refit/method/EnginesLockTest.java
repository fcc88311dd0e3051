package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * miles' engines' lock under {@link BucketPipeline}: held from a unit's call through its drain (the engines' load,
 * host work), the broadcasts running on the devices one at a time beside the loads; taken by whoever tries first
 * once free, a waiter trying again every {@link EnginesLock#RETRY_SECONDS}.
 */
class EnginesLockTest {
    private static final double EPS = 1e-9;

    /** Times of one unit's steps, as the pipeline ran them. */
    private static final class Times {
        double fillStart = Double.NaN;
        double wireStart = Double.NaN;
        double wireEnd = Double.NaN;
        double drainStart = Double.NaN;
        double drainEnd = Double.NaN;
    }

    private static BucketPipeline.Unit unit(SimulationClock clock, int sender, double[] u, Times t) {
        BucketPipeline.Step fill = done -> {
            t.fillStart = clock.now();
            clock.schedule(u[0], done);
        };
        BucketPipeline.Step call = u[3] > 0 ? done -> clock.schedule(u[3], done) : null;
        BucketPipeline.Step wire = done -> {
            t.wireStart = clock.now();
            clock.schedule(u[1], () -> {
                t.wireEnd = clock.now();
                done.run();
            });
        };
        BucketPipeline.Step drain = done -> {
            t.drainStart = clock.now();
            clock.schedule(u[2], () -> {
                t.drainEnd = clock.now();
                done.run();
            });
        };
        return new BucketPipeline.Unit(sender, fill, call, wire, drain);
    }

    private record Run(List<Times> times, double end, List<double[]> held, List<double[]> broadcasts) {
    }

    /** Each unit: {fill, wire, drain, call} seconds. */
    private static Run run(double[][] units, int[] senders, boolean locked) {
        SimulationClock clock = new SimulationClock();
        List<Times> times = new ArrayList<>();
        List<BucketPipeline.Unit> list = new ArrayList<>();
        for (int k = 0; k < units.length; k++) {
            Times t = new Times();
            times.add(t);
            list.add(unit(clock, senders[k], units[k], t));
        }
        double[] end = {Double.NaN};
        List<double[]> held = new ArrayList<>();
        List<double[]> broadcasts = new ArrayList<>();
        Runnable done = () -> end[0] = clock.now();
        BucketPipeline.inOrder(list, 1, locked ? BucketPipeline.WireOrder.LOCKED : BucketPipeline.WireOrder.GLOBAL,
                () -> new EnginesLock(clock, (a, b) -> held.add(new double[] {a, b}),
                        (a, b) -> broadcasts.add(new double[] {a, b})), done).start();
        clock.run();
        return new Run(times, end[0], held, broadcasts);
    }

    @Test
    void theLockCoversTheCallAndTheLoadWhileTheBroadcastsGoOneAtATimeBesideTheLoads() {
        // two stage heads, two buckets each: fill 1 s, wire 2 s, drain 3 s, call 0.5 s
        double[][] u = {{1, 2, 3, 0.5}, {1, 2, 3, 0.5}, {1, 2, 3, 0.5}, {1, 2, 3, 0.5}};
        int[] senders = {0, 1, 0, 1};
        Run locked = run(u, senders, true);
        assertEquals(4, locked.held().size(), "one hold a unit");
        for (double[] h : locked.held()) {
            assertEquals(3.5, h[1] - h[0], EPS, "held from the call through the load: 0.5 s + 3 s, not the wire");
        }
        List<Times> t = new ArrayList<>(locked.times());
        t.sort((a, b) -> Double.compare(a.wireStart, b.wireStart));
        for (int i = 1; i < t.size(); i++) {
            assertTrue(t.get(i).wireStart >= t.get(i - 1).wireEnd - EPS, "broadcast " + i + " started at "
                    + t.get(i).wireStart + " before the one before it ended at " + t.get(i - 1).wireEnd);
        }
        for (Times x : locked.times()) {
            assertTrue(x.drainStart < x.wireEnd, "the engines load while the bytes are still on the wire");
            assertEquals(x.drainStart, x.wireStart, EPS, "with the wire free, both start once the call is made");
        }
        // the engines' streams are told of each broadcast: four of 2 s, none overlapping
        assertEquals(4, locked.broadcasts().size());
        for (int i = 0; i < 4; i++) {
            double[] b = locked.broadcasts().get(i);
            assertEquals(2.0, b[1] - b[0], EPS);
            if (i > 0) {
                assertTrue(b[0] >= locked.broadcasts().get(i - 1)[1] - EPS, "broadcast " + i + " overlaps the last");
            }
        }
        // a head's next bucket fills only once its last is both off the wire and loaded
        Times first = locked.times().get(0);
        Times again = locked.times().get(2);
        assertEquals(Math.max(first.wireEnd, first.drainEnd), again.fillStart, EPS);
        // the four holds are still in series: at least 1 s of fill and 4 x 3.5 s
        assertTrue(locked.end() >= 1 + 4 * 3.5 - EPS, "ended at " + locked.end());
    }

    @Test
    void whenTheWireIsLongerThanTheLoadTheBroadcastsSetThePace() {
        // one head: fill 0.1 s, wire 3 s, drain 1 s, call 0.2 s; each bucket waits for its last broadcast
        double[][] u = {{0.1, 3, 1, 0.2}, {0.1, 3, 1, 0.2}, {0.1, 3, 1, 0.2}};
        int[] senders = {0, 0, 0};
        Run r = run(u, senders, true);
        assertEquals(3 * (0.1 + 0.2 + 3), r.end(), EPS, "fill, call and wire in series; the loads under the wires");
    }

    @Test
    void aHeadThatLetsGoAndComesBackFirstTakesItAgainWhileTheWaiterSleeps() {
        // sender 0: bucket 0 (fill 1, wire 1, drain 1.03: let go at 2.03), bucket 2 filled 0.02 s later (2.05)
        // sender 1: bucket 1 filled at 1.0, finds the lock taken, tries at 1.1, 1.2, ..., 3.1
        double[][] u = {{1, 1, 1.03, 0}, {1, 1, 1, 0}, {0.02, 1, 1, 0}};
        int[] senders = {0, 1, 0};
        Run r = run(u, senders, true);
        Times k0 = r.times().get(0);
        Times k1 = r.times().get(1);
        Times k2 = r.times().get(2);
        assertEquals(1.0, k0.wireStart, EPS);
        assertEquals(2.05, k2.wireStart, 1e-6, "sender 0 takes the free lock at once, before sender 1's next try");
        // sender 1 gets it at its first try after sender 0's second release (3.05): a try at 1.0 + 0.1 j
        assertTrue(k1.wireStart >= k2.drainEnd - EPS);
        assertTrue(k1.wireStart < k2.drainEnd + EnginesLock.RETRY_SECONDS + 1e-6, "at most one retry's sleep late");
        double tries = (k1.wireStart - 1.0) / EnginesLock.RETRY_SECONDS;
        assertEquals(Math.rint(tries), tries, 1e-6, "it lands on one of its tries, every 0.1 s from 1.0");
    }

    @Test
    void aLockReleasedWithoutBeingHeldIsAnError() {
        EnginesLock lock = new EnginesLock(new SimulationClock(), (a, b) -> { });
        assertThrows(IllegalStateException.class, lock::release);
    }

    @Test
    void aLockedPipelineNeedsItsLock() {
        assertThrows(IllegalArgumentException.class,
                () -> new BucketPipeline(List.of(), 1, BucketPipeline.WireOrder.LOCKED, () -> { }));
    }
}
