package org.rdmasim.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rdmasim.engine.RandomStreams;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.TransferResult;
import umontreal.ssj.rng.RandomStream;

/**
 * Plays a {@link FanoutPlan} on a {@link WorkloadRun}: receivers arrive on the clock, take a source,
 * post one transfer per GPU, and on completion free the source's slot and, in a tree, publish
 * themselves as sources. Cycles follow one another: metadata exchange, registration, pull.
 *
 * <p>Work per event is constant or logarithmic in the number of receivers and sources (a queue of
 * waiting receivers, a queue or ordered set of sources with free slots); nothing scans all receivers.
 */
public final class FanoutRun {
    /**
     * Costs that come from outside the fan-out: the memory model's registration time for a cycle.
     *
     * @param firstRegistrationSeconds the first cycle's, with what a process registers once and keeps
     * @param registrationSeconds      a later cycle's when its buffers are registered again
     */
    public record Timing(double firstRegistrationSeconds, double registrationSeconds) {
        public static final Timing NONE = new Timing(0, 0);
    }

    private final FanoutPlan plan;
    private final Timing timing;
    private final WorkloadRun run;
    private final RandomStream arrivals;
    private final RandomStream startJitter;
    private final int receiverCount;
    private final List<FanoutResult.ReceiverPull> pulls = new ArrayList<>();
    private final List<FanoutResult.Cycle> cycles = new ArrayList<>();

    // Per receiver, reset each cycle.
    private final double[] arrivedAt;
    private final double[] postedAt;
    private final double[] lastFinish;
    private final int[] pending;
    private final long[] bytes;
    private final Bottleneck[] bottleneck;
    private final SourceNode[] servedBy;

    private int cycle;
    private double cycleStart;
    private double pullStart;
    private double metadata;
    private double registration;
    private int done;
    private int released;
    private long posted;
    private SourcePool pool;
    private final ArrayDeque<Integer> waiting = new ArrayDeque<>();
    // Receivers whose last GPU finished in the current instant, handled together in receiver order.
    private final EndingReceivers endingNow;

    // Fault reactions (ModelExpress's source retries); untouched and unallocated in a run without faults.
    private final boolean faultMode;
    private int[] attempts;
    private java.util.BitSet[] failedGpus;
    private java.util.Map<Integer, java.util.Set<String>> tried;
    private String[] lastFailure;

    FanoutRun(FanoutPlan plan, Timing timing, WorkloadRun run, RandomStreams streams) {
        this.plan = plan;
        this.timing = timing;
        this.run = run;
        this.arrivals = streams.stream("arrivals");
        this.startJitter = streams.stream("start-jitter");
        this.receiverCount = plan.receivers().size();
        arrivedAt = new double[receiverCount];
        postedAt = new double[receiverCount];
        lastFinish = new double[receiverCount];
        pending = new int[receiverCount];
        bytes = new long[receiverCount];
        bottleneck = new Bottleneck[receiverCount];
        servedBy = new SourceNode[receiverCount];
        endingNow = new EndingReceivers(receiverCount);
        faultMode = !run.faults().isEmpty();
        if (faultMode) {
            attempts = new int[receiverCount];
            failedGpus = new java.util.BitSet[receiverCount];
            tried = new java.util.HashMap<>();
            lastFailure = new String[receiverCount];
        }
    }

    void start() {
        startCycle();
    }

    long transfersPosted() {
        return posted;
    }

    FanoutResult result() {
        List<FanoutResult.ReceiverPull> ordered = new ArrayList<>(pulls);
        // Completion order can tie; report in (cycle, receiver order) so output never depends on it.
        ordered.sort(Comparator.comparingInt(FanoutResult.ReceiverPull::cycle)
                .thenComparingInt(p -> receiverIndex(p.receiver())));
        return new FanoutResult(ordered, cycles, plan.sources().stream().map(FanoutPlan.Member::host).toList());
    }

    private int receiverIndex(String host) {
        return indexByHost.get(host);
    }

    private final java.util.Map<String, Integer> indexByHost = new java.util.HashMap<>();

    private void startCycle() {
        double now = run.clock().now();
        cycleStart = now;
        metadata = plan.cycles().metadataSeconds(receiverCount);
        registration = cycle == 0 ? timing.firstRegistrationSeconds()
                : plan.cycles().registrationCached() ? 0.0 : timing.registrationSeconds();
        pullStart = now + metadata + registration;
        done = 0;
        pool = new SourcePool(plan.assignment(), plan.tree());
        for (FanoutPlan.Member s : plan.sources()) {
            if (faultMode && run.faults().registrationFails(s.host())) {
                run.logFault(now, s.host() + " does not serve: " + run.faults().registrationFailure(s.host()));
                continue;
            }
            pool.publish(s.host(), s.gpus(), true);
        }
        if (faultMode) {
            java.util.Arrays.fill(attempts, 0);
            tried.clear();
            for (int i = 0; i < receiverCount; i++) {
                failedGpus[i] = null;
                lastFailure[i] = null;
            }
        }
        double[] offsets = plan.arrival().offsets(receiverCount, arrivals);
        boolean wavesWait = plan.arrival() instanceof ArrivalProcess.Waves w && w.afterPrevious();
        int first = wavesWait ? Math.min(receiverCount, ((ArrivalProcess.Waves) plan.arrival()).size()) : receiverCount;
        for (int i = 0; i < receiverCount; i++) {
            indexByHost.putIfAbsent(plan.receivers().get(i).host(), i);
            bytes[i] = 0;
            bottleneck[i] = Bottleneck.Plain.NONE;
            lastFinish[i] = 0;
        }
        released = first;
        double[] at = new double[first];
        for (int i = 0; i < first; i++) {
            at[i] = jittered(pullStart + offsets[i]);
        }
        // one pending arrival at a time on the event list, in the order these would fire (see scheduleAllAt)
        run.clock().scheduleAllAt(at, i -> new ReceiverArrival(this, i));
    }

