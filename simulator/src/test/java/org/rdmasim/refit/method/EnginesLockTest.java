package org.rdmasim.refit.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdmasim.engine.SimulationClock;

/**
 * miles' engines' lock under {@link BucketPipeline}: held from a unit's wire through its drain, taken by whoever
 * tries first once free, a waiter trying again every {@link EnginesLock#RETRY_SECONDS}.
 */
class EnginesLockTest {
    private static final double EPS = 1e-9;

    /** Times of one unit's steps, as the pipeline ran them. */
    private static final class Times {
        double wireStart = Double.NaN;
        double drainEnd = Double.NaN;
    }

    private static BucketPipeline.Step after(SimulationClock clock, double seconds) {
        return done -> clock.schedule(seconds, done);
    }

    private static BucketPipeline.Unit unit(SimulationClock clock, int sender, double fill, double wire, double drain,
            Times t) {
        return new BucketPipeline.Unit(sender, after(clock, fill), done -> {
            t.wireStart = clock.now();
            clock.schedule(wire, done);
        }, done -> clock.schedule(drain, () -> {
            t.drainEnd = clock.now();
            done.run();
        }));
    }

    private record Run(List<Times> times, double end, List<double[]> held) {
    }

    private static Run run(double[][] units, int[] senders, boolean locked) {
        SimulationClock clock = new SimulationClock();
        List<Times> times = new ArrayList<>();
        List<BucketPipeline.Unit> list = new ArrayList<>();
        for (int k = 0; k < units.length; k++) {
            Times t = new Times();
            times.add(t);
            list.add(unit(clock, senders[k], units[k][0], units[k][1], units[k][2], t));
        }
        double[] end = {Double.NaN};
        List<double[]> held = new ArrayList<>();
        Runnable done = () -> end[0] = clock.now();
        BucketPipeline.inOrder(list, 1, locked ? BucketPipeline.WireOrder.LOCKED : BucketPipeline.WireOrder.GLOBAL,
                () -> new EnginesLock(clock, (a, b) -> held.add(new double[] {a, b})), done).start();
        clock.run();
        return new Run(times, end[0], held);
    }

    @Test
    void theLockIsHeldThroughTheDrainSoNoTwoUnitsOverlapFromWireToDrain() {
        // two stage heads, two buckets each: fill 1 s, wire 2 s, drain 3 s
        double[][] u = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
        int[] senders = {0, 1, 0, 1};
        Run locked = run(u, senders, true);
        List<Times> t = new ArrayList<>(locked.times());
        t.sort((a, b) -> Double.compare(a.wireStart, b.wireStart));
        for (int i = 1; i < t.size(); i++) {
            assertTrue(t.get(i).wireStart >= t.get(i - 1).drainEnd - EPS,
                    "unit " + i + " went on the wire at " + t.get(i).wireStart + " before the previous holder's load ended at "
                            + t.get(i - 1).drainEnd);
        }
        assertEquals(4, locked.held().size(), "one hold a unit");
        for (double[] h : locked.held()) {
            assertEquals(5.0, h[1] - h[0], EPS, "held from the wire's start through the drain: 2 s + 3 s");
        }
        // released at wire end, the next bucket's wire overlaps this one's load: strictly faster
        Run atWireEnd = run(u, senders, false);
        assertTrue(atWireEnd.end() < locked.end() - 1.0, atWireEnd.end() + " vs " + locked.end());
        // under the lock the four holds are in series: at least 4 x 5 s after the first fill
        assertTrue(locked.end() >= 1 + 4 * 5 - EPS, "ended at " + locked.end());
    }

    @Test
    void aHeadThatLetsGoAndComesBackFirstTakesItAgainWhileTheWaiterSleeps() {
        // sender 0: bucket 0 (fill 1, wire 1, drain 1.03: released at 3.03), bucket 2 filled 0.02 s later (3.05)
        // sender 1: bucket 1 filled at 1.0, finds the lock taken, tries at 1.1, 1.2, ..., 3.1
        double[][] u = {{1, 1, 1.03}, {1, 1, 1}, {0.02, 1, 1}};
        int[] senders = {0, 1, 0};
        Run r = run(u, senders, true);
        Times k0 = r.times().get(0);
        Times k1 = r.times().get(1);
        Times k2 = r.times().get(2);
        assertEquals(1.0, k0.wireStart, EPS);
        assertEquals(3.05, k2.wireStart, 1e-6, "sender 0 takes the free lock at once, before sender 1's next try");
        // sender 1 gets it at its first try after sender 0's second release (5.05): a try at 1.0 + 0.1 j
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
