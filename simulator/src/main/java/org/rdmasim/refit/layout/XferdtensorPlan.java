package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import org.rdmasim.refit.model.Tensor;

/**
 * NeMo-RL's plan of a shard-to-shard refit, as its {@code xferdtensor_python_impl} makes it for each parameter
 * (one call each), summed over the parameters: the bytes each trainer rank sends each inference rank, and what
 * each group of inference replicas then does among itself. All citations are NVIDIA-NeMo/RL e40aa046e
 * {@code nemo_rl/weight_sync/xferdtensor_python.py} unless they name another file.
 *
 * <ul>
 *   <li>Regions. A trainer rank's source region and an inference rank's destination region of a parameter are
 *       its box of the tensor. An MoE layer's experts of one projection are one parameter stacked along a new
 *       leading expert dimension ({@code group_expert_params_in_metadata}, {@code nccl_reshard_utils.py}
 *       L444-451), so its region is a range of experts and the box each of them has.</li>
 *   <li>Groups. Inference ranks with identical regions form a destination group in rank order, and its
 *       representative is its first rank (L236-257: the first whose replicated mesh coordinates are 0, the lowest
 *       data-parallel rank). Trainer ranks with identical regions are that region's holders, in rank order.</li>
 *   <li>Striped plan (L705-775), taken when some group has two or more members, every such group's dim 0
 *       (rows, or experts when stacked) divides by its size (L729-730), and every overlap is contiguous inside
 *       its source or its destination region (L789-811). Each member of a group, representative first, is given
 *       one equal block of dim 0; each block takes, from every source region it overlaps, the overlap, sent by
 *       the region's holders in turn (a counter per source region over the blocks, L762-771). The group then
 *       all-gathers its blocks (L932-957).</li>
 *   <li>Generic plan otherwise (L260-283, L629-687): each group's representative takes every overlap of its
 *       region from the first holder of each source region, then broadcasts the region to the rest of its group
 *       ({@code _broadcast_destination}, L604-620).</li>
 * </ul>
 * Trainer and inference ranks are disjoint GPUs here, so the real plan's local copy (a rank that both holds
 * and needs a region, L269-277) never happens.
 */
public final class XferdtensorPlan {
    /**
     * One xferdtensor call: a parameter, or an MoE layer's experts of one projection stacked along a new leading
     * dimension (in expert order).
     */
    public record Parameter(String name, List<Tensor> tensors, boolean stacked) {
        public Parameter {
            tensors = List.copyOf(tensors);
            if (tensors.isEmpty()) {
                throw new IllegalArgumentException("parameter " + name + " has no tensors");
            }
        }
    }

    /**
     * What one group of inference replicas does once each member holds its point-to-point bytes: a ring
     * all-gather in which member j contributes {@code stripes[j]} bytes (striped parameters), then a broadcast of
     * {@code broadcast} bytes from {@code ranks.get(0)}, its representative, to the others (generic parameters).
     */
    public record ReplicaFill(List<Integer> ranks, long[] stripes, long broadcast) {
        public ReplicaFill {
            ranks = List.copyOf(ranks);
            stripes = stripes.clone();
            if (stripes.length != ranks.size() || ranks.size() < 2) {
                throw new IllegalArgumentException("a replica group has two or more ranks, one stripe each");
            }
        }

        /** Bytes rank {@code j} of the group lands from the others. */
        public long landed(int j) {
            long whole = 0;
            for (long s : stripes) {
                whole += s;
            }
            return whole - stripes[j] + (j == 0 ? 0 : broadcast);
        }
    }

    /** How many calls a plan holds, how many have inference replicas, and how many of those the striped plan cut. */
    public record Tally(int parameters, int withReplicas, int striped) {
    }

    /** A region: experts {@code ks} (the single index 0 for an unstacked parameter), each with {@code box}. */
    private record Region(int kLo, int kHi, Box box, int copies) {
        long experts() {
            return kHi - kLo;
        }

        /** dim 0's extent: experts when stacked, else the box's rows. */
        long dim0(boolean stacked) {
            return stacked ? experts() : box.size(0);
        }

        /** Block {@code j} of {@code n} equal blocks of dim 0. */
        Region block(boolean stacked, int j, int n) {
            if (stacked) {
                int size = (kHi - kLo) / n;
                return new Region(kLo + j * size, kLo + (j + 1) * size, box, copies);
            }
            long size = box.size(0) / n;
            return new Region(0, 1, box.narrow(0, box.start(0) + j * size, box.start(0) + (j + 1) * size), copies);
        }

        Region overlap(Region source) {
            int lo = Math.max(kLo, source.kLo);
            int hi = Math.min(kHi, source.kHi);
            Box b = lo < hi ? box.intersect(source.box) : null;
            return b == null ? null : new Region(lo, hi, b, copies);
        }

        Region withCopies(int c) {
            return new Region(kLo, kHi, box, c);
        }

        long bytes(int bytesPerElement) {
            return experts() * box.elements() * bytesPerElement * copies;
        }

