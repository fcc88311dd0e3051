package org.rdmasim.refit.method;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdmasim.refit.model.DType;
import org.rdmasim.refit.model.Tensor;
import org.rdmasim.transport.Endpoint;

/**
 * A colocated refit: trainer and inference engine share the same GPUs, and weights pass from the trainer's
 * tensors to the engine's through CUDA IPC handles, never through a NIC (slime's and verl's
 * {@code update_weights_from_tensor}, OpenRLHF's hybrid engine). What the code does for each bucket, as read in
 * THUDM/slime @624b824a {@code slime/backends/megatron_utils/update_weight/update_weight_from_tensor.py}:
 * <ol>
 *   <li>gather: every trainer rank rebuilds the bucket's full tensors from the shards of the others
 *       (PP and EP broadcasts, then the TP all-gather, {@code hf_weight_iterator_direct.py} L92-131, NCCL over
 *       NVLink): each rank receives the part of the bucket it does not hold, at its NVLink rate;</li>
 *   <li>flatten: {@code FlattenedTensorBucket} concatenates the bucket's tensors of one dtype into one tensor
 *       ({@code torch.cat}, sgl-project/sglang @07e90009 {@code python/sglang/srt/weight_sync/tensor_bucket.py}
 *       L69; slime L375-389 makes one per dtype): every byte read and written once in HBM;</li>
 *   <li>host bounce, when the code had one ({@code hostBounce}): the bucket copied to host memory and back
 *       (ISEEKYAN/Megatron-LM PR #85: "the unconditional .cpu() staging and D2H→H2D round trip ... is gone"),
 *       two fluid PCIe flows through the GPU's socket memory;</li>
 *   <li>the call: the serialised handles gathered over Gloo to the engine's first rank and one Ray call per
 *       bucket ({@code update_weights_from_tensor.remote}, slime L394-423), priced as the per-bucket fixed cost
 *       of every bucketed method ({@link RefitCalibration#BUCKET});</li>
 *   <li>open and install: each engine rank opens the handle of the trainer rank on its own GPU
 *       ({@code cudaIpcOpenMemHandle} in torch's {@code rebuild_cuda_tensor}), rebuilds the tensors as views
 *       ({@code reconstruct_tensors}, tensor_bucket.py L87-110) and calls {@code model.load_weights}, whose
 *       weight loaders copy the rank's share into its parameters: a fixed cost per handle
 *       ({@link RefitCalibration#IPC_OPEN}) and per tensor ({@link RefitCalibration#LOAD_TENSOR}), and the
 *       share's HBM copy.</li>
 * </ol>
 * With {@code perTensorHandles} every tensor is exported and opened on its own (torch's {@code reduce_tensor}
 * per parameter: vLLM-project/vime before its PR #176, SGLang's {@code LocalSerializedTensor} path) instead of
 * one handle per dtype of a bucket. Buckets run one after another ({@code ray.get} before the next, slime
 * L300-311: one buffer), or with the next bucket's gather during this one's install (two buffers: ISEEKYAN PR
 * #85's "two-slot bounded sender prefetch").
 *
 * @param chunks           the buckets, in the order the trainer sends them
 * @param depth            buffers per rank: 1 serial, 2 prefetching the next bucket
 * @param hostBounce       each bucket crosses PCIe to host memory and back before its handle is exported
 * @param perTensorHandles one IPC handle per tensor instead of one per dtype of a bucket
 */
