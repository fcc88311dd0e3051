package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/** Conservation and ownership over random small layouts. */
class SliceMapProperties {

    /** Sizes as powers of two: 1, 2, 4, 8. */
    private static int pow(int e) {
        return 1 << e;
    }

    @Property(tries = 300)
    void everyInferenceRankReceivesExactlyWhatItNeedsFromRanksHoldingIt(
            @ForAll @IntRange(min = 0, max = 2) int tpE, @ForAll @IntRange(min = 1, max = 2) int pp,
            @ForAll @IntRange(min = 0, max = 2) int epE, @ForAll @IntRange(min = 0, max = 1) int etpE,
            @ForAll @IntRange(min = 1, max = 2) int cp, @ForAll @IntRange(min = 0, max = 2) int dpE,
            @ForAll boolean fsdp, @ForAll @IntRange(min = 0, max = 3) int itpE,
            @ForAll @IntRange(min = 1, max = 3) int idp, @ForAll boolean iep,
            @ForAll @IntRange(min = 0, max = 3) int redundant, @ForAll @IntRange(min = 0, max = 2) int kvE,
            @ForAll boolean spread) {
        int tp = pow(tpE);
        int ep = pow(epE);
        int etp = pow(etpE);
        int dp = pow(dpE);
        Assume.that((tp * cp * dp) % (etp * ep) == 0);
        Assume.that(iep || redundant == 0);
        int kv = pow(kvE + 1);
        Assume.that(kv % tp == 0);
        TrainerLayout trainer = new TrainerLayout(tp, pp, ep, etp, cp, dp, fsdp, 0, 0);
        InferenceLayout inference = new InferenceLayout(pow(itpE), idp, iep, redundant);
        Assume.that(!iep || 8 + redundant >= inference.moeGroup());
        Assume.that(iep || 48 % inference.moeGroup() == 0);
        Assume.that(inference.tp() >= kv ? inference.tp() % kv == 0 : kv % inference.tp() == 0);
        AttentionHeads heads = new AttentionHeads(8, kv, 4);
        List<Tensor> tensors = model(kv);

        SliceMap map = SliceMap.of(tensors, heads, trainer, inference,
                spread ? ReplicaChoice.SPREAD : ReplicaChoice.FIRST);

        long needed = 0;
        for (int i = 0; i < inference.worldSize(); i++) {
            assertTrue(map.neededBytes(i) > 0);
            assertEquals(map.neededBytes(i), map.receivedBytes(i), "inference rank " + i);
            needed += map.neededBytes(i);
        }
        assertEquals(needed, map.totalBytes());
        long modelBytes = tensors.stream().mapToLong(Tensor::bytes).sum();
        assertTrue(map.totalBytes() >= modelBytes, "every tensor reaches at least one inference rank whole");
        for (Tensor t : tensors) {
            checkTensor(map, t, trainer, inference);
        }
    }

    private static void checkTensor(SliceMap map, Tensor t, TrainerLayout trainer, InferenceLayout inference) {
        // trainer holdings partition the tensor: disjoint, elements adding up to the whole
        Map<Box, Boolean> distinct = new HashMap<>();
        for (int s = 0; s < trainer.worldSize(); s++) {
            Box b = map.trainerHolding(t, s);
            if (b != null) {
                distinct.put(b, true);
            }
        }
        List<Box> boxes = new ArrayList<>(distinct.keySet());
        long elements = 0;
        for (int a = 0; a < boxes.size(); a++) {
            elements += boxes.get(a).elements();
            for (int b = a + 1; b < boxes.size(); b++) {
                assertTrue(!boxes.get(a).overlaps(boxes.get(b)), t.name() + ": " + boxes.get(a) + " " + boxes.get(b));
            }
        }
        assertEquals(t.elements(), elements, t.name() + " is held exactly once over distinct shards");
        // each slice comes from a rank holding it, lands inside the need, and the slices tile each need
        Map<Integer, Long> perRank = new HashMap<>();
        for (TensorSlice s : map.slices(t)) {
            Box held = map.trainerHolding(t, s.trainerRank());
            assertNotNull(held, t.name() + ": trainer " + s.trainerRank() + " sends what it does not hold");
            assertTrue(held.contains(s.box()));
            assertTrue(map.inferenceNeed(t, s.inferenceRank()).contains(s.box()));
            assertTrue(s.runs() >= 1 && s.runs() <= s.box().elements());
            perRank.merge(s.inferenceRank(), s.box().elements(), Long::sum);
        }
        for (int i = 0; i < inference.worldSize(); i++) {
            Box need = map.inferenceNeed(t, i);
            long got = perRank.getOrDefault(i, 0L);
            if (need == null) {
                assertEquals(0, got);
            } else {
                // a rank holding two copies of a redundant expert gets every slice twice
                assertEquals(0, got % need.elements(), t.name() + " to " + i);
                assertTrue(got >= need.elements());
            }
        }
    }

    /** Two layers of a GQA MoE model with 8 experts, one FP8 weight with block scales, vocabulary 200. */
    static List<Tensor> model(int kv) {
        List<Tensor> out = new ArrayList<>();
        out.add(Tensors.of("embed", TensorRole.VOCAB_EMBEDDING, DType.BF16, -1, -1, 200, 16));
        for (int l = 0; l < 2; l++) {
            String p = "l" + l + ".";
            out.add(Tensors.of(p + "norm", TensorRole.REPLICATED, DType.BF16, l, -1, 16));
            out.add(Tensors.of(p + "q", TensorRole.ATTN_Q, DType.BF16, l, -1, 32, 16));
            out.add(Tensors.of(p + "k", TensorRole.ATTN_KV, DType.BF16, l, -1, kv * 4L, 16));
            out.add(Tensors.of(p + "v", TensorRole.ATTN_KV, DType.BF16, l, -1, kv * 4L, 16));
            out.add(Tensors.of(p + "o", TensorRole.ROW, DType.BF16, l, -1, 16, 32));
            Tensor up = Tensors.of(p + "shared.up", TensorRole.COLUMN, DType.FP8_E4M3, l, -1, 64, 16);
            out.add(up);
            out.add(Tensors.scale(p + "shared.up_scale", up, 8, 2));
            out.add(Tensors.of(p + "shared.down", TensorRole.ROW, DType.BF16, l, -1, 16, 64));
            out.add(Tensors.of(p + "router", TensorRole.REPLICATED, DType.FP32, l, -1, 8, 16));
            for (int e = 0; e < 8; e++) {
                out.add(Tensors.of(p + "e" + e + ".gate", TensorRole.EXPERT_COLUMN, DType.BF16, l, e, 48, 16));
                out.add(Tensors.of(p + "e" + e + ".down", TensorRole.EXPERT_ROW, DType.BF16, l, e, 16, 48));
            }
        }
        out.add(Tensors.of("final_norm", TensorRole.REPLICATED, DType.BF16, -1, -1, 16));
        out.add(Tensors.of("lm_head", TensorRole.LM_HEAD, DType.BF16, -1, -1, 200, 16));
        return out;
    }
}
