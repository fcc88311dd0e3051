package org.rdmasim.refit.method;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LaneSplit;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.mooncake.MooncakeTopology;
import org.rdmasim.workload.TransferItem;

/**
 * verl's checkpoint engine with its NIXL backend ("nixl | NIXL | all_gather+ring p2p" in the Supported
 * Backends table of verl-project/verl {@code verl/checkpoint_engine/README.md} @00548f90), as its code runs
 * it. Line numbers below are {@code verl/checkpoint_engine/nixl_checkpoint_engine.py} at verl-project/verl
 * 980ad6e428f5e0e0aba6ca81f6cae0161228aac6 (the stored version; the same send and receive loops as the
 * engine's first version, 6f33c553b, whose benchmark the README publishes).
 *
 * <ul>
 *   <li>Who sends to whom: a chain. Trainer rank 0 is ring rank 0 and the only sender; the other trainer
 *       ranks only take part in the all-gather and drop the weights ({@code build_topology} L283-299, {@code
 *       send_weights} L371-377). Rollout rank i is ring rank i + 1 and reads from ring rank i; the last has no
 *       next (L294-297). The "ring" does not close: nothing goes back to the trainer. The chain follows the
 *       inference ranks in rank order, host by host as ranks are placed.</li>
 *   <li>Buckets: tensors are packed into buckets of {@code bucket_size} (L389-421); every rank holds two
 *       buffers of one bucket each, a send and a receive buffer, both allocated and registered with NIXL in
 *       {@code prepare()} (L267-278), the only registration the method makes.</li>
 *   <li>Each hop is a NIXL READ by the receiver of the whole bucket from its predecessor's buffer
 *       ({@code initialize_xfer("READ", ...)}, L208), after a ZMQ message announcing it (L161-162).</li>
 *   <li>Store and forward, double-buffered: a rank offers bucket k to its next only once its own READ of
 *       bucket k has completed (L451, L461-467), and in the same step reads bucket k + 1 into its other
 *       buffer (L470-472); the step ends when both its next has read bucket k and its own read of k + 1 has
 *       landed (L482-484), then the buffers swap (L490-492). No hop forwards part of a bucket.</li>
 *   <li>The sender fills bucket k + 1 while bucket k is being read; it offers bucket k + 1 once that fill is
 *       done and its next has finished reading bucket k (L390-402).</li>
 *   <li>A receiver hands bucket k's tensors to the engine during step k (L474-479), so the install of bucket
 *       k overlaps the reads and the step waits for it (the copies are synchronised at L489).</li>
 * </ul>
 * On equal hops of time T each, B buckets reach the last of N receivers after (B + N - 1) T: the pipeline
 * of a store-and-forward chain.
 *
 * <p>Hops between hosts are NIXL READs through the transport backend's lanes (UCX's lane selection for
 * NIXL's UCX backend: the rail UCX picks for the receiving and the sending GPU). Hops between two GPUs of
 * one host go over NVLink: UCX's {@code cuda_ipc} transport carries GPU memory between processes of one
 * node; it is in UCX's default {@code UCX_TLS=all} and in the {@code "UCX_TLS": "rc,ud,cuda"} the benchmark
 * sets ({@code tests/checkpoint_engine/test_nixl_checkpoint_engine.py} L44 @6f33c553b). ASSUMED: rdmasim
 * does not read UCX_TLS, so a list without {@code cuda_ipc} still gets NVLink here.
 *
 * <p>The sender's fill is the gather and conversion every method's sender does ({@link WireContext#prepare}),
 * beside its walk over the bucket's tensors when the trainer is an FSDP one ({@link TensorWalk}),
 * and each bucket pays the per-bucket fixed cost ({@link RefitCalibration#BUCKET}) at the sender before it is
 * offered, as a broadcast bucket does at its root; the hops pay none.
 *
 * <p>The same chain with verl's Mooncake backend ({@code mooncake-ring}, "mooncake | Mooncake Transfer Engine |
 * all_gather+ring p2p" in the same table) differs only in what carries a hop ({@link Hops#MOONCAKE}); its loops
 * are checked against the NIXL engine's there.
 *
 * @param buckets the bucket size; always two buffers (the engine allocates both, L268-269)
 * @param hops    what carries each hop: NIXL over UCX, or Mooncake's Transfer Engine
 */