public record ColocatedIpc(List<Chunk> chunks, int depth, boolean hostBounce, boolean perTensorHandles)
        implements RefitMethod {

    /** slime's {@code --update-weight-buffer-size} default, 512 MiB (THUDM/slime @624b824a slime/utils/arguments.py L528-530). */
    public static final long SLIME_DEFAULT_BUCKET = 512L * 1024 * 1024;

    /**
     * One bucket: its bytes (full tensors as inference loads them), how many tensors and how many dtypes it holds.
     */
    public record Chunk(long bytes, int tensors, int dtypes) {
        public Chunk {
            if (bytes < 1 || tensors < 1 || dtypes < 1 || dtypes > tensors) {
                throw new IllegalArgumentException("a bucket holds at least one byte and one tensor, got " + bytes
                        + " B, " + tensors + " tensors, " + dtypes + " dtypes");
            }
        }
    }

    public ColocatedIpc {
        chunks = List.copyOf(chunks);
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("a colocated refit needs at least one bucket");
        }
        if (depth < 1) {
            throw new IllegalArgumentException("a colocated refit needs at least one buffer, got " + depth);
        }
    }

    /**
     * The tensors packed into buckets as slime packs them ({@code pack_param_info_buckets},
     * hf_weight_iterator_direct.py L142-168): in order, whole tensors, a new bucket when the next tensor would
     * take this one past {@code bucketBytes} and this one is not empty (a tensor larger than the bucket gets
     * one of its own).
     */
    public static List<Chunk> pack(List<Tensor> tensors, long bucketBytes) {
        if (bucketBytes < 1) {
            throw new IllegalArgumentException("a bucket holds at least one byte, got " + bucketBytes);
        }
        List<Chunk> out = new ArrayList<>();
        long bytes = 0;
        int count = 0;
        java.util.Set<DType> dtypes = java.util.EnumSet.noneOf(DType.class);
        for (Tensor t : tensors) {
            if (count > 0 && bytes + t.bytes() > bucketBytes) {
                out.add(new Chunk(bytes, count, dtypes.size()));
                bytes = 0;
                count = 0;
                dtypes.clear();
            }
            bytes = Math.addExact(bytes, t.bytes());
            count++;
            dtypes.add(t.dtype());
        }
        if (count > 0) {
            out.add(new Chunk(bytes, count, dtypes.size()));
        }
        return out;
    }

    @Override
    public String name() {
        return "colocated-ipc";
    }

    /** No NIC touches the bytes: nothing is registered. */
    @Override
    public double registrationSeconds(WireContext ctx) {
        return 0;
    }

    /** All buckets' bytes: every trainer rank's gathered model. */
    public long totalBytes() {
        long sum = 0;
        for (Chunk c : chunks) {
            sum = Math.addExact(sum, c.bytes());
        }
        return sum;
    }

    /** IPC handles one engine rank opens for bucket {@code c}. */
    int handles(Chunk c) {
        return perTensorHandles ? c.tensors() : c.dtypes();
    }

    /** The knobs in words, for the plan. */
    public String describe() {
        long tensors = 0;
        long handles = 0;
        for (Chunk c : chunks) {
            tensors += c.tensors();
            handles += handles(c);
        }
        return String.format(Locale.ROOT, "%d buckets, %d tensors, %d IPC handles opened per engine rank a cycle "
                + "(%s), %s, %s", chunks.size(), tensors, handles, perTensorHandles ? "one per tensor"
                : "one per dtype of a bucket", depth > 1 ? "next bucket gathered during this one's install"
                : "one bucket at a time", hostBounce ? "host bounce (D2H then H2D) on every bucket" : "no host bounce");
    }

    @Override
    public void run(WireContext ctx, Runnable done) {
        List<Integer> trainers = ctx.trainerRanks();
        List<Integer> engines = ctx.inferenceRanks();
        long whole = totalBytes();
        RefitCalibration cal = ctx.plan().calibration();
        double perBucket = cal.value(RefitCalibration.BUCKET);
        double perHandle = cal.value(RefitCalibration.IPC_OPEN);
        double perTensor = cal.value(RefitCalibration.LOAD_TENSOR);
        Endpoint caller = ctx.trainer(trainers.get(0));
        List<BucketPipeline.Unit> units = new ArrayList<>();
        long before = 0;
        for (int b = 0; b < chunks.size(); b++) {
            Chunk c = chunks.get(b);
            long from = before;
            long to = before + c.bytes();
            before = to;
            String label = "c" + ctx.cycle() + "/ipc/b" + b;
            double callSeconds = handles(c) * perHandle + c.tensors() * perTensor;
            units.add(new BucketPipeline.Unit(0,
                    then -> {
                        Countdown all = new Countdown(trainers.size(), then);
                        for (int rank : trainers) {
                            fill(ctx, ctx.trainer(rank), rank, c.bytes(), whole, label, all::arrive);
                        }
                    },
                    then -> ctx.gpuWork(RefitStage.DISPATCH, caller, perBucket, then),
                    then -> {
                        Countdown all = new Countdown(engines.size(), then);
                        for (int rank : engines) {
                            Endpoint gpu = ctx.inference(rank);
                            long share = share(ctx.bytesTo(rank), from, to, whole);
                            ctx.gpuCall(RefitStage.INSTALL, gpu, callSeconds, "ipc calls",
                                    "per-call cost of IPC handle opens and load_weights per tensor",
                                    List.of(RefitCalibration.IPC_OPEN, RefitCalibration.LOAD_TENSOR),
                                    () -> ctx.gpuWork(RefitStage.INSTALL, gpu, ctx.copySeconds(gpu, share), () -> {
                                        ctx.landed(rank, share);
                                        all.arrive();
                                    }));
                        }
                    }));
        }
        new BucketPipeline(units, depth, BucketPipeline.WireOrder.GLOBAL, done).start();
    }

    /**
     * Gathers, converts (when inference loads FP8 from BF16: the plan's preparation, at HBM rate), flattens and
     * (with the bounce) stages one bucket on trainer rank {@code rank}'s GPU.
     */
    private void fill(WireContext ctx, Endpoint gpu, int rank, long bytes, long whole, String label, Runnable then) {
        long held = Math.min(whole, ctx.plan().buffers().trainerBytes(rank));
        // the part of this bucket the rank does not hold arrives over NVLink, in proportion to the whole model
        long missing = share(whole - held, 0, bytes, whole);
        Runnable flatten = () -> ctx.gpuCall(RefitStage.CONVERT, gpu, ctx.copySeconds(gpu, bytes), "hbm (flatten)",
                "HBM bandwidth (flattening the bucket)", List.of(), hostBounce
                ? () -> ctx.d2h(gpu, bytes, label + "/r" + rank + "/d2h",
                        () -> ctx.h2d(gpu, bytes, label + "/r" + rank + "/h2d", then))
                : then);
        // a quantising refit (BF16 trained, FP8 loaded) converts the gathered tensors before they are flattened
        double convert = ctx.convertSeconds(gpu, bytes);
        ctx.gpuWork(RefitStage.GATHER, gpu, ctx.nvlinkSeconds(gpu, missing), convert > 0
                ? () -> ctx.gpuWork(RefitStage.CONVERT, gpu, convert, flatten)
                : flatten);
    }

    /**
     * The part of {@code total} bytes that falls in bytes [from, to) of a {@code whole}-byte stream, so that the
     * parts over consecutive ranges add up to {@code total} exactly.
     */
    static long share(long total, long from, long to, long whole) {
        BigInteger t = BigInteger.valueOf(total);
        BigInteger w = BigInteger.valueOf(whole);
        return t.multiply(BigInteger.valueOf(to)).divide(w).subtract(t.multiply(BigInteger.valueOf(from)).divide(w))
                .longValueExact();
    }
}
