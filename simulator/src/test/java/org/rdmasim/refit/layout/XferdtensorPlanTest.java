package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/**
 * NeMo-RL's xferdtensor plan (NVIDIA-NeMo/RL e40aa046e nemo_rl/weight_sync/xferdtensor_python.py) on small layouts
 * worked by hand: which trainer rank sends which bytes to which inference rank, and what each replica group does
 * after. BF16 throughout, 2 bytes an element.
 */
class XferdtensorPlanTest {
    private static XferdtensorPlan plan(List<Tensor> tensors, TrainerLayout trainer, InferenceLayout inference) {
        SliceMap map = SliceMap.of(tensors, null, trainer, inference);
        return XferdtensorPlan.of(map, XferdtensorPlan.parameters(tensors,
                n -> n.replaceFirst("^(.+\\.experts)\\.\\d+\\.(\\w+_proj)\\.weight$", "$1.$2.weight")));
    }

    private static Map<String, Long> pairs(XferdtensorPlan p) {
        Map<String, Long> out = new HashMap<>();
        for (SliceRoute r : p.routes()) {
            out.put(r.trainerRank() + "->" + r.inferenceRank(), r.bytes());
        }
        return out;
    }

    /** What each inference rank ends with: its point-to-point bytes and what its groups fill in. */
    private static long[] landed(XferdtensorPlan p, int ranks) {
        long[] out = new long[ranks];
        for (SliceRoute r : p.routes()) {
            out[r.inferenceRank()] += r.bytes();
        }
        for (XferdtensorPlan.ReplicaFill f : p.fills()) {
            for (int j = 0; j < f.ranks().size(); j++) {
                out[f.ranks().get(j)] += f.landed(j);
            }
        }
        return out;
    }

    private static void assertConserved(XferdtensorPlan p, SliceMap map, int ranks) {
        long[] got = landed(p, ranks);
        for (int i = 0; i < ranks; i++) {
            assertEquals(map.neededBytes(i), got[i], "rank " + i);
            assertEquals(map.neededBytes(i), p.neededBytes(i), "rank " + i);
        }
    }

    /**
     * Four trainer replicas of a whole [8, 4] tensor (DP 4) to TP 2 x DP 4: two groups of four replicas (ranks
     * 0, 2, 4, 6 need rows 0-4, ranks 1, 3, 5, 7 rows 4-8), each cut into four one-row stripes of 8 bytes. The one
     * source region's counter runs over the targets group by group, so the holders take turns 0, 1, 2, 3 in each
     * group: every trainer rank sends one stripe to each group, where "inference rank modulo the replicas" would
     * have sent group one's stripes from trainer ranks 0 and 2 only.
     */
    @Test
    void theHoldersOfARegionTakeTurnsOverTheStripesInGroupOrder() {
        Tensor up = Tensors.of("model.layers.0.mlp.up_proj.weight", TensorRole.COLUMN, DType.BF16, 0, -1, 8, 4);
        TrainerLayout dp4 = new TrainerLayout(1, 1, 1, 1, 1, 4);
        InferenceLayout tp2dp4 = new InferenceLayout(2, 4, false, 0);
        XferdtensorPlan p = plan(List.of(up), dp4, tp2dp4);
        Map<String, Long> got = pairs(p);
        int[] groupA = {0, 2, 4, 6};
        int[] groupB = {1, 3, 5, 7};
        for (int j = 0; j < 4; j++) {
            assertEquals(8L, got.get(j + "->" + groupA[j]), "stripe " + j + " of rows 0-4");
            assertEquals(8L, got.get(j + "->" + groupB[j]), "stripe " + j + " of rows 4-8");
        }
        assertEquals(8, got.size());
        List<XferdtensorPlan.ReplicaFill> fills = p.fills();
        assertEquals(2, fills.size());
        assertEquals(List.of(0, 2, 4, 6), fills.get(0).ranks());
        assertArrayEquals(new long[] {8, 8, 8, 8}, fills.get(0).stripes());
        assertEquals(0, fills.get(0).broadcast());
        assertEquals(new XferdtensorPlan.Tally(1, 1, 1), p.tally());
        assertConserved(p, SliceMap.of(List.of(up), null, dp4, tp2dp4), 8);
    }

    /**
     * Trainer TP 2 cuts [8, 4] into rows 0-4 (rank 0) and 4-8 (rank 1); two inference replicas each need it whole.
     * Replica 0's stripe is rows 0-4, which only trainer rank 0 holds, replica 1's rows 4-8: each replica hears from
     * one trainer rank, where an equal share of each rank's routes would have had both send to both.
     */
    @Test
    void aStripeComesOnlyFromTheTrainerShardsOverItsRows() {
        Tensor up = Tensors.of("model.layers.0.mlp.up_proj.weight", TensorRole.COLUMN, DType.BF16, 0, -1, 8, 4);
        TrainerLayout tp2 = new TrainerLayout(2, 1, 1, 1, 1, 1);
        InferenceLayout dp2 = new InferenceLayout(1, 2, false, 0);
        XferdtensorPlan p = plan(List.of(up), tp2, dp2);
        assertEquals(Map.of("0->0", 32L, "1->1", 32L), pairs(p));
        assertArrayEquals(new long[] {32, 32}, p.fills().get(0).stripes());
        assertConserved(p, SliceMap.of(List.of(up), null, tp2, dp2), 2);
    }