public record NixlRing(Buckets buckets, Hops hops) implements RefitMethod {
    /**
     * What carries a hop of the chain.
     *
     * <p>{@link #MOONCAKE}: verl's Mooncake checkpoint engine (verl-project/verl
     * {@code verl/checkpoint_engine/mooncake_checkpoint_engine.py} at 1dda039b9c6311889a9c9a26040677e1254814f9;
     * the data path is that of its first version, 01dc76da7, PR #5176, whose benchmark the README publishes:
     * later commits moved the completion flag out of the data buffer into its own 8-byte one and synchronise the
     * device before writing it). Its loops are the NIXL engine's:
     * <ul>
     *   <li>the same chain: trainer rank 0 is rank 0, rollout rank i is rank i + 1, the other trainer ranks
     *       only run the generator ({@code build_topology} L104-116, {@code send_weights} L164-168);</li>
     *   <li>two buffers of one bucket a rank, the halves of one {@code 2 * bucket_size} GPU tensor registered
     *       with the Transfer Engine when the engine is built (L83-92), before any update;</li>
     *   <li>the sender packs bucket k, offers it to rank 1 (L183-194), and packs bucket k + 1 into the other half
     *       once rank 1 has signalled that it is done with bucket k - 1 (L196-203): the NIXL sender's order;</li>
     *   <li>a receiver takes the offer of bucket k, waits until its next has signalled bucket k - 2 (the buffer
     *       it is about to overwrite, L263-265), reads the whole bucket with one synchronous
     *       {@code transfer_sync_read} from its predecessor's buffer (L270-276), offers it to its next
     *       (L280-283), yields its tensors (L285-289) and writes a 4-byte flag into the predecessor's
     *       memory (L293-308). It reads bucket k + 1 only after that, where the NIXL receiver overlaps the
     *       next read with the hand-over; the chain's constraints are otherwise the same (read k + 1 after k,
     *       and once the next holds k - 1). The model keeps the NIXL overlap: verl's benchmark receivers only
     *       clone each tensor ({@code tests/checkpoint_engine/test_utils.py} L70-71 @01dc76da7), one HBM copy of
     *       the bucket, ~1 ms for 2 GiB on an H100, which the Mooncake loop would add to each step.</li>
     * </ul>
     * What differs is the hop. The Python binding's engine auto-discovers its transport and installs Mooncake's
     * RDMA transport when the host has HCAs (kvcache-ai/Mooncake 3b5a594133958449a1feaf1c9e0fc1b553e34a28
     * {@code mooncake-integration/transfer_engine/transfer_engine_py.cpp} L240-241, {@code TransferEngine(true,
     * ...)}; {@code mooncake-transfer-engine/src/transfer_engine_impl.cpp} L407-430 with
     * {@code autoDiscoverTransport}, {@code include/transfer_engine_impl.h} L472-480; the intra-node NVLink
     * transport only with {@code MC_INTRANODE_NVLINK} in a build with it, {@code transfer_engine_impl.cpp}
     * L329-369). So every hop is an RDMA READ
     * through the NICs, between two GPUs of one host as between hosts: there is no cuda_ipc path. One
     * {@code transfer_sync_read} is one request ({@code transferSync} L479-491), which takes one local HCA among
     * those the receiver's GPU prefers ({@code rdma_transport.cpp} L890-895) and spreads its 64 KiB slices over
     * the HCAs the sender's GPU prefers ({@link MooncakeTopology}), each HCA pair over the endpoint's
     * {@link CheckpointUpdate#MOONCAKE_QPS_PER_ENDPOINT} QPs. ASSUMED: the local HCA is the first preferred one
     * (a random draw among several; a DGX H100's GPU prefers exactly one).
     */
    public enum Hops {
        /** NIXL READs over UCX's lanes between hosts, NVLink (UCX's cuda_ipc) inside one. */
        NIXL,
        /** Mooncake Transfer Engine RDMA READs between every pair, inside a host too. */
        MOONCAKE
    }

    public NixlRing {
        if (buckets == null || hops == null) {
            throw new IllegalArgumentException("a ring needs its bucket size and what carries its hops");
        }
        if (!buckets.doubleBuffered()) {
            throw new IllegalArgumentException(hops == Hops.NIXL
                    ? "verl's NIXL engine always holds two bucket buffers (nixl_checkpoint_engine.py prepare(), L268-269)"
                    : "verl's Mooncake engine always holds two bucket buffers (mooncake_checkpoint_engine.py L83)");
        }
    }

    public NixlRing(Buckets buckets) {
        this(buckets, Hops.NIXL);
    }

