package org.rdmasim.refit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ReplicaRoutesTest {
    /** {sender, engine rank, engine} rows as strings, for readable comparison. */
    private static List<String> rows(List<int[]> assigned) {
        return assigned.stream().map(a -> a[0] + ":" + a[1] + "@" + a[2]).toList();
    }

    /**
     * The example in {@code plan_p2p}'s docstring (radixark/miles p2p_transfer_utils.py L77-85 at 9a6fc9e6): 4
     * senders, 2 engines of 3 ranks; the left-over (1,1) and (1,2) go to the senders already serving ranks 1 and 2.
     */
    @Test
    void leftOverTargetsGoToTheSenderAlreadyServingTheirEngineRank() {
        assertEquals(List.of("0:0@0", "1:1@0", "1:1@1", "2:2@0", "2:2@1", "3:0@1"),
                rows(ReplicaRoutes.assign(4, 2, 3)));
    }

    /**
     * The blog's example (lm-sys.github.io blog/2026-04-29-p2p-update.md, "Peer to Peer Transfer Plan"): 8 senders a
     * stage, 2 engines of 16 ranks; sender 0 ends with engine ranks 0 and 8 of both engines.
     */
    @Test
    void blogExampleGivesSenderZeroRanksZeroAndEightOfBothEngines() {
        List<String> zero = rows(ReplicaRoutes.assign(8, 2, 16)).stream().filter(s -> s.startsWith("0:")).toList();
        assertEquals(List.of("0:0@0", "0:0@1", "0:8@0", "0:8@1"), zero);
    }

    @Test
    void sendersBeyondTheTargetsSendNothing() {
        List<int[]> a = ReplicaRoutes.assign(16, 1, 8);
        assertEquals(8, a.size());
        assertTrue(a.stream().allMatch(x -> x[0] < 8));
    }

    /**
     * Trainer tp2 pp2 (4 ranks, 2 a stage) to 2 engines of tp2: every inference rank gets its bytes of each stage
     * whole from one sender of that stage, and no byte is lost or added.
     */
    @Test
    void eachInferenceRankGetsEachStageWholeFromOneSenderOfIt() {
        TrainerLayout trainer = new TrainerLayout(2, 2, 1, 1, 1, 1);
        InferenceLayout inference = new InferenceLayout(2, 2, false, 0, true);
        List<SliceRoute> map = new ArrayList<>();
        long total = 0;
        for (int t = 0; t < 4; t++) {
            for (int i = 0; i < 4; i++) {
                long b = 100L * (t + 1) + i;
                map.add(new SliceRoute(t, i, b, 2, 3));
                total += b;
            }
        }
        List<SliceRoute> routes = ReplicaRoutes.of(map, trainer, inference);
        assertEquals(total, routes.stream().mapToLong(SliceRoute::bytes).sum());
        assertEquals(8, routes.size(), "one route per (stage, inference rank)");
        Map<String, Long> byStageAndRank = new TreeMap<>();
        for (SliceRoute r : routes) {
            byStageAndRank.merge(r.trainerRank() / 2 + "/" + r.inferenceRank(), r.bytes(), Long::sum);
        }
        for (int i = 0; i < 4; i++) {
            // stage 0 holds trainer ranks 0 and 1, stage 1 ranks 2 and 3
            assertEquals(100L + i + 200L + i, byStageAndRank.get("0/" + i));
            assertEquals(300L + i + 400L + i, byStageAndRank.get("1/" + i));
        }
        // 2 senders a stage, 4 targets: sender 0 serves engine rank 0 of both engines, sender 1 engine rank 1
        for (SliceRoute r : routes) {
            assertEquals(inference.tpRank(r.inferenceRank()), r.trainerRank() % 2, r.toString());
        }
    }
}