        /** Extents of the region as the stacked tensor sees it: the expert range first when stacked. */
        long[] shape(boolean stacked) {
            int d = box.dims();
            long[] out = new long[stacked ? d + 1 : d];
            int at = 0;
            if (stacked) {
                out[at++] = experts();
            }
            for (int i = 0; i < d; i++) {
                out[at++] = box.size(i);
            }
            return out;
        }
    }

    private final int inferers;
    private final long[] pairBytes;
    private final long[] pairTransfers;
    private final int[] pairParameters;
    private final long[] needed;
    private final Map<List<Integer>, long[]> stripes = new LinkedHashMap<>();
    private final Map<List<Integer>, Long> broadcasts = new LinkedHashMap<>();
    private int parameters;
    private int striped;
    private int withReplicas;

    private XferdtensorPlan(int trainers, int inferers) {
        this.inferers = inferers;
        pairBytes = new long[trainers * inferers];
        pairTransfers = new long[trainers * inferers];
        pairParameters = new int[trainers * inferers];
        needed = new long[inferers];
    }

    /**
     * The plan of {@code parameters} under {@code map}'s layouts (its trainer shards and inference needs).
     *
     * @throws IllegalArgumentException when a rank's part of a stacked parameter is not one range of experts
     *                                  with one box, which a DTensor placement cannot describe
     */
    public static XferdtensorPlan of(SliceMap map, List<Parameter> parameters) {
        XferdtensorPlan plan = new XferdtensorPlan(map.trainer().worldSize(), map.inference().worldSize());
        for (Parameter p : parameters) {
            plan.add(map, p);
        }
        return plan;
    }

    /**
     * The parameters of {@code tensors} as xferdtensor calls: tensors {@code nameOf} maps to one name are one
     * stacked parameter (in expert order), every other tensor a parameter of its own; in order of first tensor.
     */
    public static List<Parameter> parameters(List<Tensor> tensors, Function<String, String> nameOf) {
        Map<String, List<Tensor>> byName = new LinkedHashMap<>();
        for (Tensor t : tensors) {
            byName.computeIfAbsent(nameOf.apply(t.name()), k -> new ArrayList<>()).add(t);
        }
        List<Parameter> out = new ArrayList<>();
        for (Map.Entry<String, List<Tensor>> e : byName.entrySet()) {
            List<Tensor> ts = new ArrayList<>(e.getValue());
            boolean stacked = !e.getKey().equals(ts.get(0).name());
            ts.sort(java.util.Comparator.comparingInt(Tensor::expert));
            out.add(new Parameter(e.getKey(), ts, stacked));
        }
        return out;
    }

    private void add(SliceMap map, Parameter p) {
        parameters++;
        int bpe = p.tensors().get(0).dtype().bytesPerElement();
        Map<Integer, Region> need = new TreeMap<>();
        Map<Integer, Region> held = new TreeMap<>();
        for (int k = 0; k < p.tensors().size(); k++) {
            Tensor t = p.tensors().get(k);
            for (Need n : map.needsOf(t)) {
                extend(p, need, n.rank(), k, n.box(), n.copies());
            }
            for (Shard s : map.shardsOf(t)) {
                for (int r : s.ranks()) {
                    extend(p, held, r, k, s.box(), 1);
                }
            }
        }
        // groups in rank order: TreeMap walks ranks ascending, LinkedHashMap keeps first appearance
        Map<Region, List<Integer>> groups = new LinkedHashMap<>();
        need.forEach((rank, region) -> groups.computeIfAbsent(region, x -> new ArrayList<>()).add(rank));
        Map<Region, List<Integer>> holders = new LinkedHashMap<>();
        held.forEach((rank, region) -> holders.computeIfAbsent(region.withCopies(1), x -> new ArrayList<>()).add(rank));
        need.forEach((rank, region) -> needed[rank] += region.bytes(bpe));

        boolean replicas = groups.values().stream().anyMatch(m -> m.size() > 1);
        if (replicas) {
            withReplicas++;
        }
        List<long[]> transfers = replicas ? stripedTransfers(p, groups, holders, bpe) : null;
        if (transfers != null) {
            striped++;
            for (Map.Entry<Region, List<Integer>> g : groups.entrySet()) {
                List<Integer> members = g.getValue();
                if (members.size() > 1) {
                    long[] parts = stripes.computeIfAbsent(members, x -> new long[members.size()]);
                    for (int j = 0; j < members.size(); j++) {
                        parts[j] += g.getKey().block(p.stacked(), j, members.size()).bytes(bpe);
                    }
                }
            }
        } else {
            transfers = new ArrayList<>();
            for (Map.Entry<Region, List<Integer>> g : groups.entrySet()) {
                List<Integer> members = g.getValue();
                for (Map.Entry<Region, List<Integer>> h : holders.entrySet()) {
                    Region o = g.getKey().overlap(h.getKey());
                    if (o != null) {
                        transfers.add(new long[] {h.getValue().get(0), members.get(0), o.bytes(bpe)});
                    }
                }
                if (members.size() > 1) {
                    broadcasts.merge(members, g.getKey().bytes(bpe), Long::sum);
                }
            }
        }
        java.util.Set<Integer> pairs = new java.util.HashSet<>();
        for (long[] x : transfers) {
            int pair = (int) x[0] * inferers + (int) x[1];
            pairBytes[pair] += x[2];
            pairTransfers[pair]++;
            if (pairs.add(pair)) {
                pairParameters[pair]++;
            }
        }
    }