    public static NixlRing of(long bucketBytes) {
        return new NixlRing(new Buckets(bucketBytes, true));
    }

    /** verl's Mooncake backend: the same chain, every hop a Transfer Engine READ ({@link Hops#MOONCAKE}). */
    public static NixlRing mooncake(long bucketBytes) {
        return new NixlRing(new Buckets(bucketBytes, true), Hops.MOONCAKE);
    }

    @Override
    public String name() {
        return hops == Hops.NIXL ? "nixl-ring" : "mooncake-ring";
    }

    /** Every rank registers its send and receive buffers, one bucket each (L275-276). */
    @Override
    public double registrationSeconds(WireContext ctx) {
        return RouteRegistration.bucketBuffers(ctx, buckets);
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        long payload = ctx.plan().broadcastBytes();
        if (payload < 1) {
            throw new IllegalArgumentException("a NIXL ring needs the bytes every inference rank receives "
                    + "(the plan's broadcastBytes)");
        }
        new Chain(ctx, payload, done).start();
    }

    /**
     * The chain of one cycle: position 0 is trainer rank 0, position p (1..N) the (p-1)-th inference rank in
     * rank order. Each receiver runs the step loop of {@code receive_weights}; the sender that of
     * {@code send_weights}.
     */
    private final class Chain {
        private final WireContext ctx;
        private final long payload;
        private final int count;
        private final List<Integer> ranks;
        private final Endpoint sender;
        private final double perBucket;
        /** The sender's walk over the tensors it packs (the loop of L387-421 over an FSDP trainer). */
        private final TensorWalk walk;
        private final Countdown finished;
        /** {@code read[p][k]}: position p holds bucket k (p = 0: the sender has offered it). */
        private final boolean[][] read;
        /** {@code installed[p][k]}: position p has handed bucket k to its engine. */
        private final boolean[][] installed;
        /** The step each receiver is in (-1 before its first bucket arrives), and whether it has ended. */
        private final int[] step;
        private final boolean[] stepEnded;
        /** The next bucket each receiver reads, and whether a read is in flight. */
        private final int[] nextRead;
        private final boolean[] reading;
        private final boolean[] filled;
        private int senderNext;
        private boolean dispatching;

        Chain(WireContext ctx, long payload, Runnable done) {
            this.ctx = ctx;
            this.payload = payload;
            this.count = buckets.count(payload);
            this.ranks = ctx.inferenceRanks();
            // trainer rank 0 alone sends (L286: ring rank 0; L371-377: the others consume the generator)
            this.sender = ctx.trainer(ctx.trainerRanks().get(0));
            this.perBucket = ctx.plan().calibration().value(RefitCalibration.BUCKET);
            this.walk = new TensorWalk(ctx);
            this.finished = new Countdown(ranks.size(), done);
            int positions = ranks.size() + 1;
            read = new boolean[positions][count];
            installed = new boolean[positions][count];
            step = new int[positions];
            stepEnded = new boolean[positions];
            nextRead = new int[positions];
            reading = new boolean[positions];
            filled = new boolean[count];
            Arrays.fill(step, -1);
        }

        void start() {
            fill(0);
        }

        private Endpoint at(int p) {
            return p == 0 ? sender : ctx.inference(ranks.get(p - 1));
        }

        private long size(int k) {
            return buckets.sizeOf(k, payload);
        }

        private String label(int p, int k) {
            return "c" + ctx.cycle() + "/ring/b" + k + "/p" + (p - 1) + "-p" + p;
        }

        // ---- the sender (send_weights)

        /** Packs bucket k into the free buffer: the gather and conversion of its tensors (L387-421). */
        private void fill(int k) {
            long from = (long) k * buckets.bucketBytes();
            long tensors = ctx.plan().broadcastTensorsIn(from, from + size(k));
            walk.pack(k, sender, tensors, packed -> ctx.prepare(sender, size(k), packed), () -> {
                filled[k] = true;
                offerFromSender();
            });
        }

        /**
         * Offers the next bucket once it is packed and the previous one has been read by ring rank 1
         * ({@code readable_op.wait_for_complete()}, L393-394), after the bucket's fixed cost; then packs the
         * one after into the buffer just freed.
         */
        private void offerFromSender() {
            int k = senderNext;
            if (dispatching || k >= count || !filled[k] || (k > 0 && !read[1][k - 1])) {
                return;
            }
            dispatching = true;
            ctx.gpuWork(RefitStage.DISPATCH, sender, perBucket, () -> {
                dispatching = false;
                read[0][k] = true;
                senderNext++;
                if (k + 1 < count) {
                    fill(k + 1);
                }
                startRead(1);
            });
        }

