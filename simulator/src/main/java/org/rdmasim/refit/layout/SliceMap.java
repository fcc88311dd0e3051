package org.rdmasim.refit.layout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.rdmasim.refit.model.Tensor;
import org.rdmasim.refit.model.TensorRole;

/**
 * The slice map of a refit: for every tensor, the box each trainer rank holds ({@link TrainerShards}) and
 * each inference rank needs ({@link InferenceNeeds}); their intersections are the transfers, counted as
 * contiguous byte runs and summed per (trainer rank, inference rank) into {@link SliceRoute}s.
 *
 * <p>This is the arithmetic of ModelExpress' reshard planner (ai-dynamo/modelexpress @3db6bdc4,
 * modelexpress_client/python/modelexpress/refit/reshard/slice_plan.py: {@code intersect} L248,
 * {@code paired_runs} L259), done on boxes only: nothing per element, so a trillion-parameter map is a few
 * million box intersections.
 *
 * <p>When several trainer ranks hold the same bytes, each inference rank reads them from exactly one of
 * them ({@link ReplicaChoice}), so no byte is counted twice. Bytes are conserved: what each inference rank
 * receives over all routes equals what its layout needs ({@link #neededBytes}), copies of redundant experts
 * included.
 */
public final class SliceMap {
    /** Route tables above this many (trainer, inference) pairs are refused rather than allocated. */
    static final long MAX_PAIRS = 1L << 23;

    /**
     * ModelExpress' descriptor bound per captured copy, {@code MX_RESHARD_MAX_SEGMENTS_PER_COPY} = 64
     * (modelexpress_client/python/modelexpress/refit/reshard/transfer_plan.py L207 @3db6bdc4): above it the
     * planner pulls whole dim-0 source shards into staging instead of posting one descriptor per run.
     */
    public static final long SEGMENTS_PER_COPY = 64;

    private final List<Tensor> tensors;
    private final TrainerLayout trainer;
    private final InferenceLayout inference;
    private final ReplicaChoice choice;
    private final TrainerShards trainerShards;
    private final InferenceNeeds inferenceNeeds;
    private final Map<String, Tensor> byName = new HashMap<>();
    private final Scales scales;
    private final long[] needed;
    private final long[] routeBytes;
    private final long[] routeRuns;
    private final int[] routeTensors;
    private final List<SliceRoute> routes;
    private final long[] heldBytes;
    private final int[] heldTensors;
    private final int[] receivedTensors;
    private long copies;
    private long copiesOverBudget;

