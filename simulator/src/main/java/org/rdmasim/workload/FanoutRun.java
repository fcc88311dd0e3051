package org.rdmasim.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.rdmasim.engine.RandomStreams;
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
    /** Costs that come from outside the fan-out: the memory model's registration time for one cycle. */
    public record Timing(double registrationSeconds) {
        public static final Timing NONE = new Timing(0);
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
    private final String[] bottleneck;
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
        bottleneck = new String[receiverCount];
        servedBy = new SourceNode[receiverCount];
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
        registration = cycle == 0 || !plan.cycles().registrationCached() ? timing.registrationSeconds() : 0.0;
        pullStart = now + metadata + registration;
        done = 0;
        pool = new SourcePool(plan.assignment(), plan.tree());
        for (FanoutPlan.Member s : plan.sources()) {
            pool.publish(s.host(), s.gpus(), true);
        }
        double[] offsets = plan.arrival().offsets(receiverCount, arrivals);
        boolean wavesWait = plan.arrival() instanceof ArrivalProcess.Waves w && w.afterPrevious();
        int first = wavesWait ? Math.min(receiverCount, ((ArrivalProcess.Waves) plan.arrival()).size()) : receiverCount;
        for (int i = 0; i < receiverCount; i++) {
            indexByHost.putIfAbsent(plan.receivers().get(i).host(), i);
            bytes[i] = 0;
            bottleneck[i] = "";
            lastFinish[i] = 0;
        }
        released = first;
        for (int i = 0; i < first; i++) {
            scheduleArrival(i, pullStart + offsets[i]);
        }
    }

    private void scheduleArrival(int i, double at) {
        double jitter = plan.jitter().startSeconds() > 0 ? startJitter.nextDouble() * plan.jitter().startSeconds() : 0.0;
        run.clock().scheduleAt(at + jitter, new ReceiverArrival(this, i));
    }

    void arrive(int i) {
        arrivedAt[i] = run.clock().now();
        waiting.addLast(i);
        dispatch();
    }

    /** Gives waiting receivers, first come first served, a source with a free slot. */
    private void dispatch() {
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

    private void post(int i, SourceNode s) {
        double now = run.clock().now();
        postedAt[i] = now;
        FanoutPlan.Member r = plan.receivers().get(i);
        int gpus = r.gpus().size();
        pending[i] = gpus;
        for (int k = 0; k < gpus; k++) {
            String sourceGpu = plan.layout() == ModelLayout.SHARDED ? s.gpus.get(k) : s.gpus.get(k % s.gpus.size());
            long b = plan.bytesForGpu(k, gpus);
            bytes[i] += b;
            String id = "c" + cycle + "/" + r.host() + ":" + r.gpus().get(k);
            TransferItem item = new TransferItem(id, new Endpoint(s.host, sourceGpu), new Endpoint(r.host(), r.gpus().get(k)),
                    b, now, plan.operation(), plan.descriptors());
            posted++;
            run.post(item, result -> gpuDone(i, result));
        }
    }

    private void gpuDone(int i, TransferResult result) {
        if (result.finishSeconds() >= lastFinish[i]) {
            lastFinish[i] = result.finishSeconds();
            bottleneck[i] = result.bottleneck();
        }
        if (--pending[i] > 0) {
            return;
        }
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

    /** A host serving the model, with how many pulls it serves now. */
    static final class SourceNode {
        final int order;
        final String host;
        final List<String> gpus;
        final boolean original;
        int active;

        SourceNode(int order, String host, List<String> gpus, boolean original) {
            this.order = order;
            this.host = host;
            this.gpus = gpus;
            this.original = original;
        }
    }

    /**
     * Sources with their load. Least-loaded keeps an ordered set by (active pulls, publication order);
     * round-robin over a tree keeps a queue of sources with a free slot, a source going to the back
     * after each child, so both pick in O(log n) or O(1).
     */
    static final class SourcePool {
        private final SourceAssignment assignment;
        private final int maxChildren;
        private final List<SourceNode> all = new ArrayList<>();
        private final TreeSet<SourceNode> byLoad = new TreeSet<>(
                Comparator.comparingInt((SourceNode n) -> n.active).thenComparingInt(n -> n.order));
        private final ArrayDeque<SourceNode> withSlot = new ArrayDeque<>();
        private int nextInTurn;

        SourcePool(SourceAssignment assignment, TreeFanout tree) {
            this.assignment = assignment;
            this.maxChildren = tree == null ? Integer.MAX_VALUE : tree.maxChildren();
        }

        void publish(String host, List<String> gpus, boolean original) {
            SourceNode n = new SourceNode(all.size(), host, gpus, original);
            all.add(n);
            if (assignment == SourceAssignment.LEAST_LOADED) {
                byLoad.add(n);
            } else {
                withSlot.addLast(n);
            }
        }

        SourceNode pick() {
            if (assignment == SourceAssignment.LEAST_LOADED) {
                SourceNode n = byLoad.first();
                return n.active < maxChildren ? n : null;
            }
            if (maxChildren == Integer.MAX_VALUE) {
                return all.get(nextInTurn++ % all.size());
            }
            return withSlot.peekFirst();
        }

        void acquire(SourceNode n) {
            if (assignment == SourceAssignment.LEAST_LOADED) {
                byLoad.remove(n);
                n.active++;
                byLoad.add(n);
                return;
            }
            n.active++;
            if (maxChildren != Integer.MAX_VALUE) {
                withSlot.pollFirst();
                if (n.active < maxChildren) {
                    withSlot.addLast(n);
                }
            }
        }

        void release(SourceNode n) {
            if (assignment == SourceAssignment.LEAST_LOADED) {
                byLoad.remove(n);
                n.active--;
                byLoad.add(n);
                return;
            }
            boolean wasFull = n.active == maxChildren;
            n.active--;
            if (wasFull) {
                withSlot.addLast(n);
            }
        }
    }
}