    /**
     * Six rows over four replicas do not divide: the whole call takes the generic plan, the 48 bytes to the
     * group's first rank from the first holder, then a broadcast of 48 bytes to the other three.
     */
    @Test
    void aDim0TheGroupDoesNotDivideIsSentToOneReplicaThenBroadcast() {
        Tensor up = Tensors.of("model.layers.0.mlp.up_proj.weight", TensorRole.COLUMN, DType.BF16, 0, -1, 6, 4);
        TrainerLayout dp2 = new TrainerLayout(1, 1, 1, 1, 1, 2);
        InferenceLayout dp4 = new InferenceLayout(1, 4, false, 0);
        XferdtensorPlan p = plan(List.of(up), dp2, dp4);
        assertEquals(Map.of("0->0", 48L), pairs(p));
        assertEquals(1, p.fills().size());
        assertEquals(List.of(0, 1, 2, 3), p.fills().get(0).ranks());
        assertEquals(48, p.fills().get(0).broadcast());
        assertArrayEquals(new long[4], p.fills().get(0).stripes());
        assertEquals(new XferdtensorPlan.Tally(1, 1, 0), p.tally());
        assertConserved(p, SliceMap.of(List.of(up), null, dp2, dp4), 4);
    }

    /**
     * [4, 6] split by columns three ways by trainer TP 2 (columns 0-3, 3-6) and inference TP 3 (0-2, 2-4, 4-6, each
     * twice over DP 2): rank 1's first stripe, rows 0-2 of columns 2-4, meets trainer rank 0 in column 2 alone,
     * a view contiguous in neither region, which would need packing on both sides: the call goes generic.
     */
    @Test
    void anOverlapNeedingPackingOnBothSidesTakesTheGenericPlan() {
        Tensor down = Tensors.of("model.layers.0.mlp.down_proj.weight", TensorRole.ROW, DType.BF16, 0, -1, 4, 6);
        XferdtensorPlan p = plan(List.of(down), new TrainerLayout(2, 1, 1, 1, 1, 1), new InferenceLayout(3, 2, false, 0));
        assertEquals(new XferdtensorPlan.Tally(1, 1, 0), p.tally());
        assertEquals(3, p.fills().size(), "three groups of two, each broadcast from its first rank");
        for (XferdtensorPlan.ReplicaFill f : p.fills()) {
            assertEquals(2 * 4 * 2, f.broadcast());
        }
        assertConserved(p, SliceMap.of(List.of(down), null, new TrainerLayout(2, 1, 1, 1, 1, 1),
                new InferenceLayout(3, 2, false, 0)), 6);
    }

    @Test
    void contiguityFollowsRowMajorStrides() {
        assertTrue(XferdtensorPlan.contiguous(new long[] {2, 4}, new long[] {4, 4}), "whole rows");
        assertTrue(XferdtensorPlan.contiguous(new long[] {1, 2}, new long[] {4, 4}), "part of one row");
        assertFalse(XferdtensorPlan.contiguous(new long[] {2, 2}, new long[] {4, 4}), "part of two rows");
        assertTrue(XferdtensorPlan.contiguous(new long[] {1, 4, 4}, new long[] {3, 4, 4}), "one whole expert");
        assertFalse(XferdtensorPlan.contiguous(new long[] {2, 4, 2}, new long[] {2, 4, 4}), "half of each of two");
    }

    /**
     * A layer's four experts of one projection are one call, stacked along the expert index: trainer EP 2 holds
     * experts 0-1 on rank 0 and 2-3 on rank 1, and two inference engines of one rank each (replicas: within one
     * engine of DP 2 vLLM would shard the experts over both ranks) need all four. The stripes split the
     * experts, so replica 0 takes experts 0-1 from rank 0 and replica 1 experts 2-3 from rank 1. Were each expert
     * its own call, each would be striped by rows and both replicas would hear from both ranks.
     */
    @Test
    void stackedExpertsAreStripedByExpert() {
        List<Tensor> experts = new ArrayList<>();
        for (int e = 0; e < 4; e++) {
            experts.add(Tensors.of("model.layers.0.mlp.experts." + e + ".up_proj.weight", TensorRole.EXPERT_COLUMN,
                    DType.BF16, 0, e, 2, 4));
        }
        TrainerLayout ep2 = new TrainerLayout(1, 1, 2, 1, 1, 2);
        InferenceLayout dp2 = new InferenceLayout(1, 2, false, 0, true);
        XferdtensorPlan p = plan(experts, ep2, dp2);
        assertEquals(new XferdtensorPlan.Tally(1, 1, 1), p.tally());
        assertEquals(Map.of("0->0", 32L, "1->1", 32L), pairs(p));
        assertConserved(p, SliceMap.of(experts, null, ep2, dp2), 2);
    }

    /** No inference replicas: the generic plan, each rank's region from the first holder of each part. */
    @Test
    void withoutReplicasEveryByteComesFromItsFirstHolder() {
        Tensor up = Tensors.of("model.layers.0.mlp.up_proj.weight", TensorRole.COLUMN, DType.BF16, 0, -1, 8, 4);
        XferdtensorPlan p = plan(List.of(up), new TrainerLayout(1, 1, 1, 1, 1, 4), new InferenceLayout(4));
        assertEquals(Map.of("0->0", 16L, "0->1", 16L, "0->2", 16L, "0->3", 16L), pairs(p));
        assertTrue(p.fills().isEmpty());
        assertEquals(new XferdtensorPlan.Tally(1, 0, 0), p.tally());
    }
}
