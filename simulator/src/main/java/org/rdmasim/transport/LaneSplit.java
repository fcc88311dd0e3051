package org.rdmasim.transport;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a transfer's bytes over lanes as UCX's multi-lane protocols do (openucx/ucx
 * {@code src/ucp/proto/proto_multi.inl} L45-58, v1.20.0 to v1.22.0): each lane's weight is
 * {@code ceil(bw x 65536 / sum_bw)} capped at 65536, and lanes are served once each in lane order.
 * How small a message may be before a lane is skipped is {@link MinChunk}'s business: it differs
 * between RMA and rendezvous and between UCX releases.
 *
 * <p>Not modelled: a lane's largest fragment ({@code max_frag}, the transport's zero-copy limit,
 * about 1 GiB on mlx5). UCX serves lanes round-robin again once a message exceeds one round of them;
 * since each lane's fragment is proportional to its bandwidth, the totals per lane stay in
 * proportion, which is what one share per lane gives here.
 */
public final class LaneSplit {
    /** 16.16 fixed point of lane weights ({@code UCP_PROTO_MULTI_WEIGHT_SHIFT}, proto_multi.h L17-18). */
    private static final long WEIGHT_MAX = 65536;

    private LaneSplit() {
    }

    /** One lane of a plan before bytes are assigned. */
    public record Candidate(String sourceNic, String sinkNic, double weight, int path) {
        public Candidate(String sourceNic, String sinkNic, double weight) {
            this(sourceNic, sinkNic, weight, 0);
        }
    }

    /**
     * UCX's guard against cutting a message into pieces too small to be worth a lane.
     *
     * <p>Each lane's minimum chunk is the configured size scaled by the lane's bandwidth over the
     * slowest chosen lane's, never below {@code floor} ({@code ucp_proto_multi_init},
     * {@code src/ucp/proto/proto_multi.c} v1.20.0 L402-410 = v1.22.0 L481-489, summed in lane order at L458 / L537:
     * {@code min(max_frag, max(UCP_MIN_BCOPY, bw x min_chunk / min_bw))}, the double truncated when it is
     * stored in a {@code size_t}). {@code max_frag} is not modelled, see the class comment.
     *
     * @param bytes the configured minimum ({@code UCX_MIN_RMA_CHUNK_SIZE} or {@code UCX_MIN_RNDV_CHUNK_SIZE});
     *              {@link Long#MAX_VALUE} for {@code inf}
     * @param floor the least any lane's minimum may be: {@code UCP_MIN_BCOPY} (64 B,
     *              {@code src/ucp/core/ucp_types.h} L24) from v1.20.0, none before
     * @param split how the minimum decides each lane's length
     */
    public record MinChunk(long bytes, long floor, Split split) {
        /** {@code UCP_MIN_BCOPY}, {@code src/ucp/core/ucp_types.h} L24 (v1.13.0 to v1.22.0). */
        public static final long UCP_MIN_BCOPY = 64;

        /**
         * RMA before v1.20.0 has no minimum chunk: only a message under {@code UCP_MIN_BCOPY} stays whole
         * ({@code proto_multi.inl} v1.19.0 L78-82; {@code UCX_MIN_RMA_CHUNK_SIZE} appears in v1.20.0).
         */
        public static final MinChunk RMA_UNTIL_1_19 = new MinChunk(UCP_MIN_BCOPY, 0, Split.WHOLE_BELOW);

        public MinChunk {
            if (bytes < 0 || floor < 0) {
                throw new IllegalArgumentException("a minimum chunk is not negative: " + bytes + ", " + floor);
            }
        }

        /** How a message is cut once the per-lane minimum chunks are known. */
        public enum Split {
            /**
             * RMA from v1.20.0 ({@code ucp_proto_multi_max_payload}, {@code proto_multi.inl} v1.20.0 L62-91,
             * unchanged in v1.22.0): when the bytes still to send are fewer than the running sum of the
             * minima up to and including this lane, the lane takes all of them; otherwise it takes its
             * weighted share of the whole message.
             */
            RMA_REMAINDER,
            /**
             * Rendezvous get/put zero-copy ({@code ucp_proto_rndv_bulk_max_payload},
             * {@code src/ucp/rndv/proto_rndv.inl} v1.20.0 L241-291, v1.22.0 L282-332; since v1.17.0): each lane
             * ends at {@code max(ceil(running weight x length), running sum of minima)}, so every lane
             * used carries at least its minimum and the last lanes may carry nothing.
             */
            RENDEZVOUS_END,
            /** A message shorter than {@code bytes} goes whole on the first lane; otherwise by weight. */
            WHOLE_BELOW,
            /**
             * Not UCX: each lane gets exactly {@code floor(bytes x weight / total)} and the last lane the
             * remainder, as NIXL's libfabric backend cuts a striped descriptor (equal chunks, remainder on
             * the last rail) or deals whole descriptors (weights are descriptor counts).
             */
            PROPORTIONAL
        }

        /** {@link Split#PROPORTIONAL}: exact shares, no minimum. */
        public static final MinChunk PROPORTIONAL_SHARES = new MinChunk(0, 0, Split.PROPORTIONAL);

