package org.rdmasim.refit.method;

import org.rdmasim.engine.SimulationClock;

/**
 * The rollout engines' lock of miles' and slime's NCCL weight update: a flag in a Ray actor that a caller
 * tries to take and, finding it taken, sleeps {@link #RETRY_SECONDS} before trying again. It is not a queue:
 * whoever tries first once it is free takes it, so a sender that releases it and comes back before a
 * sleeping one wakes takes it again.
 * <ul>
 *   <li>The lock: {@code Lock.acquire} returns False while held, {@code release} clears the flag
 *       (radixark/miles 9a6fc9e6 miles/ray/utils.py:39-56).</li>
 *   <li>The caller: {@code while not ray.get(lock.acquire.remote()): time.sleep(0.1)}, then the bucket's
 *       broadcast and {@code ray.get(refs)} on the engines' {@code update_weights_from_distributed}, which returns
 *       once they have received and loaded the bucket, then {@code release} (radixark/miles 9a6fc9e6
 *       miles/backends/megatron_utils/update_weight/update_weight_from_distributed/broadcast.py:85-97; THUDM/slime
 *       624b824a8 slime/backends/megatron_utils/update_weight/update_weight_from_distributed.py:251-265).</li>
 * </ul>
 * The Ray calls' own round trips are not priced (no source times them); a try lands at its sleep's end.
 */
final class EnginesLock {
    /** The caller's sleep between tries (broadcast.py:87 @9a6fc9e6, update_weight_from_distributed.py:252 @624b824a8). */
    static final double RETRY_SECONDS = 0.1;

    /** Told of each time the lock was held, from its taking to its release. */
    @FunctionalInterface
    interface Holds {
        void held(double start, double end);
    }

    private final SimulationClock clock;
    private final Holds holds;
    private final Holds broadcasts;
    private boolean held;
    private double takenAt;

    EnginesLock(SimulationClock clock, Holds holds) {
        this(clock, holds, (a, b) -> { });
    }

    /**
     * A lock told of its holds ({@code holds}) and of the broadcasts it orders ({@code broadcasts}): each engine
     * rank's stream runs one bucket's broadcast at a time, in the order the lock was taken ({@link BucketPipeline}).
     */
    EnginesLock(SimulationClock clock, Holds holds, Holds broadcasts) {
        this.clock = clock;
        this.holds = holds;
        this.broadcasts = broadcasts;
    }

    /** A broadcast this lock ordered ran on the engines' streams from {@code start} to {@code end}. */
    void broadcastRan(double start, double end) {
        broadcasts.held(start, end);
    }

    /** Tries now, then every {@link #RETRY_SECONDS} until free; runs {@code granted} once taken. */
    void acquire(Runnable granted) {
        if (!held) {
            held = true;
            takenAt = clock.now();
            granted.run();
            return;
        }
        clock.schedule(RETRY_SECONDS, () -> acquire(granted));
    }

    /** The time on this lock's clock. */
    double now() {
        return clock.now();
    }

    void release() {
        if (!held) {
            throw new IllegalStateException("the engines' lock is released but not held");
        }
        held = false;
        holds.held(takenAt, clock.now());
    }
}
