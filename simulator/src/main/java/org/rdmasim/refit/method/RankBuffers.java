package org.rdmasim.refit.method;

import java.util.Map;
import java.util.TreeMap;
import org.rdmasim.refit.layout.SliceMap;
import org.rdmasim.refit.layout.SliceRoute;

/**
 * What each rank registers before a route-moving refit: its own buffers, each once, whatever the number of
 * ranks that read or write them. A local tensor (or the allocation behind it) is registered once and a remote
 * peer needs only its key: ModelExpress' {@code NixlTransferManager.register_tensors} registers each tensor,
 * or each backing allocation under {@code MX_POOL_REG}, once, and {@code receive_from_source} builds the
 * per-tensor descriptors of every reader against those registrations (ai-dynamo/modelexpress @3db6bdc4,
 * modelexpress_client/python/modelexpress/nixl_transfer.py L302).
 *
 * <p>A trainer rank registers the whole local shard of every tensor some route reads from it; an inference
 * rank the bytes it receives, into one destination buffer per tensor.
 *
 * @param trainer   trainer rank to {@code {bytes, tensors}}
 * @param inference inference rank to {@code {bytes, tensors}}
 */
public record RankBuffers(Map<Integer, long[]> trainer, Map<Integer, long[]> inference) {
    public RankBuffers {
        trainer = Map.copyOf(trainer);
        inference = Map.copyOf(inference);
    }

    /** The buffers a slice map's routes touch: trainer shards once each, inference needs once each. */
    public static RankBuffers of(SliceMap map) {
        Map<Integer, long[]> t = new TreeMap<>();
        Map<Integer, long[]> i = new TreeMap<>();
        for (SliceRoute r : map.routes()) {
            t.computeIfAbsent(r.trainerRank(), k -> new long[] {map.heldReadBytes(k), map.heldReadTensors(k)});
            i.computeIfAbsent(r.inferenceRank(), k -> new long[] {map.receivedBytes(k), map.receivedTensors(k)});
        }
        return new RankBuffers(t, i);
    }

    /**
     * For routes given without their slice map: every route taken to read its own part of the trainer rank
     * (no two routes share a source buffer), so a rank registers what its routes move, summed.
     */
    public static RankBuffers perRoute(Iterable<SliceRoute> routes) {
        Map<Integer, long[]> t = new TreeMap<>();
        Map<Integer, long[]> i = new TreeMap<>();
        for (SliceRoute r : routes) {
            add(t, r.trainerRank(), r);
            add(i, r.inferenceRank(), r);
        }
        return new RankBuffers(t, i);
    }

    private static void add(Map<Integer, long[]> into, int rank, SliceRoute r) {
        long[] v = into.computeIfAbsent(rank, k -> new long[2]);
        v[0] = Math.addExact(v[0], r.bytes());
        v[1] += r.tensors();
    }

    public long trainerBytes(int rank) {
        return of(trainer, "trainer", rank)[0];
    }

    public int trainerTensors(int rank) {
        return (int) Math.min(Integer.MAX_VALUE, of(trainer, "trainer", rank)[1]);
    }

    public long inferenceBytes(int rank) {
        return of(inference, "inference", rank)[0];
    }

    public int inferenceTensors(int rank) {
        return (int) Math.min(Integer.MAX_VALUE, of(inference, "inference", rank)[1]);
    }

    private static long[] of(Map<Integer, long[]> m, String side, int rank) {
        long[] v = m.get(rank);
        if (v == null) {
            throw new IllegalArgumentException(side + " rank " + rank + " registers no buffers in this plan");
        }
        return v;
    }
}