    /** The striped plan's transfers (source, receiver, bytes), or null when the parameter takes the generic plan. */
    private static List<long[]> stripedTransfers(Parameter p, Map<Region, List<Integer>> groups,
            Map<Region, List<Integer>> holders, int bpe) {
        List<Region> targets = new ArrayList<>();
        List<Integer> receivers = new ArrayList<>();
        List<Region> parents = new ArrayList<>();
        for (Map.Entry<Region, List<Integer>> g : groups.entrySet()) {
            List<Integer> members = g.getValue();
            Region region = g.getKey();
            if (members.size() > 1 && region.dim0(p.stacked()) % members.size() != 0) {
                return null;
            }
            for (int j = 0; j < members.size(); j++) {
                targets.add(members.size() == 1 ? region : region.block(p.stacked(), j, members.size()));
                receivers.add(members.get(j));
                parents.add(region);
            }
        }
        Map<Region, Integer> uses = new LinkedHashMap<>();
        List<long[]> out = new ArrayList<>();
        for (int t = 0; t < targets.size(); t++) {
            for (Map.Entry<Region, List<Integer>> h : holders.entrySet()) {
                Region o = targets.get(t).overlap(h.getKey());
                if (o == null) {
                    continue;
                }
                long[] view = o.shape(p.stacked());
                if (!contiguous(view, h.getKey().shape(p.stacked())) && !contiguous(view, parents.get(t).shape(p.stacked()))) {
                    return null;
                }
                List<Integer> hs = h.getValue();
                int use = uses.merge(h.getKey(), 1, Integer::sum) - 1;
                out.add(new long[] {hs.get(use % hs.size()), receivers.get(t), o.bytes(bpe)});
            }
        }
        return out;
    }

    /**
     * Whether a view of extents {@code view} inside a row-major parent of extents {@code parent} is one contiguous
     * run ({@code _region_view_is_contiguous}, L789-801): from the last dimension in, each dimension the view
     * spans more than one index of must start where the previous ones' whole extents end.
     */
    static boolean contiguous(long[] view, long[] parent) {
        long parentStride = 1;
        long expected = 1;
        for (int d = view.length - 1; d >= 0; d--) {
            if (view[d] > 1) {
                if (parentStride != expected) {
                    return false;
                }
                expected *= view[d];
            }
            parentStride *= parent[d];
        }
        return true;
    }

    private static void extend(Parameter p, Map<Integer, Region> regions, int rank, int k, Box box, int copies) {
        Region had = regions.get(rank);
        if (had == null) {
            regions.put(rank, new Region(k, k + 1, box, copies));
            return;
        }
        if (had.kHi != k || !had.box.equals(box) || had.copies != copies) {
            throw new IllegalArgumentException("parameter " + p.name() + ": rank " + rank + "'s part is not one range "
                    + "of experts with one box (expert " + k + ")");
        }
        regions.put(rank, new Region(had.kLo, k + 1, box, copies));
    }

    /** Point-to-point routes, ordered by trainer rank then inference rank ({@link SliceRoute#runs} counts transfers). */
    public List<SliceRoute> routes() {
        List<SliceRoute> out = new ArrayList<>();
        for (int pair = 0; pair < pairBytes.length; pair++) {
            if (pairBytes[pair] > 0) {
                out.add(new SliceRoute(pair / inferers, pair % inferers, pairBytes[pair], pairTransfers[pair],
                        pairParameters[pair]));
            }
        }
        return out;
    }

    /** The replica groups' all-gathers and broadcasts, each group once, in order of first use. */
    public List<ReplicaFill> fills() {
        Map<List<Integer>, ReplicaFill> out = new LinkedHashMap<>();
        for (Map.Entry<List<Integer>, long[]> e : stripes.entrySet()) {
            out.put(e.getKey(), new ReplicaFill(e.getKey(), e.getValue(), broadcasts.getOrDefault(e.getKey(), 0L)));
        }
        for (Map.Entry<List<Integer>, Long> e : broadcasts.entrySet()) {
            out.putIfAbsent(e.getKey(), new ReplicaFill(e.getKey(), new long[e.getKey().size()], e.getValue()));
        }
        return List.copyOf(out.values());
    }

    /** Bytes inference rank {@code rank} needs of these parameters. */
    public long neededBytes(int rank) {
        return needed[rank];
    }

    public Tally tally() {
        return new Tally(parameters, withReplicas, striped);
    }

    /** xferdtensor calls planned. */
    public int parameters() {
        return parameters;
    }

    /** Calls whose parameter has inference replicas. */
    public int withReplicas() {
        return withReplicas;
    }

    /** Calls taken by the striped plan. */
    public int striped() {
        return striped;
    }
}
