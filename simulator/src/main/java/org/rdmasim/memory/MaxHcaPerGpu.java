package org.rdmasim.memory;

import java.util.Locale;

/**
 * {@code UCX_MAX_HCA_PER_GPU}: how many HCAs UCP registers GPU memory on (UCX >= 1.21).
 *
 * <p>Source: openucx/ucx PR #11422 (master) and #11453 (v1.21.x), "UCP/MM: Add MAX_HCA_PER_GPU policy
 * for GPU registrations", adding the option to {@code src/ucp/core/ucp_context.c} (default "inf") and
 * the selection to {@code ucp_mem_map} in {@code src/ucp/core/ucp_mm.c}. Its description: at map time
 * the network MDs in the registration map are ranked by topology latency and bandwidth to the buffer's
 * system device, ties broken by MD name; {@code inf} keeps all, {@code auto} "the closest reachable
 * HCA set", {@code N} "up to N closest". Non-network MDs are untouched and buffers with an unknown
 * system device (host memory, in practice) bypass the policy. The stored copy of the UCX source
 * available to us predates the PR, so the code itself was not read: we take {@code auto} to mean
 * every HCA whose distance equals the minimum ({@link HcaDistance#CLOSEST_FIRST} compares equal).
 *
 * @param mode how to limit
 * @param count N for {@link Mode#CLOSEST_N}; 0 otherwise
 */
public record MaxHcaPerGpu(Mode mode, int count) {

    public enum Mode {
        /** {@code inf}: every reachable HCA (UCX default). */
        ALL,
        /** {@code auto}: every HCA at the minimum distance. */
        CLOSEST_SET,
        /** {@code N}: the N closest, ties by name. */
        CLOSEST_N
    }

    public static final MaxHcaPerGpu INF = new MaxHcaPerGpu(Mode.ALL, 0);
    public static final MaxHcaPerGpu AUTO = new MaxHcaPerGpu(Mode.CLOSEST_SET, 0);

    public MaxHcaPerGpu {
        if (mode == null) {
            throw new MemoryInputException("MAX_HCA_PER_GPU mode is required");
        }
        if (mode == Mode.CLOSEST_N && count < 1) {
            // ASSUMPTION: we reject 0; how UCX treats 0 was not verified in its source.
            throw new MemoryInputException("UCX_MAX_HCA_PER_GPU=N needs N >= 1, got " + count);
        }
        if (mode != Mode.CLOSEST_N && count != 0) {
            throw new MemoryInputException("UCX_MAX_HCA_PER_GPU count only applies to N, got " + count);
        }
    }

    public static MaxHcaPerGpu closest(int n) {
        return new MaxHcaPerGpu(Mode.CLOSEST_N, n);
    }

    /** Parses the environment value: "inf", "auto" or a positive integer. */
    public static MaxHcaPerGpu parse(String text) {
        if (text == null) {
            throw new MemoryInputException("UCX_MAX_HCA_PER_GPU value is missing");
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("inf") || t.equals("infinity")) {
            return INF;
        }
        if (t.equals("auto")) {
            return AUTO;
        }
        try {
            return closest(Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new MemoryInputException("UCX_MAX_HCA_PER_GPU='" + text + "': expected inf, auto or a positive integer");
        }
    }

    @Override
    public String toString() {
        return switch (mode) {
            case ALL -> "inf";
            case CLOSEST_SET -> "auto";
            case CLOSEST_N -> Integer.toString(count);
        };
    }
}
