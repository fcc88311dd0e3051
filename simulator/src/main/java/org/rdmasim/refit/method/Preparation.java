package org.rdmasim.refit.method;

/**
 * What a trainer GPU does to the bytes it sends before they go on the wire, both priced by mechanism:
 * <ul>
 *   <li>gather: an FSDP shard group of {@code gatherGroup} ranks all-gathers full tensors over NVLink
 *       ({@code full_tensor()}); a ring all-gather brings (g - 1)/g of every gathered byte into each rank
 *       (NVIDIA/nccl-tests {@code doc/PERFORMANCE.md}, all-gather bus bandwidth = algorithm bandwidth x
 *       (n - 1)/n), at the GPU's NVLink rate per direction ({@link GpuRates}); 1 means no gather (a
 *       Megatron TP/EP shard is sent as it is);</li>
 *   <li>conversion: a memory-bound kernel (cast, projection fusion, quantisation) reads
 *       {@code readPerByte} and writes {@code writePerByte} bytes of HBM per byte sent, at the GPU's HBM
 *       bandwidth (the roofline's memory bound; BF16 to FP8 reads 2 and writes 1 per FP8 byte, plus
 *       scales).</li>
 * </ul>
 */
public record Preparation(int gatherGroup, double readPerByte, double writePerByte) {
    public static final Preparation NONE = new Preparation(1, 0, 0);

    public Preparation {
        if (gatherGroup < 1) {
            throw new IllegalArgumentException("a gather group has at least one rank, got " + gatherGroup);
        }
        if (!(readPerByte >= 0) || !(writePerByte >= 0) || Double.isInfinite(readPerByte)
                || Double.isInfinite(writePerByte)) {
            throw new IllegalArgumentException("conversion bytes per byte must be finite and >= 0");
        }
    }

    /** BF16 weights cast to FP8 (2 bytes read, 1 written per FP8 byte), after a gather over {@code group} ranks. */
    public static Preparation bf16ToFp8(int group) {
        return new Preparation(group, 2, 1);
    }

    /** Fraction of gathered bytes that crosses NVLink into each rank. */
    double gatheredFraction() {
        return (gatherGroup - 1) / (double) gatherGroup;
    }
}
