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
 *       when drained, or when off the wire if it has no drain.</li>
 * </ul>
 * Under the lock a unit's host side and its device side part once its call is made. The holder's call
 * ({@link Unit#call}) and the engines' load ({@link Unit#drain}) are host work: the lock is let go once the
 * engines reply, which they do once their host has queued the load. The broadcast is device work: PyTorch's
 * {@code wait()} on an asynchronous NCCL collective only makes the current CUDA stream wait for it
 * (pytorch/pytorch docs/source/distributed.rst, "Synchronous and asynchronous collective operations"), so
 * neither miles' sender ({@code handle.wait()}, radixark/miles 9a6fc9e6
 * miles/backends/megatron_utils/update_weight/update_weight_from_distributed/broadcast.py:181-182) nor SGLang's
 * receiver (its {@code handle.wait()} loop before {@code model.load_weights}) blocks on the bytes. The
 * broadcasts still go one at a time, in the order the lock was taken: each engine rank's current stream waits for
 * this bucket's broadcast before the load's copies, and the next broadcast on any of its communicators waits for
 * the current stream. A sender's next unit starts filling once this one is both off the wire and let go: its
 * next expert bucket's {@code all_gather_object} reads a size back to the host
 * (radixark/miles 9a6fc9e6 miles/backends/megatron_utils/update_weight/update_weight_from_distributed/mixin.py:105),
 * which waits for its stream, and that
 * stream waits for the broadcast; a non-expert bucket's gather waits for it on the device alike.
 */
final class BucketPipeline {
    /** One stage of one unit: starts, and calls its argument once done. */
    @FunctionalInterface
    interface Step {
        void start(Runnable done);
    }

    enum WireOrder { PER_SENDER, GLOBAL, NONE, LOCKED }

    /**
     * A unit: which sender fills it, and its steps: the call that starts it ({@code call}, null when it has none;
     * outside the lock it runs just before the wire), the wire, and the drain ({@code drain} null when it has none).
     */
    record Unit(int sender, Step fill, Step call, Step wire, Step drain) {
        Unit(int sender, Step fill, Step wire, Step drain) {
            this(sender, fill, null, wire, drain);
        }

        /** The call, then the wire. */
        Step callThenWire() {
            return call == null ? wire : done -> call.start(() -> wire.start(done));
        }
    }

    private final List<Unit> units;
    private final int depth;
    private final WireOrder order;
    private final Runnable allDone;
    /** Held from a unit's call through its drain ({@link WireOrder#LOCKED}); null otherwise. */
    private final EnginesLock lock;
    /** Under the lock: units called and waiting for the wire, in the order the lock was taken. */
    private final java.util.ArrayDeque<Integer> wireQueue = new java.util.ArrayDeque<>();
    private boolean wireBusy;
    /** Under the lock: units whose drain has ended (the engines replied). */
    private final boolean[] drained;
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
        drained = new boolean[units.size()];
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
                lock.acquire(() -> callUnderLock(unit));
                continue;
            }
            units.get(k).callThenWire().start(() -> {
                wired[unit] = true;
                if (units.get(unit).drain() == null) {
                    release(unit);
                }
                advance();
            });
        }
    }

    /**
     * The lock holder's call: once made, its broadcast queues behind the one before it and the engines' load runs
     * at once; the lock is let go when the load ends, the unit when its broadcast has ended too.
     */
    private void callUnderLock(int k) {
        Unit u = units.get(k);
        Runnable called = () -> {
            wireQueue.add(k);
            startQueuedWire();
            Runnable letGo = () -> {
                lock.release();
                drained[k] = true;
                releaseWhenBoth(k);
                advance();
            };
            if (u.drain() == null) {
                letGo.run();
            } else {
                u.drain().start(letGo);
            }
        };
        if (u.call() == null) {
            called.run();
        } else {
            u.call().start(called);
        }
    }

    /** The next queued broadcast, once the one before it has ended. */
    private void startQueuedWire() {
        if (wireBusy || wireQueue.isEmpty()) {
            return;
        }
        int k = wireQueue.poll();
        wireBusy = true;
        double start = lock.now();
        units.get(k).wire().start(() -> {
            wireBusy = false;
            lock.broadcastRan(start, lock.now());
            wired[k] = true;
            releaseWhenBoth(k);
            startQueuedWire();
            advance();
        });
    }

    private void releaseWhenBoth(int k) {
        if (wired[k] && drained[k]) {
            release(k);
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
