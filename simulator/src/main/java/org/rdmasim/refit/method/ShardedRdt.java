package org.rdmasim.refit.method;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.refit.layout.SliceMap;
import org.rdmasim.refit.layout.TensorSlice;
import org.rdmasim.refit.layout.TrainerLayout;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.Operation;
import org.rdmasim.workload.TransferItem;

/**
 * vLLM's sharded RDT engine (vllm-project/vllm {@code docs/training/weight_transfer/sharded_rdt.md} @027fc251;
 * {@code vllm/distributed/weight_transfer/sharded_rdt_common.py}), which vLLM PR #43375 and SkyRL PR #2090 time:
 * the inference workers pull, over NIXL, only the slice each consumes, one gather group at a time.
 * <ul>
 *   <li><b>Gather groups</b> ({@code base.layerwise_groups}): the names before the first decoder layer, one
 *       group per decoder layer, the names after. A group is the unit of the trainer's gather, of the pull and of
 *       the free; {@code layerwise_split} (default 1) chunks per group, so one pull per group.</li>
 *   <li><b>Who serves a pull</b> ({@code RdtRouter.producer_for}): a group's owners are every producer (gather to
 *       all, a trainer without pipeline stages) or the ranks of the stage holding it; a pull of expert names
 *       stamped with expert coordinate k goes to an owner holding coordinate k, so a group splits into one pull
 *       unit per coordinate the consumer reads (plus one for the names any owner has). Consumer c takes the
 *       block {@code assign_producer_indices(owners, consumers, c)} of the owners and, rotating by group index,
 *       one producer of it.</li>
 *   <li><b>The trainer's gather supply</b>: each stage's owners gather their groups in order and publish each;
 *       publishing waits while {@code gather_lookahead} (2) groups are resident, and a group stays resident until
 *       every consumer has freed it (a per-group barrier), each after its pull of the group completes.</li>
 *   <li><b>A produce call per pull unit</b>: the producer's sidecar replays the consumer's op chains and packs the
 *       slices into one blob (GIL-bound: one call at a time per producer), then the consumer reads the blob (one
 *       contiguous READ). A consumer asks for unit j+1 while unit j is on the wire; its reads stay serialized.</li>
 *   <li><b>The receive ring</b> ({@code num_rdt_buffers} = 2): every pull (each unit is a chunk of its own:
 *       {@code _chunk_module_scatters} in {@code sharded_rdt_engine.py} cuts a group per expert coordinate) waits for
 *       the scatter of the pull that last used its slot, dispatched just before; with a spare slot the wait goes.
 *       ASSUMED: the wait is on the worker's critical path, between one read and the next, as the doc's "every chunk
 *       therefore pays a wait" reads; if it overlapped the previous pull's RDMA instead, the 235B sync would take
 *       about the wire alone (the {@code spareSlot} variant's answer).</li>
 * </ul>
 * The pack and the scatter wait are per-call costs measured in the doc at 235B ({@link RefitCalibration#RDT_PACK},
 * {@link RefitCalibration#RDT_SCATTER}, calibrated). The pulls land in receive arenas registered at init and
 * are scattered by replay, not through {@code load_weights}: no per-tensor load. Not modelled: sync 0's serial
 * pipeline (the steady cycle is what the published walls time) and the pack's growth under contention.
 */
public final class ShardedRdt implements RefitMethod {
    /** {@code gather_lookahead}: resident gathered groups before the trainer's publish blocks (the doc's Tuning table). */
    static final int GATHER_LOOKAHEAD = 2;

    /** One pull: what consumer {@code consumer} reads of group {@code group} from holders of expert coordinate {@code ep} (-1: any owner). */
    public record Unit(int consumer, int group, int ep, long bytes) {
        public Unit {
            if (bytes < 1) {
                throw new IllegalArgumentException("a pull unit moves at least one byte");
            }
        }
    }

    /** A pull unit before its bytes are summed: consumer, group (before renumbering), expert coordinate. */
    private record UnitKey(int consumer, int group, int ep) {
        static final java.util.Comparator<UnitKey> ORDER = java.util.Comparator.comparingInt(UnitKey::consumer)
                .thenComparingInt(UnitKey::group).thenComparingInt(UnitKey::ep);
    }

    private final TrainerLayout trainer;
    private final int consumers;
    private final int[] groupStage;
    private final long[] groupBytes;
    private final List<List<Unit>> units;
    private final boolean spareSlot;