    private SliceMap(List<Tensor> tensors, AttentionHeads heads, TrainerLayout trainer, InferenceLayout inference,
            ReplicaChoice choice) {
        this.tensors = List.copyOf(tensors);
        this.trainer = trainer;
        this.inference = inference;
        this.choice = choice;
        int layers = 0;
        int experts = 0;
        for (Tensor t : this.tensors) {
            if (byName.put(t.name(), t) != null) {
                throw new IllegalArgumentException("tensor " + t.name() + " is listed twice");
            }
            layers = Math.max(layers, t.layer() + 1);
            experts = Math.max(experts, t.expert() + 1);
            if (heads == null && (t.role() == TensorRole.ATTN_Q || t.role() == TensorRole.ATTN_KV)) {
                throw new IllegalArgumentException(t.name() + ": attention tensors need the model's attention heads");
            }
        }
        this.scales = new Scales(byName);
        this.trainerShards = new TrainerShards(trainer, heads, Math.max(layers, 1), experts);
        this.inferenceNeeds = new InferenceNeeds(inference, heads, experts);
        int trainers = trainer.worldSize();
        int inferers = inference.worldSize();
        long pairs = (long) trainers * inferers;
        if (pairs > MAX_PAIRS) {
            throw new IllegalArgumentException(trainers + " trainer x " + inferers + " inference ranks is more than "
                    + MAX_PAIRS + " rank pairs");
        }
        needed = new long[inferers];
        routeBytes = new long[(int) pairs];
        routeRuns = new long[(int) pairs];
        routeTensors = new int[(int) pairs];
        int[] lastTensor = new int[(int) pairs];
        java.util.Arrays.fill(lastTensor, -1);
        heldBytes = new long[trainers];
        heldTensors = new int[trainers];
        receivedTensors = new int[inferers];
        int[] lastHeld = new int[trainers];
        int[] lastReceived = new int[inferers];
        java.util.Arrays.fill(lastHeld, -1);
        java.util.Arrays.fill(lastReceived, -1);
        for (int ti = 0; ti < this.tensors.size(); ti++) {
            Tensor t = this.tensors.get(ti);
            int bpe = t.dtype().bytesPerElement();
            CutKey shardKey = shardKey(t);
            CutKey needKey = needKey(t);
            PieceKey pieceKey = new PieceKey(shardKey, needKey, bpe, t.scaleOf() == null ? t.role() : null);
            Pieces cut = pieceCache.get(pieceKey);
            if (cut == null) {
                List<Shard> shards = shardCache.computeIfAbsent(shardKey, k -> cutShards(t));
                List<Need> needs = needCache.computeIfAbsent(needKey, k -> cutNeeds(t));
                cut = pieceCache.computeIfAbsent(pieceKey, k -> pieces(t, shards, needs));
            }
            for (int n = 0; n < cut.needRank.length; n++) {
                needed[cut.needRank[n]] += cut.needBytes[n];
            }
            copies += cut.copies;
            copiesOverBudget += cut.needsOverBudget;
            int[] pairOf = cut.pair;
            int[] srcOf = cut.source;
            int[] rankOf = cut.rank;
            for (int k = 0; k < pairOf.length; k++) {
                int pair = pairOf[k];
                int src = srcOf[k];
                int rank = rankOf[k];
                routeBytes[pair] += cut.bytes[k];
                routeRuns[pair] += cut.runs[k];
                if (lastTensor[pair] != ti) {
                    lastTensor[pair] = ti;
                    routeTensors[pair]++;
                }
                if (lastHeld[src] != ti) {
                    // the whole shard the source holds, once, however many inference ranks read it
                    lastHeld[src] = ti;
                    heldTensors[src]++;
                    heldBytes[src] += cut.shardBytes[k];
                }
                if (lastReceived[rank] != ti) {
                    lastReceived[rank] = ti;
                    receivedTensors[rank]++;
                }
            }
        }
        List<SliceRoute> list = new ArrayList<>();
        for (int s = 0; s < trainers; s++) {
            for (int i = 0; i < inferers; i++) {
                int pair = s * inferers + i;
                if (routeBytes[pair] > 0) {
                    list.add(new SliceRoute(s, i, routeBytes[pair], routeRuns[pair], routeTensors[pair]));
                }
            }
        }
        this.routes = List.copyOf(list);
    }

    public static SliceMap of(List<Tensor> tensors, AttentionHeads heads, TrainerLayout trainer,
            InferenceLayout inference, ReplicaChoice choice) {
        return new SliceMap(tensors, heads, trainer, inference, choice);
    }

    /** Routes with replica reads spread over the replicas. */
    public static SliceMap of(List<Tensor> tensors, AttentionHeads heads, TrainerLayout trainer,
            InferenceLayout inference) {
        return of(tensors, heads, trainer, inference, ReplicaChoice.SPREAD);
    }

    /** Non-empty routes, ordered by trainer rank then inference rank. */
    public List<SliceRoute> routes() {
        return routes;
    }

    public List<Tensor> tensors() {
        return tensors;
    }

    public TrainerLayout trainer() {
        return trainer;
    }

    public InferenceLayout inference() {
        return inference;
    }

