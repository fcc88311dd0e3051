package org.rdmasim.refit.method;

import org.rdmasim.memory.RegistrationParameters;
import org.rdmasim.transport.config.MemoryType;
import org.rdmasim.workload.RefitRegistrationMode;

/**
 * How a method registers the GPU memory its NICs touch, priced with the registration model's own terms
 * ({@link RegistrationParameters#seconds}: per call, per byte once, per MR and per byte per MR, calibrated
 * in {@link org.rdmasim.memory.GpuRegistrationCalibration}).
 *
 * <ul>
 *   <li>{@link RefitRegistrationMode#PER_TENSOR}: one registration per tensor (NIXL's default in ModelExpress);</li>
 *   <li>{@link RefitRegistrationMode#POOLED}: one per allocator segment ({@code MX_POOL_REG=1}), {@code poolSegments}
 *       of them;</li>
 *   <li>{@link RefitRegistrationMode#ARENA}: one for the whole buffer ({@code MX_VMM_ARENA=1}).</li>
 * </ul>
 * ai-dynamo/modelexpress {@code docs/BENCHMARKS.md} measured the three at 8.16 s, 1.14 s and 0.79 s on one
 * model; those rows are left to validate the terms, not fitted here.
 *
 * @param cached      registered once and kept across refits (ai-dynamo/modelexpress PR #429 caches NIXL's
 *                    registered buffers; without it each cycle registers again)
 * @param hcasPerGpu  HCAs each GPU buffer is registered on (1 with a NIC pin)
 * @param mrsPerHca   MRs per HCA: 2 when relaxed ordering adds its strict-order companion (NIXL 1.1)
 */
public record Registration(RefitRegistrationMode mode, int poolSegments, boolean cached, int hcasPerGpu,
        int mrsPerHca) {
    public Registration {
        if (mode == null) {
            throw new IllegalArgumentException("a registration mode is required");
        }
        if (mode == RefitRegistrationMode.POOLED && poolSegments < 1) {
            throw new IllegalArgumentException("a pooled registration needs at least one segment");
        }
        if (hcasPerGpu < 0 || mrsPerHca < 1) {
            throw new IllegalArgumentException("HCAs per GPU must be >= 0 and MRs per HCA >= 1");
        }
    }

    /** One registration per tensor, cached, one HCA, two MRs. */
    public static Registration perTensor(boolean cached) {
        return new Registration(RefitRegistrationMode.PER_TENSOR, 0, cached, 1, 2);
    }

    public static Registration arena(boolean cached) {
        return new Registration(RefitRegistrationMode.ARENA, 0, cached, 1, 2);
    }

    public static Registration pooled(int segments, boolean cached) {
        return new Registration(RefitRegistrationMode.POOLED, segments, cached, 1, 2);
    }

    /** No registration cost (a method whose buffers are registered outside the refit). */
    public static Registration none() {
        return new Registration(RefitRegistrationMode.ARENA, 0, true, 0, 1);
    }

    /** Registration calls for a buffer of {@code tensors} tensors. */
    public int calls(int tensors) {
        return switch (mode) {
            case PER_TENSOR -> Math.max(1, tensors);
            case POOLED -> poolSegments;
            case ARENA -> 1;
        };
    }

    /** Seconds to register {@code bytes} of GPU memory holding {@code tensors} tensors. */
    public double seconds(RegistrationParameters terms, long bytes, int tensors) {
        if (bytes < 1 || hcasPerGpu == 0) {
            return 0.0;
        }
        return terms.seconds(MemoryType.CUDA, bytes, calls(tensors), hcasPerGpu, mrsPerHca);
    }

    /** Whether cycle {@code cycle} (from 0) pays for registration. */
    public boolean paidIn(int cycle) {
        return cycle == 0 || !cached;
    }
}
