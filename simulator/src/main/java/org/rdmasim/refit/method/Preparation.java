package org.rdmasim.refit.method;

/**
 * What a trainer GPU does to the bytes it sends before they go on the wire, each priced by mechanism:
 * <ul>
 *   <li>gather: an FSDP shard group of {@code gatherGroup} ranks all-gathers full tensors over NVLink
 *       ({@code full_tensor()}); a ring all-gather brings (g - 1)/g of every gathered byte into each rank
 *       (NVIDIA/nccl-tests {@code doc/PERFORMANCE.md}, all-gather bus bandwidth = algorithm bandwidth x
 *       (n - 1)/n), at the GPU's NVLink rate per direction
 *       ({@link org.rdmasim.hardware.HostSpec.GpuSpec#nvlinkBytesPerSecond}); 1 means no FSDP gather (a
 *       Megatron TP/EP shard is gathered by {@code shardGather} instead). The gather moves the trainer's own dtype:
 *       {@code gatherPerByte} bytes of it per byte sent (2 when an FP32 trainer sends BF16). A group whose ranks sit
 *       on more than one host gathers through the hosts' NICs as well: {@link WireContext#gatherSeconds}. The
 *       group of rank r is the ranks {@code gatherStride} apart around it ({@code tp x cp} in Megatron's rank
 *       order, where data parallelism follows tensor and context parallelism, {@code TrainerLayout#denseRank});</li>
 *   <li>conversion: a memory-bound kernel (cast, projection fusion, quantisation) reads
 *       {@code readPerByte} and writes {@code writePerByte} bytes of HBM per byte sent, at the GPU's HBM
 *       bandwidth (the roofline's memory bound; BF16 to FP8 reads 2 and writes 1 per FP8 byte, plus
 *       scales; FP32 to BF16 reads 2 and writes 1 per BF16 byte);</li>
 *   <li>offloaded shards: FSDP keeps each rank's parameter shard ({@code offloadedShardBytes}, in the
 *       trainer's dtype; 0 when the shards stay on the GPUs) in pinned host memory between steps
 *       ({@code CPUOffload(offload_params=True)}), and an FSDP1 sharded {@code state_dict()} unshards every
 *       FSDP unit before the first tensor is sent: the shard is copied to the GPU over PCIe, all-gathered over
 *       NVLink and the full tensors cloned into the state dict's chunks ({@link WireContext#unshardOffloaded}).</li>
 *   <li>Megatron's gather ({@code shardGather}): a broadcast bucket's TP, expert-TP and EP all-gathers to its
 *       sending rank, each a ring over its group's GPUs on the fabric and NVLink ({@link ShardGather},
 *       {@link WireContext#shardGather}); {@link ShardGather#NONE} for an FSDP or unsharded trainer.</li>
 * </ul>
 */
public record Preparation(int gatherGroup, double gatherPerByte, double readPerByte, double writePerByte,
        long offloadedShardBytes, ShardGather shardGather, int gatherStride) {
    public static final Preparation NONE = new Preparation(1, 0, 0);

    public Preparation {
        if (gatherGroup < 1) {
            throw new IllegalArgumentException("a gather group has at least one rank, got " + gatherGroup);
        }
        if (!(gatherPerByte > 0) || Double.isInfinite(gatherPerByte)) {
            throw new IllegalArgumentException("gathered bytes per byte sent must be finite and > 0, got "
                    + gatherPerByte);
        }
        if (!(readPerByte >= 0) || !(writePerByte >= 0) || Double.isInfinite(readPerByte)
                || Double.isInfinite(writePerByte)) {
            throw new IllegalArgumentException("conversion bytes per byte must be finite and >= 0");
        }
        if (offloadedShardBytes < 0 || offloadedShardBytes > 0 && gatherGroup < 2) {
            throw new IllegalArgumentException("an offloaded shard is >= 0 bytes and belongs to an FSDP group of at "
                    + "least two ranks, got " + offloadedShardBytes + " B over " + gatherGroup + " rank(s)");
        }
        if (shardGather == null) {
            throw new IllegalArgumentException("a preparation needs its Megatron gather (ShardGather.NONE when none)");
        }
        if (gatherStride < 1) {
            throw new IllegalArgumentException("an FSDP group's ranks are at least 1 apart, got " + gatherStride);
        }
    }

    /** A preparation whose FSDP group's ranks are consecutive (tp = cp = 1). */
    public Preparation(int gatherGroup, double gatherPerByte, double readPerByte, double writePerByte,
            long offloadedShardBytes, ShardGather shardGather) {
        this(gatherGroup, gatherPerByte, readPerByte, writePerByte, offloadedShardBytes, shardGather, 1);
    }

    /** A preparation without a Megatron gather. */
    public Preparation(int gatherGroup, double gatherPerByte, double readPerByte, double writePerByte,
            long offloadedShardBytes) {
        this(gatherGroup, gatherPerByte, readPerByte, writePerByte, offloadedShardBytes, ShardGather.NONE);
    }

    /** A trainer that gathers and converts the bytes it sends in their own dtype, its shards on its GPUs. */
    public Preparation(int gatherGroup, double readPerByte, double writePerByte) {
        this(gatherGroup, 1, readPerByte, writePerByte, 0);
    }

    /**
     * BF16 weights quantised to FP8 after a gather over {@code group} ranks: the gather moves the BF16 weights
     * (2 bytes per FP8 byte sent), the cast reads 2 and writes 1 per FP8 byte.
     */
    public static Preparation bf16ToFp8(int group) {
        return new Preparation(group, 2, 2, 1, 0);
    }

    /**
     * An FSDP trainer over {@code group} ranks holding its weights in FP32 and sending BF16: the gather moves
     * FP32 (2 bytes per byte sent), then each tensor is cast (reads 2, writes 1 per byte sent).
     */
    public static Preparation fp32ToBf16(int group) {
        return new Preparation(group, 2, 2, 1, 0);
    }

    /** The same preparation with each trainer rank's shard ({@code bytes}) kept in host memory; 0: on its GPU. */
    public Preparation withOffloadedShards(long bytes) {
        return new Preparation(gatherGroup, gatherPerByte, readPerByte, writePerByte, bytes, shardGather,
                gatherStride);
    }

    /** The same preparation with Megatron's gather of each broadcast bucket to its sending rank. */
    public Preparation withShardGather(ShardGather g) {
        return new Preparation(gatherGroup, gatherPerByte, readPerByte, writePerByte, offloadedShardBytes, g,
                gatherStride);
    }

    /** The same preparation with the FSDP group's ranks {@code stride} apart (tp x cp). */
    public Preparation withGatherStride(int stride) {
        return new Preparation(gatherGroup, gatherPerByte, readPerByte, writePerByte, offloadedShardBytes,
                shardGather, stride);
    }

    /** The trainer ranks of rank {@code rank}'s FSDP group, in data-parallel order. */
    java.util.List<Integer> gatherGroupOf(int rank) {
        int span = gatherStride * gatherGroup;
        int base = rank / span * span + rank % gatherStride;
        java.util.List<Integer> out = new java.util.ArrayList<>(gatherGroup);
        for (int d = 0; d < gatherGroup; d++) {
            out.add(base + d * gatherStride);
        }
        return out;
    }

    /** Each trainer rank's shard sits in host memory between steps and is unsharded before the send. */
    public boolean offloaded() {
        return offloadedShardBytes > 0;
    }

    /** Fraction of gathered bytes that crosses NVLink into each rank. */
    double gatheredFraction() {
        return (gatherGroup - 1) / (double) gatherGroup;
    }
}