    /** Bytes inference rank {@code rank} loads under its layout (replicated KV heads and redundant experts included). */
    public long neededBytes(int rank) {
        return needed[rank];
    }

    /** Bytes the routes deliver to inference rank {@code rank}. */
    public long receivedBytes(int rank) {
        long sum = 0;
        int inferers = inference.worldSize();
        for (int s = 0; s < trainer.worldSize(); s++) {
            sum += routeBytes[s * inferers + rank];
        }
        return sum;
    }

    /**
     * Bytes of the shards trainer rank {@code rank} holds that at least one route reads: each read tensor's
     * whole local shard counted once, however many inference ranks read it. This is what the rank registers
     * (a local tensor is registered once; a remote reader needs only its key).
     */
    public long heldReadBytes(int rank) {
        return heldBytes[rank];
    }

    /** Tensors whose shard on trainer rank {@code rank} at least one route reads, each once. */
    public int heldReadTensors(int rank) {
        return heldTensors[rank];
    }

    /** Distinct tensors inference rank {@code rank} receives any part of, each once whatever the number of sources. */
    public int receivedTensors(int rank) {
        return receivedTensors[rank];
    }

    /** Bytes trainer rank {@code rank} sends over all routes. */
    public long sentBytes(int rank) {
        long sum = 0;
        int inferers = inference.worldSize();
        for (int i = 0; i < inferers; i++) {
            sum += routeBytes[rank * inferers + i];
        }
        return sum;
    }

    public long totalBytes() {
        long sum = 0;
        for (SliceRoute r : routes) {
            sum += r.bytes();
        }
        return sum;
    }

    public long totalRuns() {
        long sum = 0;
        for (SliceRoute r : routes) {
            sum += r.runs();
        }
        return sum;
    }

    /** Tensor copies loaded by inference ranks: one per (tensor, inference rank) need. */
    public long copies() {
        return copies;
    }

    /**
     * Copies whose exact plan takes more than {@link #SEGMENTS_PER_COPY} runs, which ModelExpress would
     * instead pull as whole source shards (more bytes, fewer descriptors).
     */
    public long copiesOverSegmentBudget() {
        return copiesOverBudget;
    }

    /** Every intersection of one tensor, recomputed on demand (the map itself keeps only the sums). */
    public List<TensorSlice> slices(Tensor t) {
        List<TensorSlice> out = new ArrayList<>();
        int bpe = t.dtype().bytesPerElement();
        List<Shard> shards = shardsOf(t);
        for (Need need : needsOf(t)) {
            for (Shard shard : shards) {
                Box overlap = shard.box().intersect(need.box());
                if (overlap != null) {
                    out.add(new TensorSlice(t, shard.source(need.rank(), choice), need.rank(), overlap, shard.box(),
                            need.box(), overlap.elements() * bpe * need.copies(),
                            runs(t, overlap, shard.box(), need.box()) * need.copies()));
                }
            }
        }
        return out;
    }

    /** What trainer rank {@code rank} holds of {@code t}: at most one box. */
    public Box trainerHolding(Tensor t, int rank) {
        for (Shard shard : shardsOf(t)) {
            for (int r : shard.ranks()) {
                if (r == rank) {
                    return shard.box();
                }
            }
        }
        return null;
    }

    /** What inference rank {@code rank} needs of {@code t}, null when nothing. */
    public Box inferenceNeed(Tensor t, int rank) {
        for (Need need : needsOf(t)) {
            if (need.rank() == rank) {
                return need.box();
            }
        }
        return null;
    }

    /**
     * Tensors of one role and shape cut the same way: needs depend on nothing else (but the expert index
     * under expert parallelism), shards on the pipeline stage and owning EP rank besides. Caching by that key
     * keeps a 70,000-expert model to a few hundred distinct cuts.
     */
    private record CutKey(TensorRole role, List<Long> shape, List<Long> weightShape, int stage, int owner) {
    }

