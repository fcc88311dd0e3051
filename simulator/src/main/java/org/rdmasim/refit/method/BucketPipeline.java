package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Supplier;

/**
 * Units of work (buckets, or pieces of a WRITE schedule) that each pass fill, wire and drain, run with
 * the dependencies real engines have:
 * <ul>
 *   <li>a sender fills its units one after another, into one of {@code depth} buffers: the k-th unit of
 *       a sender may start filling once its (k - depth)-th has left its buffer (double buffering: depth 2,
 *       the next bucket fills while this one is on the wire; depth 1: fill, wire, fill, wire);</li>
 *   <li>a filled unit goes on the wire when the wire order allows: after the previous unit of the same
 *       communicator ({@link WireOrder#PER_SENDER}, verl's {@code nccl_parallel}: one NCCL group per
 *       stripe owner), after the previous unit of all ({@link WireOrder#GLOBAL}, one process group whose
 *       broadcasts run in issue order), at once ({@link WireOrder#NONE}, asynchronous WRITEs), or once its
 *       sender holds the engines' lock ({@link WireOrder#LOCKED}, miles' and slime's update,
 *       {@link EnginesLock});</li>
 *   <li>units drain (install into the engine) one after another in unit order; a unit leaves its buffer
 *       when drained, or when off the wire if it has no drain. Under the lock a unit drains as soon as it is
 *       off the wire, and the lock is released when it has drained: the lock's holder waits for the engines'
 *       load before it lets go.</li>
 * </ul>
 */
final class BucketPipeline {
    /** One stage of one unit: starts, and calls its argument once done. */
    @FunctionalInterface
    interface Step {
        void start(Runnable done);
    }

    enum WireOrder { PER_SENDER, GLOBAL, NONE, LOCKED }

    /** A unit: which sender fills it, and its three steps ({@code drain} null when it has none). */
    record Unit(int sender, Step fill, Step wire, Step drain) {
    }

    private final List<Unit> units;
    private final int depth;
    private final WireOrder order;
    private final Runnable allDone;
    /** Held from a unit's wire through its drain ({@link WireOrder#LOCKED}); null otherwise. */
    private final EnginesLock lock;
    private final int senders;
    private final List<List<Integer>> bySender = new ArrayList<>();
    private final int[] nextFill;
    private final boolean[] filling;
    private final int[] released;
    /**
     * Units filled and not yet on the wire: at most a buffer's depth a sender, where a refit's schedule has
     * thousands of units, so each pass looks at these alone (scanning every unit at each step made a
     * Kimi-K2 WRITE schedule quadratic in its pieces).
     */
    private final BitSet waitingForWire = new BitSet();
    private final boolean[] wired;
    private final int[] previousOfSender;
    private int nextDrain;
    private boolean draining;
    private int done;
    private boolean advancing;
    private boolean again;

    BucketPipeline(List<Unit> units, int depth, WireOrder order, Runnable allDone) {
        this(units, depth, order, null, allDone);
    }

    /**
     * The pipeline for {@code order}: under {@link WireOrder#LOCKED} its units go on the wire under the lock
     * {@code lock} makes, which is made only then.
     */
    static BucketPipeline inOrder(List<Unit> units, int depth, WireOrder order, Supplier<EnginesLock> lock,
            Runnable allDone) {
        return new BucketPipeline(units, depth, order, order == WireOrder.LOCKED ? lock.get() : null, allDone);
    }

    private BucketPipeline(List<Unit> units, int depth, WireOrder order, EnginesLock lock, Runnable allDone) {
        if (depth < 1) {
            throw new IllegalArgumentException("a pipeline needs at least one buffer");
        }
        if ((order == WireOrder.LOCKED) != (lock != null)) {
            throw new IllegalArgumentException("a lock is given exactly when the wire order is LOCKED");
        }
        this.units = List.copyOf(units);
        this.depth = depth;
        this.order = order;
        this.lock = lock;
        this.allDone = allDone;
        int s = 0;
        for (Unit u : units) {
            s = Math.max(s, u.sender() + 1);
        }
        senders = s;
        for (int i = 0; i < senders; i++) {
            bySender.add(new ArrayList<>());
        }
        previousOfSender = new int[units.size()];
        for (int k = 0; k < units.size(); k++) {
            List<Integer> mine = bySender.get(units.get(k).sender());
            previousOfSender[k] = mine.isEmpty() ? -1 : mine.get(mine.size() - 1);
            mine.add(k);
        }
        nextFill = new int[senders];
        filling = new boolean[senders];
        released = new int[senders];
        wired = new boolean[units.size()];
    }

    void start() {
        if (units.isEmpty()) {
            allDone.run();
            return;
        }
        advance();
    }

    /** Starts every step whose dependencies are met; re-entrant calls (a step ending at once) loop here. */
    private void advance() {
        if (advancing) {
            again = true;
            return;
        }
        advancing = true;
        try {
            do {
                again = false;
                startFills();
                startWires();
                startDrain();
            } while (again);
        } finally {
            advancing = false;
        }
    }

    private void startFills() {
        for (int s = 0; s < senders; s++) {
            List<Integer> mine = bySender.get(s);
            int i = nextFill[s];
            if (filling[s] || i >= mine.size() || released[s] < i - depth + 1) {
                continue;
            }
            int k = mine.get(i);
            filling[s] = true;
            nextFill[s]++;
            int sender = s;
            units.get(k).fill().start(() -> {
                filling[sender] = false;
                waitingForWire.set(k);
                advance();
            });
        }
    }

    private void startWires() {
        // in unit order, as a scan of every unit would start them
        for (int k = waitingForWire.nextSetBit(0); k >= 0; k = waitingForWire.nextSetBit(k + 1)) {
            boolean ready = switch (order) {
                case NONE, LOCKED -> true;
                case PER_SENDER -> previousOfSender[k] < 0 || wired[previousOfSender[k]];
                case GLOBAL -> k == 0 || wired[k - 1];
            };
            if (!ready) {
                continue;
            }
            waitingForWire.clear(k);
            int unit = k;
            if (order == WireOrder.LOCKED) {
                lock.acquire(() -> units.get(unit).wire().start(() -> {
                    wired[unit] = true;
                    drainUnderLock(unit);
                }));
                continue;
            }
            units.get(k).wire().start(() -> {
                wired[unit] = true;
                if (units.get(unit).drain() == null) {
                    release(unit);
                }
                advance();
            });
        }
    }

    /** The lock holder's unit is off the wire: it drains now, then the lock is let go. */
    private void drainUnderLock(int k) {
        Step drain = units.get(k).drain();
        Runnable letGo = () -> {
            lock.release();
            release(k);
            advance();
        };
        if (drain == null) {
            letGo.run();
        } else {
            drain.start(letGo);
        }
    }

    private void startDrain() {
        if (order == WireOrder.LOCKED) {
            return; // each unit drains under the lock, as soon as it is off the wire
        }
        while (nextDrain < units.size() && !draining && wired[nextDrain]) {
            int k = nextDrain++;
            Unit u = units.get(k);
            if (u.drain() == null) {
                continue;
            }
            draining = true;
            u.drain().start(() -> {
                draining = false;
                release(k);
                advance();
            });
        }
    }

    private void release(int k) {
        released[units.get(k).sender()]++;
        if (++done == units.size()) {
            allDone.run();
        }
    }
}