    private void scheduleArrival(int i, double at) {
        run.clock().scheduleAt(jittered(at), new ReceiverArrival(this, i));
    }

    /** {@code at} with the receiver's start jitter added (one draw per arrival, in receiver order). */
    private double jittered(double at) {
        double jitter = plan.jitter().startSeconds() > 0 ? startJitter.nextDouble() * plan.jitter().startSeconds() : 0.0;
        return at + jitter;
    }

    void arrive(int i) {
        arrivedAt[i] = run.clock().now();
        if (faultMode && run.faults().registrationFails(plan.receivers().get(i).host())) {
            fallBack(i, run.faults().registrationFailure(plan.receivers().get(i).host()));
            return;
        }
        waiting.addLast(i);
        dispatch();
    }

    /** Gives waiting receivers, first come first served, a source with a free slot. */
    private void dispatch() {
        if (faultMode) {
            dispatchAvoidingTried();
            return;
        }
        while (!waiting.isEmpty()) {
            SourceNode s = pool.pick();
            if (s == null) {
                return;
            }
            int i = waiting.pollFirst();
            pool.acquire(s);
            servedBy[i] = s;
            post(i, s);
        }
    }

    /**
     * Dispatch when faults may have struck: a receiver never goes back to a source it already failed
     * with (ModelExpress moves down its candidate list), a receiver with no untried source left falls
     * back to storage, and one whose untried sources are all busy waits without holding up the others.
     */
    private void dispatchAvoidingTried() {
        if (dispatching) {
            // Reached again from a receiver ending inside this loop: the running loop sees the change.
            return;
        }
        dispatching = true;
        try {
            dispatchWaiting();
        } finally {
            dispatching = false;
        }
    }

    private boolean dispatching;

    private void dispatchWaiting() {
        java.util.Iterator<Integer> it = waiting.iterator();
        while (it.hasNext()) {
            int i = it.next();
            java.util.Set<String> avoid = tried.getOrDefault(i, java.util.Set.of());
            if (!pool.anyEligible(avoid)) {
                it.remove();
                fallBack(i, "no untried source left" + (lastFailure[i] != null ? " (last: " + lastFailure[i] + ")" : ""));
                continue;
            }
            SourceNode s = pool.pickAvoiding(avoid);
            if (s == null) {
                continue;
            }
            it.remove();
            pool.acquire(s);
            servedBy[i] = s;
            post(i, s);
        }
    }

    /**
     * A receiver gives up on RDMA: ModelExpress's strategy chain then loads from storage, which rdmasim
     * does not model. Its pull is reported as failed at this instant.
     */
    private void fallBack(int i, String why) {
        FanoutPlan.Member r = plan.receivers().get(i);
        double now = run.clock().now();
        run.logFault(now, r.host() + " falls back to storage: " + why);
        pulls.add(new FanoutResult.ReceiverPull(cycle, r.host(), "", false, bytes[i], arrivedAt[i], now, now,
                new Bottleneck.Failed("fell back to storage (" + why + ")")));
        receiverEnded();
    }

    /** A host that was serving leaves: no new receiver is given it; pulls from it fail on their own. */
    void sourceLost(String host) {
        pool.lose(host);
        dispatch();
    }

    private void post(int i, SourceNode s) {
        double now = run.clock().now();
        postedAt[i] = now;
        FanoutPlan.Member r = plan.receivers().get(i);
        int gpus = r.gpus().size();
        java.util.BitSet only = faultMode ? failedGpus[i] : null;
        if (faultMode) {
            failedGpus[i] = new java.util.BitSet();
        }
        pending[i] = only == null ? gpus : only.cardinality();
        for (int k = 0; k < gpus; k++) {
            if (only != null && !only.get(k)) {
                continue;
            }
            String sourceGpu = plan.sourceGpu(s.gpus, k);
            long b = plan.bytesForGpu(k, gpus);
            bytes[i] += b;
            String id = "c" + cycle + "/" + r.host() + ":" + r.gpus().get(k)
                    + (faultMode && attempts[i] > 0 ? "#" + (attempts[i] + 1) : "");
            TransferItem item = new TransferItem(id, new Endpoint(s.host, sourceGpu), new Endpoint(r.host(), r.gpus().get(k)),
                    b, now, plan.operation(), plan.descriptors());
            posted++;
            int gpu = k;
            if (!faultMode) {
                run.post(item, new GpuDone(i, gpu));
                continue;
            }
            // ModelExpress waits at most its receive budget per source, then counts the attempt failed.
            org.rdmasim.engine.SimulationClock.ScheduledAction[] budget = new org.rdmasim.engine.SimulationClock.ScheduledAction[1];
            org.rdmasim.transport.TransferEngine.Posted handle = run.post(item, result -> {
                if (budget[0] != null) {
                    budget[0].cancel();
                }
                gpuDone(i, gpu, result);
            });
            double limit = run.faults().transferTimeoutSeconds();
            budget[0] = run.clock().schedule(limit, new FaultEvent(() -> handle.fail(
                    "timed out after " + org.rdmasim.hardware.Units.number(limit) + " s (ModelExpress receive budget)")));
        }
    }