    // Concurrent maps: a plan's map is shared (RefitSetup caches it) by a refit's reruns, which run side by side.
    private final Map<CutKey, List<Shard>> shardCache = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<CutKey, List<Need>> needCache = new java.util.concurrent.ConcurrentHashMap<>();

    /** One intersection of a cut pair: shard and need by index, bytes and runs with copies included. */
    private record Piece(int shard, int need, long bytes, long runs) {
    }

    /** Intersections depend on the two cuts, the element size and (for fused q, k, v runs) the role. */
    private record PieceKey(CutKey shards, CutKey needs, int bytesPerElement, TensorRole fusedRole) {
    }

    /**
     * The intersections of a cut pair as the route sums read them, piece by piece in parallel arrays: the
     * (trainer, inference) pair, trainer and inference rank, bytes and runs (copies included), and the bytes of
     * the whole shard the source holds; each need's inference rank and bytes; the copies; and how many needs take
     * more than {@link #SEGMENTS_PER_COPY} runs. Flat because every tensor of the cut walks them: Kimi-K2 from
     * 256 FSDP ranks to 128 is ~40 million pieces over 139,583 tensors and 1,561 cuts, and reading each through
     * its records (piece, need, shard, box) was ~3 s of a refit's load.
     */
    private static final class Pieces {
        final int[] pair;
        final int[] source;
        final int[] rank;
        final long[] bytes;
        final long[] runs;
        final long[] shardBytes;
        final int[] needRank;
        final long[] needBytes;
        final long copies;
        final int needsOverBudget;

        Pieces(List<Piece> list, List<Shard> shards, List<Need> needs, int bytesPerElement, int inferers,
                ReplicaChoice choice, int needsOverBudget) {
            int n = list.size();
            pair = new int[n];
            source = new int[n];
            rank = new int[n];
            bytes = new long[n];
            runs = new long[n];
            shardBytes = new long[n];
            for (int k = 0; k < n; k++) {
                Piece piece = list.get(k);
                Need need = needs.get(piece.need());
                Shard shard = shards.get(piece.shard());
                source[k] = shard.source(need.rank(), choice);
                rank[k] = need.rank();
                pair[k] = source[k] * inferers + rank[k];
                bytes[k] = piece.bytes();
                runs[k] = piece.runs();
                shardBytes[k] = shard.box().elements() * bytesPerElement;
            }
            needRank = new int[needs.size()];
            needBytes = new long[needs.size()];
            long c = 0;
            for (int k = 0; k < needs.size(); k++) {
                Need need = needs.get(k);
                needRank[k] = need.rank();
                needBytes[k] = need.box().elements() * bytesPerElement * need.copies();
                c += need.copies();
            }
            copies = c;
            this.needsOverBudget = needsOverBudget;
        }
    }

    private final Map<PieceKey, Pieces> pieceCache = new java.util.concurrent.ConcurrentHashMap<>();

    private CutKey shardKey(Tensor t) {
        Tensor weight = t.scaleOf() == null ? t : weightOf(t);
        boolean expert = isExpert(weight);
        return new CutKey(weight.role(), t.shape(), weight.shape(), trainerShards.stage(weight),
                expert ? trainerShards.epRank(weight) : -1);
    }

    private CutKey needKey(Tensor t) {
        Tensor weight = t.scaleOf() == null ? t : weightOf(t);
        boolean expert = isExpert(weight);
        return new CutKey(weight.role(), t.shape(), weight.shape(), 0,
                expert && inference.expertParallel() ? weight.expert() : -1);
    }

    private static boolean isExpert(Tensor t) {
        return t.role().isExpert();
    }