    /**
     * @param trainer    the trainer's layout (its pipeline stages own groups; its expert coordinates split pulls)
     * @param consumers  inference ranks
     * @param groupStage pipeline stage holding each group
     * @param groupBytes bytes of each group's whole tensors: what each owner gathers
     * @param units      every consumer's pull units, in group order
     * @param spareSlot  one receive slot more than pulls in flight (no scatter wait)
     */
    public ShardedRdt(TrainerLayout trainer, int consumers, int[] groupStage, long[] groupBytes, List<Unit> units,
            boolean spareSlot) {
        if (groupStage.length != groupBytes.length) {
            throw new IllegalArgumentException("one stage and one size per group");
        }
        this.trainer = trainer;
        this.consumers = consumers;
        this.groupStage = groupStage.clone();
        this.groupBytes = groupBytes.clone();
        this.spareSlot = spareSlot;
        List<List<Unit>> by = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            by.add(new ArrayList<>());
        }
        for (Unit u : units) {
            if (u.consumer() < 0 || u.consumer() >= consumers || u.group() < 0 || u.group() >= groupStage.length) {
                throw new IllegalArgumentException("pull unit " + u + " is outside " + consumers + " consumers and "
                        + groupStage.length + " groups");
            }
            by.get(u.consumer()).add(u);
        }
        for (List<Unit> l : by) {
            l.sort(java.util.Comparator.comparingInt(Unit::group).thenComparingInt(Unit::ep));
        }
        this.units = by;
    }

    /**
     * The groups and pull units of {@code map}: tensors in inventory order, grouped as {@code layerwise_groups}
     * does (before the first layer, per layer, after); an expert tensor's bytes stamped with the expert coordinate
     * of the trainer rank holding them when the trainer shards experts.
     */
    public static ShardedRdt of(SliceMap map, boolean spareSlot) {
        TrainerLayout t = map.trainer();
        List<Tensor> tensors = map.tensors();
        int maxLayer = -1;
        for (Tensor x : tensors) {
            maxLayer = Math.max(maxLayer, x.layer());
        }
        int groups = maxLayer + 3;
        int[] stage = new int[groups];
        long[] bytes = new long[groups];
        boolean[] used = new boolean[groups];
        Map<UnitKey, Long> unitBytes = new TreeMap<>(UnitKey.ORDER);
        boolean seenLayer = false;
        int layers = maxLayer + 1;
        for (Tensor x : tensors) {
            int g;
            if (x.layer() >= 0) {
                seenLayer = true;
                g = x.layer() + 1;
            } else {
                g = seenLayer ? groups - 1 : 0;
            }
            used[g] = true;
            bytes[g] = Math.addExact(bytes[g], x.bytes());
            for (TensorSlice s : map.slices(x)) {
                int ep = x.expert() >= 0 && t.ep() > 1 ? epCoordinate(t, s.trainerRank()) : -1;
                unitBytes.merge(new UnitKey(s.inferenceRank(), g, ep), s.bytes(), Long::sum);
            }
        }
        for (int g = 0; g < groups; g++) {
            int layer = g == 0 ? 0 : g == groups - 1 ? Math.max(0, layers - 1) : g - 1;
            stage[g] = layers == 0 ? 0 : t.stageOf(Math.min(layer, layers - 1), layers);
        }
        // drop the empty pre or post group (a model with no names there) by renumbering the rest
        int[] index = new int[groups];
        List<Integer> kept = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            index[g] = used[g] ? kept.size() : -1;
            if (used[g]) {
                kept.add(g);
            }
        }
        int[] keptStage = new int[kept.size()];
        long[] keptBytes = new long[kept.size()];
        for (int k = 0; k < kept.size(); k++) {
            keptStage[k] = stage[kept.get(k)];
            keptBytes[k] = bytes[kept.get(k)];
        }
        List<Unit> units = new ArrayList<>();
        for (Map.Entry<UnitKey, Long> e : unitBytes.entrySet()) {
            UnitKey k = e.getKey();
            if (e.getValue() > 0) {
                units.add(new Unit(k.consumer(), index[k.group()], k.ep(), e.getValue()));
            }
        }
        return new ShardedRdt(t, map.inference().worldSize(), keptStage, keptBytes, units, spareSlot);
    }

    /** The expert-parallel coordinate of trainer rank {@code rank} (Megatron's expert rank order: etp fastest, then ep). */
    static int epCoordinate(TrainerLayout t, int rank) {
        return (rank / t.etp()) % t.ep();
    }

    /** {@code assign_producer_indices}: the producers (indices into {@code producers}) consumer {@code consumer} binds. */
    static List<Integer> block(int producers, int consumers, int consumer) {
        int p = Math.max(1, producers);
        int c = Math.max(1, consumers);
        List<Integer> out = new ArrayList<>();
        if (p >= c) {
            for (int i = (int) ((long) consumer * p / c); i < (int) ((long) (consumer + 1) * p / c); i++) {
                out.add(i);
            }
        } else {
            out.add((int) ((long) consumer * p / c));
        }
        return out;
    }

    /** Producer ranks that publish {@code group}, restricted to expert coordinate {@code ep} when it is >= 0. */
    List<Integer> owners(int group, int ep) {
        int perStage = trainer.worldSize() / trainer.pp();
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < trainer.worldSize(); r++) {
            boolean owns = trainer.pp() == 1 || r / perStage == groupStage[group];
            if (owns && (ep < 0 || epCoordinate(trainer, r) == ep)) {
                out.add(r);
            }
        }
        return out;
    }

    /** {@code RdtRouter.producer_for}: the one producer consumer {@code consumer} pulls ({@code group}, {@code ep}) from. */
    int producerFor(int consumer, int group, int ep) {
        List<Integer> own = owners(group, ep);
        if (own.isEmpty()) {
            throw new IllegalArgumentException("pull unit (group " + group + ", expert coordinate " + ep + ") has no owner");
        }
        List<Integer> b = block(own.size(), consumers, consumer);
        return own.get(b.get(group % b.size()));
    }

    int groups() {
        return groupStage.length;
    }

    List<Unit> units(int consumer) {
        return units.get(consumer);
    }

    @Override
    public String name() {
        return "sharded-rdt";
    }

    @Override
    public double registrationSeconds(WireContext ctx) {
        return RouteRegistration.slowestRank(ctx);
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        new Cycle(ctx, done).start();
    }

    /** One cycle's state: the stages' gather loops, the published groups, the consumers' pulls. */
    private final class Cycle {
        private final WireContext ctx;
        private final Countdown finished;
        private final boolean[] published = new boolean[groups()];
        private final int[] freed = new int[groups()];
        private final int[] resident = new int[trainer.pp()];
        private final Integer[] waitingToPublish = new Integer[trainer.pp()];
        private final List<List<Runnable>> onPublish = new ArrayList<>();
        private final double[] sidecarFreeAt = new double[trainer.worldSize()];
        private final double pack;
        private final double scatter;

        Cycle(WireContext ctx, Runnable done) {
            this.ctx = ctx;
            this.finished = new Countdown(consumers, done);
            for (int g = 0; g < groups(); g++) {
                onPublish.add(new ArrayList<>());
            }
            pack = ctx.plan().calibration().value(RefitCalibration.RDT_PACK);
            scatter = spareSlot ? 0 : ctx.plan().calibration().value(RefitCalibration.RDT_SCATTER);
        }

        void start() {
            // a consumer with nothing to pull of a group frees it as its plan starts
            for (int c = 0; c < consumers; c++) {
                boolean[] pulls = new boolean[groups()];
                for (Unit u : units(c)) {
                    pulls[u.group()] = true;
                }
                for (int g = 0; g < groups(); g++) {
                    if (!pulls[g]) {
                        freed[g]++;
                    }
                }
            }
            for (int s = 0; s < trainer.pp(); s++) {
                gather(s, firstGroupOf(s, 0));
            }
            for (int c = 0; c < consumers; c++) {
                new Consumer(c).next();
            }
        }

        private int firstGroupOf(int stage, int from) {
            for (int g = from; g < groups(); g++) {
                if (groupStage[g] == stage) {
                    return g;
                }
            }
            return -1;
        }

        /** The stage's owners gather group {@code g} together (a collective), then publish it. */
        private void gather(int stage, int g) {
            if (g < 0) {
                return;
            }
            List<Integer> own = owners(g, -1);
            Countdown all = new Countdown(own.size(), () -> publish(stage, g));
            for (int r : own) {
                ctx.prepare(ctx.trainer(r), groupBytes[g], all::arrive);
            }
        }

        private void publish(int stage, int g) {
            if (resident[stage] >= GATHER_LOOKAHEAD) {
                waitingToPublish[stage] = g;
                return;
            }
            resident[stage]++;
            published[g] = true;
            if (freed[g] == consumers) {
                // nobody pulls it: released as soon as it is published
                release(g);
            }
            List<Runnable> waiting = new ArrayList<>(onPublish.get(g));
            onPublish.get(g).clear();
            waiting.forEach(Runnable::run);
            gather(stage, firstGroupOf(stage, g + 1));
        }

        private void free(int g) {
            freed[g]++;
            if (freed[g] == consumers && published[g]) {
                release(g);
            }
        }

        private void release(int g) {
            int stage = groupStage[g];
            resident[stage]--;
            Integer next = waitingToPublish[stage];
            if (next != null) {
                waitingToPublish[stage] = null;
                publish(stage, next);
            }
        }

        /** Runs {@code then} once group {@code g} is published. */
        private void whenPublished(int g, Runnable then) {
            if (published[g]) {
                then.run();
            } else {
                onPublish.get(g).add(then);
            }
        }

        /** A produce call on producer {@code p}'s sidecar, one call at a time. */
        private void produce(int p, Runnable then) {
            double now = ctx.clock().now();
            double start = Math.max(now, sidecarFreeAt[p]);
            sidecarFreeAt[p] = start + pack;
            Endpoint e = ctx.trainer(p);
            ctx.clock().schedule(start - now, new SidecarFree(() -> ctx.gpuCall(RefitStage.DISPATCH, e, pack,
                    "rdt pack", "the sidecar's produce call per pull, one at a time",
                    List.of(RefitCalibration.RDT_PACK), then)));
        }

        /** The producer's sidecar free for the next produce call (an event of its own kind in the bench's counts). */
        private record SidecarFree(Runnable body) implements Runnable {
            @Override
            public void run() {
                body.run();
            }
        }

        /** One consumer's pulls, in group order: produce one ahead, read one at a time, scatter wait per group. */
        private final class Consumer {
            private final int c;
            private final List<Unit> mine;
            private final ArrayDeque<Integer> produced = new ArrayDeque<>();
            private int requested;
            private int read;
            private boolean reading;

            /** The producer of each of this consumer's units (RdtRouter's rule, worked out once). */
            private final int[] producer;

            Consumer(int c) {
                this.c = c;
                this.mine = units(c);
                this.producer = new int[mine.size()];
                for (int j = 0; j < mine.size(); j++) {
                    producer[j] = producerFor(c, mine.get(j).group(), mine.get(j).ep());
                }
            }

            void next() {
                if (mine.isEmpty()) {
                    finished.arrive();
                    return;
                }
                request(0);
            }

            /** Asks for unit {@code j}'s produce call (once, in order) once its group is published. */
            private void request(int j) {
                if (j >= mine.size() || j != requested) {
                    return;
                }
                requested++;
                Unit u = mine.get(j);
                whenPublished(u.group(), () -> produce(producer[j], () -> {
                    produced.add(j);
                    tryRead();
                }));
            }

            private void tryRead() {
                if (reading || produced.isEmpty() || produced.peekFirst() != read) {
                    return;
                }
                produced.pollFirst();
                reading = true;
                int j = read;
                Unit u = mine.get(j);
                int p = producer[j];
                // the next unit is asked for while this one is on the wire
                request(j + 1);
                TransferItem item = new TransferItem("c" + ctx.cycle() + "/rdt/g" + u.group()
                        + (u.ep() >= 0 ? "e" + u.ep() : "") + "/t" + p + "-i" + c, ctx.trainer(p), ctx.inference(c),
                        u.bytes(), 0, Operation.READ, 1);
                ctx.post(item, c, x -> {
                    // each pull unit is a chunk of its own (vLLM's _chunk_module_scatters cuts a group per expert
                    // coordinate), and every chunk waits for its slot's scatter; the group is freed after its last
                    boolean lastOfGroup = j + 1 == mine.size() || mine.get(j + 1).group() != u.group();
                    Runnable after = () -> {
                        reading = false;
                        read++;
                        if (read == mine.size()) {
                            finished.arrive();
                            return;
                        }
                        tryRead();
                    };
                    if (lastOfGroup) {
                        free(u.group());
                    }
                    if (scatter > 0) {
                        ctx.gpuCall(RefitStage.INSTALL, ctx.inference(c), scatter, "rdt scatter wait",
                                "the receive slot's scatter, waited for before the next pull",
                                List.of(RefitCalibration.RDT_SCATTER), after);
                    } else {
                        after.run();
                    }
                });
            }
        }
    }
}
