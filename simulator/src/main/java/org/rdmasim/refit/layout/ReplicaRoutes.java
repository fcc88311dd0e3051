package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The routes of miles' P2P update (radixark/miles {@code miles/backends/megatron_utils/update_weight/
 * update_weight_from_distributed/p2p_transfer_utils.py} at 9a6fc9e6, {@code RemoteTransferPlan}, L31-130). After
 * the bucketed all-gather over TP and EP every trainer rank of a pipeline stage holds that stage whole, so the
 * source plans per stage: the stage's ranks, ordered by their column (the lowest rank of their PP group, L54-59:
 * with Megatron's pp outermost, rank mod world/pp), are dealt the targets (engine, engine rank) in order, one
 * each (L99-103); the targets left over go to the least loaded sender already serving that engine rank, else
 * round robin (L108-121). A sender sends a target the target's whole slice of its stage: here the slice map's
 * bytes, runs and tensors from the stage's ranks to that inference rank, summed. Only the first
 * {@code inference world} columns send ({@code _is_source}, p2p.py L96).
 */
public final class ReplicaRoutes {
    private ReplicaRoutes() {
    }

    /**
     * The source's routes for {@code map} (the slice map of the same layouts), in the order a sender serves them:
     * stage by stage, sender by sender, engine rank by engine rank as first assigned, engine by engine.
     */
    public static List<SliceRoute> of(List<SliceRoute> map, TrainerLayout trainer, InferenceLayout inference) {
        int columns = trainer.worldSize() / trainer.pp();
        int engineSize = inference.separateEngines() ? inference.tp() : inference.worldSize();
        int engines = inference.worldSize() / engineSize;
        // [stage][inference rank] -> {bytes, runs, tensors}
        long[][][] need = new long[trainer.pp()][inference.worldSize()][3];
        for (SliceRoute r : map) {
            long[] v = need[r.trainerRank() / columns][r.inferenceRank()];
            v[0] = Math.addExact(v[0], r.bytes());
            v[1] = Math.addExact(v[1], r.runs());
            v[2] += r.tensors();
        }
        List<int[]> assigned = assign(columns, engines, engineSize);
        List<SliceRoute> out = new ArrayList<>();
        for (int stage = 0; stage < trainer.pp(); stage++) {
            for (int[] a : assigned) {
                int rank = a[2] * engineSize + a[1];
                long[] v = need[stage][rank];
                if (v[0] > 0) {
                    out.add(new SliceRoute(stage * columns + a[0], rank, v[0], Math.max(1, v[1]),
                            (int) Math.max(1, v[2])));
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * {@code plan_p2p}: {sender column, engine rank, engine} for every target, grouped by sender, then by engine
     * rank in the order first assigned to it, engines in assignment order.
     */
    static List<int[]> assign(int columns, int engines, int engineSize) {
        List<int[]> targets = new ArrayList<>();
        for (int e = 0; e < engines; e++) {
            for (int k = 0; k < engineSize; k++) {
                targets.add(new int[] {e, k});
            }
        }
        List<Map<Integer, List<Integer>>> bySender = new ArrayList<>();
        for (int s = 0; s < columns; s++) {
            bySender.add(new LinkedHashMap<>());
        }
        int first = Math.min(columns, targets.size());
        for (int s = 0; s < first; s++) {
            int[] t = targets.get(s);
            bySender.get(s).computeIfAbsent(t[1], x -> new ArrayList<>()).add(t[0]);
        }
        int next = 0;
        for (int[] t : targets.subList(first, targets.size())) {
            int pick = -1;
            int least = Integer.MAX_VALUE;
            for (int s = 0; s < columns; s++) {
                int n = bySender.get(s).getOrDefault(t[1], List.of()).size();
                if (n > 0 && n < least) {
                    least = n;
                    pick = s;
                }
            }
            if (pick < 0) {
                pick = next++ % columns;
            }
            bySender.get(pick).computeIfAbsent(t[1], x -> new ArrayList<>()).add(t[0]);
        }
        List<int[]> out = new ArrayList<>();
        for (int s = 0; s < columns; s++) {
            for (Map.Entry<Integer, List<Integer>> g : bySender.get(s).entrySet()) {
                for (int e : g.getValue()) {
                    out.add(new int[] {s, g.getKey(), e});
                }
            }
        }
        return out;
    }
}