        /** The RMA rule of UCX >= 1.20 with {@code UCX_MIN_RMA_CHUNK_SIZE} = {@code bytes}. */
        public static MinChunk rma(long bytes) {
            return new MinChunk(bytes, UCP_MIN_BCOPY, Split.RMA_REMAINDER);
        }

        /** The rendezvous rule of UCX >= 1.20 with {@code UCX_MIN_RNDV_CHUNK_SIZE} = {@code bytes}. */
        public static MinChunk rendezvous(long bytes) {
            return new MinChunk(bytes, UCP_MIN_BCOPY, Split.RENDEZVOUS_END);
        }

        /**
         * Each lane's minimum chunk, in lane order. The lane weights stand for UCX's bandwidth estimates;
         * only their ratios matter.
         */
        public List<Long> perLane(List<Candidate> lanes) {
            long[] minima = minima(lanes);
            List<Long> out = new ArrayList<>(minima.length);
            for (long m : minima) {
                out.add(m);
            }
            return out;
        }

        /**
         * {@link #perLane} as an array: {@link LaneSplit#split} runs once per transfer, and a list of
         * boxed minima and the loops' iterators were garbage of every one (the launcher's C1 compiler
         * removes neither).
         */
        long[] minima(List<Candidate> lanes) {
            double slowest = Double.POSITIVE_INFINITY;
            for (int i = 0, n = lanes.size(); i < n; i++) {
                slowest = Math.min(slowest, lanes.get(i).weight());
            }
            long[] out = new long[lanes.size()];
            for (int i = 0; i < out.length; i++) {
                double weight = lanes.get(i).weight();
                double scaled = bytes == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : weight * bytes / slowest;
                // (long) of a double truncates and saturates at Long.MAX_VALUE, as UCX's size_t store truncates
                out[i] = Math.max(floor, (long) scaled);
            }
            return out;
        }
    }

    /**
     * The lanes that carry bytes, in lane order, with their shares; the shares sum to {@code bytes}.
     * Lanes left with nothing are omitted (a zero-byte transfer keeps the first lane).
     */
    public static List<Lane> split(long bytes, List<Candidate> candidates, MinChunk minChunk) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a transfer needs at least one lane");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("a transfer's size is not negative: " + bytes);
        }
        double total = 0;
        for (int i = 0, n = candidates.size(); i < n; i++) {
            Candidate c = candidates.get(i);
            if (!(c.weight() > 0) || Double.isInfinite(c.weight())) {
                throw new IllegalArgumentException("lane weight must be positive and finite: " + c);
            }
            total += c.weight();
        }
        long[] minima = minChunk.minima(candidates);
        long[] shares = new long[candidates.size()];
        long sent = 0;
        long runningMinimum = 0;
        long runningWeight = 0;
        for (int i = 0; i < candidates.size() && sent < bytes; i++) {
            // ucs_proto_multi_calc_weight (proto_multi.inl L45-52): rounded up, at most 65536
            long weight = Math.min(WEIGHT_MAX, (long) Math.ceil(candidates.get(i).weight() * WEIGHT_MAX / total));
            runningWeight += weight;
            runningMinimum = saturatingAdd(runningMinimum, minima[i]);
            long left = bytes - sent;
            long share = switch (minChunk.split()) {
                case RMA_REMAINDER -> left < runningMinimum ? left : scaledLength(weight, bytes);
                case RENDEZVOUS_END -> Math.max(scaledLength(runningWeight, bytes), runningMinimum) - sent;
                case WHOLE_BELOW -> bytes < minChunk.bytes() ? left : scaledLength(weight, bytes);
                case PROPORTIONAL -> i == candidates.size() - 1 ? left
                        : new java.math.BigDecimal(candidates.get(i).weight()).multiply(java.math.BigDecimal.valueOf(bytes))
                                .divide(new java.math.BigDecimal(total), 0, java.math.RoundingMode.FLOOR).longValueExact();
            };
            share = Math.min(left, share);
            shares[i] = share;
            sent += share;
        }
        if (sent < bytes) {
            // the rounded-up weights sum to at least 65536, so one round always covers the message
            throw new IllegalStateException("lane shares cover " + sent + " of " + bytes + " bytes");
        }
        List<Lane> out = new ArrayList<>(shares.length);
        for (int i = 0; i < shares.length; i++) {
            Candidate c = candidates.get(i);
            if (shares[i] > 0 || (bytes == 0 && i == 0)) {
                out.add(new Lane(c.sourceNic(), c.sinkNic(), shares[i], c.path()));
            }
        }
        return out;
    }

    /** {@code ucp_proto_multi_scaled_length} (proto_multi.inl L54-58): weight x length / 65536, rounded up. */
    private static long scaledLength(long weight, long length) {
        if (weight == 0 || length <= (Long.MAX_VALUE - WEIGHT_MAX) / weight) {
            return (weight * length + WEIGHT_MAX - 1) >> 16;
        }
        BigInteger product = BigInteger.valueOf(weight).multiply(BigInteger.valueOf(length))
                .add(BigInteger.valueOf(WEIGHT_MAX - 1)).shiftRight(16);
        return product.bitLength() < 63 ? product.longValue() : Long.MAX_VALUE;
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