    private Pieces pieces(Tensor t, List<Shard> shards, List<Need> needs) {
        int bpe = t.dtype().bytesPerElement();
        List<Piece> out = new ArrayList<>();
        int over = 0;
        for (int n = 0; n < needs.size(); n++) {
            Need need = needs.get(n);
            long needRuns = 0;
            for (int s = 0; s < shards.size(); s++) {
                Shard shard = shards.get(s);
                if (shard.box().overlaps(need.box())) {
                    Box overlap = shard.box().intersect(need.box());
                    long runs = runs(t, overlap, shard.box(), need.box());
                    needRuns += runs;
                    out.add(new Piece(s, n, overlap.elements() * bpe * need.copies(), runs * need.copies()));
                }
            }
            if (needRuns > SEGMENTS_PER_COPY) {
                over += need.copies();
            }
        }
        return new Pieces(out, shards, needs, bpe, inference.worldSize(), choice, over);
    }

    List<Shard> shardsOf(Tensor t) {
        return shardCache.computeIfAbsent(shardKey(t), k -> cutShards(t));
    }

    List<Need> needsOf(Tensor t) {
        return needCache.computeIfAbsent(needKey(t), k -> cutNeeds(t));
    }

    private List<Shard> cutShards(Tensor t) {
        if (t.scaleOf() == null) {
            return trainerShards.shards(t, t.role());
        }
        Tensor weight = weightOf(t);
        long[] block = blocks(t, weight);
        List<Shard> out = new ArrayList<>();
        for (Shard s : trainerShards.shards(weight, weight.role())) {
            Box owned = ownedBlocks(s.box(), block);
            if (owned != null) {
                out.add(new Shard(owned, s.ranks()));
            }
        }
        return out;
    }

    private List<Need> cutNeeds(Tensor t) {
        return scales.needs(t, inferenceNeeds);
    }

    /**
     * Needs of block-scale tensors, cut with their weights: an inference rank needs every block touching its
     * share of the weight, and that share must be whole blocks (vLLM refuses a tensor-parallel split of a
     * block-quantised weight that is not: vllm-project/vllm
     * vllm/model_executor/layers/quantization/utils/fp8_utils.py {@code validate_fp8_block_shape}, "is not
     * divisible by weight quantization block"). The last block of a dimension may be partial.
     */
    static final class Scales {
        private final Map<String, Tensor> byName;

        Scales(Map<String, Tensor> byName) {
            this.byName = byName;
        }

        Scales(List<Tensor> tensors) {
            this(new HashMap<>());
            for (Tensor t : tensors) {
                byName.put(t.name(), t);
            }
        }

        List<Need> needs(Tensor t, InferenceNeeds inferenceNeeds) {
            if (t.scaleOf() == null) {
                return inferenceNeeds.needs(t, t.role());
            }
            Tensor weight = weightOf(byName, t);
            long[] block = blocks(t, weight);
            List<Need> out = new ArrayList<>();
            for (Need n : inferenceNeeds.needs(weight, weight.role())) {
                Box box = n.box();
                for (int d = 0; d < block.length; d++) {
                    boolean whole = box.start(d) % block[d] == 0
                            && (box.end(d) % block[d] == 0 || box.end(d) == weight.shape().get(d));
                    if (!whole) {
                        throw new IllegalArgumentException(weight.name() + ": inference rank " + n.rank()
                                + "'s share of dimension " + d + " [" + box.start(d) + ", " + box.end(d)
                                + ") is not whole " + block[d] + "-element FP8 blocks (vLLM needs each rank's share "
                                + "of a block-quantised weight to be whole blocks)");
                    }
                }
                out.add(new Need(n.rank(), touchedBlocks(box, block), n.copies()));
            }
            return out;
        }
    }

    private Tensor weightOf(Tensor scale) {
        return weightOf(byName, scale);
    }

    private static Tensor weightOf(Map<String, Tensor> byName, Tensor scale) {
        Tensor weight = byName.get(scale.scaleOf());
        if (weight == null) {
            throw new IllegalArgumentException(scale.name() + " scales " + scale.scaleOf() + ", which is not in the list");
        }
        if (weight.shape().size() != scale.shape().size()) {
            throw new IllegalArgumentException(scale.name() + ": a block scale has as many dimensions as its weight "
                    + weight.shape() + ", got " + scale.shape());
        }
        return weight;
    }