        // ---- a receiver (receive_weights)

        /**
         * Starts position p's next READ when its predecessor offers that bucket and p's loop has reached it:
         * bucket 0 at once (L448-451), bucket k + 1 in step k (L470-472).
         */
        private void startRead(int p) {
            int k = nextRead[p];
            if (reading[p] || k >= count || !offered(p - 1, k) || (k > 0 && step[p] < k - 1)) {
                return;
            }
            reading[p] = true;
            nextRead[p]++;
            int rank = ranks.get(p - 1);
            Endpoint from = at(p - 1);
            Endpoint to = at(p);
            Runnable landed = () -> {
                reading[p] = false;
                read[p][k] = true;
                if (k == 0) {
                    beginStep(p, 0);
                } else {
                    endStep(p, k - 1);
                }
                // the predecessor's step k waits for this read (L482-483)
                if (p - 1 == 0) {
                    offerFromSender();
                } else {
                    endStep(p - 1, k);
                }
            };
            if (hops == Hops.MOONCAKE) {
                TransferItem item = new TransferItem(label(p, k), from, to, size(k), 0, Operation.READ, 1);
                ctx.post(item, rank, mooncakeQps(from, to), r -> landed.run());
            } else if (from.host().equals(to.host())) {
                ctx.nvlinkRead(from, to, rank, size(k), label(p, k), landed);
            } else {
                // one descriptor: the whole registered buffer (get_xfer_descs(send_buf), L277-278)
                TransferItem item = new TransferItem(label(p, k), from, to, size(k), 0, Operation.READ, 1);
                ctx.post(item, rank, r -> landed.run());
            }
        }

        /**
         * The lanes of one Mooncake READ by {@code to} from {@code from}: the receiver's first preferred HCA, each
         * HCA the sender's GPU prefers, the endpoint's QPs on each pair, equal shares.
         */
        private List<LaneSplit.Candidate> mooncakeQps(Endpoint from, Endpoint to) {
            Host sink = ctx.host(to.host());
            TopologyNode local = MooncakeTopology.preferred(sink, ctx.gpu(to), List.of()).get(0);
            List<LaneSplit.Candidate> out = new ArrayList<>();
            for (TopologyNode peer : MooncakeTopology.preferred(ctx.host(from.host()), ctx.gpu(from), List.of())) {
                for (int q = 0; q < CheckpointUpdate.MOONCAKE_QPS_PER_ENDPOINT; q++) {
                    out.add(new LaneSplit.Candidate(peer.name(), local.name(), 1.0));
                }
            }
            return out;
        }

        /** Position p has offered bucket k: the sender once dispatched, a receiver once in step k (L461-467). */
        private boolean offered(int p, int k) {
            return p == 0 ? read[0][k] : step[p] >= k;
        }

        /** Step k: offer bucket k to the next, read bucket k + 1, hand bucket k's tensors to the engine. */
        private void beginStep(int p, int k) {
            step[p] = k;
            stepEnded[p] = false;
            if (p < ranks.size()) {
                startRead(p + 1);
            }
            startRead(p);
            int rank = ranks.get(p - 1);
            long share = BroadcastOrder.share(ctx, rank, size(k), payload);
            long from = (long) k * buckets.bucketBytes();
            long tensors = ctx.plan().broadcastTensorsIn(from, from + size(k));
            BroadcastOrder.loadWeights(ctx, at(p), tensors, () -> ctx.gpuWork(RefitStage.INSTALL, at(p),
                    ctx.copySeconds(at(p), share), () -> {
                        installed[p][k] = true;
                        endStep(p, k);
                    }));
        }

        /**
         * Ends step k of position p once the engine has bucket k, p holds bucket k + 1 (unless k is the last)
         * and the next has read bucket k (unless p is the last): L482-492; the last step only waits for the
         * next's read (L511-513).
         */
        private void endStep(int p, int k) {
            if (step[p] != k || stepEnded[p] || !installed[p][k]
                    || (k + 1 < count && !read[p][k + 1])
                    || (p < ranks.size() && !read[p + 1][k])) {
                return;
            }
            stepEnded[p] = true;
            if (k + 1 < count) {
                beginStep(p, k + 1);
            } else {
                finished.arrive();
            }
        }
    }
}