    /**
     * Receiver {@code i}'s pull onto its {@code gpu}-th GPU ended. A class, not a lambda: the launcher's
     * C1 compiler makes a capturing lambda through a native Unsafe.allocateInstance call, one per pull.
     */
    private final class GpuDone implements java.util.function.Consumer<TransferResult> {
        private final int i;
        private final int gpu;

        GpuDone(int i, int gpu) {
            this.i = i;
            this.gpu = gpu;
        }

        @Override
        public void accept(TransferResult result) {
            gpuDone(i, gpu, result);
        }
    }

    private void gpuDone(int i, int gpu, TransferResult result) {
        if (faultMode && result.failed()) {
            failedGpus[i].set(gpu);
            lastFailure[i] = result.failure();
            bytes[i] -= result.spec().bytes();
        } else if (result.finishSeconds() >= lastFinish[i]) {
            lastFinish[i] = result.finishSeconds();
            bottleneck[i] = result.bottleneck();
        }
        if (--pending[i] > 0) {
            return;
        }
        if (faultMode && !failedGpus[i].isEmpty()) {
            SourceNode s = servedBy[i];
            servedBy[i] = null;
            pool.release(s);
            retry(i, s);
            return;
        }
        // Receivers finishing in one instant free their sources (and, in a tree, become sources) together,
        // in receiver order: which of them a computation finished first is rounding, and must not decide
        // which waiting receiver gets which source.
        if (endingNow.isEmpty()) {
            run.clock().schedule(run.clock().instantWidth(), new ReceiversEnded(this));
        }
        endingNow.add(i);
    }

    /** The receivers that ended in the instant just past, in receiver order. */
    void endInstant() {
        while (!endingNow.isEmpty()) {
            pullEnded(endingNow.pollFirst());
        }
    }

    private void pullEnded(int i) {
        SourceNode s = servedBy[i];
        servedBy[i] = null;
        pool.release(s);
        FanoutPlan.Member r = plan.receivers().get(i);
        pulls.add(new FanoutResult.ReceiverPull(cycle, r.host(), s.host, !s.original, bytes[i], arrivedAt[i], postedAt[i],
                lastFinish[i], bottleneck[i]));
        if (plan.tree() != null) {
            // ModelExpress publish_self_as_source: the receiver now holds every shard it pulled.
            pool.publish(r.host(), r.gpus(), false);
        }
        receiverEnded();
    }

    /**
     * Some of a receiver's GPUs failed with this source: ModelExpress tries the next candidate (the
     * failed GPUs pull again, whole) after the retry delay, or falls back after its last attempt.
     */
    private void retry(int i, SourceNode s) {
        attempts[i]++;
        tried.computeIfAbsent(i, k -> new java.util.HashSet<>()).add(s.host);
        FanoutPlan.Member r = plan.receivers().get(i);
        double now = run.clock().now();
        if (attempts[i] >= FaultPlan.MAX_SOURCE_ATTEMPTS) {
            fallBack(i, attempts[i] + " sources failed (last: " + lastFailure[i] + ")");
            dispatch();
            return;
        }
        run.logFault(now, r.host() + " failed with " + s.host + " (" + failedGpus[i].cardinality() + " GPU(s): "
                + lastFailure[i] + "); tries another source");
        run.clock().schedule(run.faults().retryDelaySeconds(), new FaultEvent(() -> {
            waiting.addLast(i);
            dispatch();
        }));
        dispatch();
    }

    /** A receiver is done with this cycle, having the model or having given up on RDMA. */
    private void receiverEnded() {
        done++;
        if (plan.arrival() instanceof ArrivalProcess.Waves w && w.afterPrevious() && released < receiverCount
                && done == released) {
            int next = Math.min(receiverCount, released + w.size());
            double now = run.clock().now();
            for (int j = released; j < next; j++) {
                scheduleArrival(j, now);
            }
            released = next;
        }
        if (done == receiverCount) {
            endCycle();
            return;
        }
        dispatch();
    }

    private void endCycle() {
        double now = run.clock().now();
        double pull = now - pullStart;
        cycles.add(new FanoutResult.Cycle(cycle, cycleStart, metadata, registration, pull, now - cycleStart));
        cycle++;
        if (cycle < plan.cycles().count()) {
            startCycle();
        }
    }
}