    /**
     * Block size per dimension: the smallest power of two b with ceil(weight/b) = scale, the shape rule of
     * block-quantised FP8 ({@code weight_scale_inv = [ceil(N/bn), ceil(K/bk)]}, SGLang
     * python/sglang/srt/layers/quantization/fp8.py {@code Fp8LinearMethod.create_weights}); 128 x 128 for
     * DeepSeek-V3 and Kimi-K2.
     */
    static long[] blocks(Tensor scale, Tensor weight) {
        long[] block = new long[scale.shape().size()];
        for (int d = 0; d < block.length; d++) {
            long w = weight.shape().get(d);
            long s = scale.shape().get(d);
            long b = 1;
            while (b <= w && (w + b - 1) / b != s) {
                b <<= 1;
            }
            if ((w + b - 1) / b != s) {
                throw new IllegalArgumentException(scale.name() + ": dim " + d + " (" + s
                        + ") is not ceil(" + w + " / a power-of-two block)");
            }
            block[d] = b;
        }
        return block;
    }

    /**
     * Blocks a trainer shard owns: those whose first element it holds, so shards whose edges fall inside a
     * block still partition the scale tensor and no block is sent twice.
     */
    private static Box ownedBlocks(Box weightBox, long[] block) {
        long[] lo = new long[block.length];
        long[] hi = new long[block.length];
        for (int d = 0; d < block.length; d++) {
            lo[d] = ceilDiv(weightBox.start(d), block[d]);
            hi[d] = ceilDiv(weightBox.end(d), block[d]);
            if (lo[d] >= hi[d]) {
                return null;
            }
        }
        return Box.of(lo, hi);
    }

    /** Blocks an inference rank needs: every block touching its rows and columns. */
    private static Box touchedBlocks(Box weightBox, long[] block) {
        long[] lo = new long[block.length];
        long[] hi = new long[block.length];
        for (int d = 0; d < block.length; d++) {
            lo[d] = weightBox.start(d) / block[d];
            hi[d] = ceilDiv(weightBox.end(d), block[d]);
        }
        return Box.of(lo, hi);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /**
     * Runs of one intersection on the trainer side. Paired runs as ModelExpress counts them, with one Megatron
     * correction: q, k and v sit fused in one buffer interleaved per query group ({@code [q_g; k_g; v_g]} for
     * each group g, Megatron-Bridge param_mapping.py {@code merge_qkv_weights} L3143), so a stretch of whole
     * HuggingFace q rows breaks at every group boundary and one of k or v rows at every head. The fused
     * {@code [gate_shard_i; up_shard_i]} buffer needs no correction: each half is itself contiguous. Block
     * scales of q, k, v are counted as paired runs only (a 128-row block may straddle a group anyway).
     */
    private long runs(Tensor t, Box overlap, Box source, Box destination) {
        long runs = Box.pairedRuns(overlap, source, destination);
        AttentionHeads heads = trainerShards.heads();
        boolean fusedQkv = t.scaleOf() == null && (t.role() == TensorRole.ATTN_Q || t.role() == TensorRole.ATTN_KV);
        if (!fusedQkv || heads == null || runs != 1) {
            return runs;
        }
        // one run spans all rows of the overlap; count the groups (q) or heads (k, v) it crosses
        long unit = t.role() == TensorRole.ATTN_Q ? heads.groupRows() : (long) heads.headDim();
        long first = overlap.start(0) / unit;
        long last = (overlap.end(0) - 1) / unit;
        return last - first + 1;
    }

    static long[] shape(Tensor t) {
        long[] shape = new long[t.shape().size()];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = t.shape().get(d);
        }
        return shape;
    }
}
