package org.rdmasim.transport.config;

import java.util.Locale;

/**
 * {@code UCX_MAX_HCA_PER_GPU} (UCX 1.21, per its NEWS: "limit GPU memory registrations to nearest
 * HCAs"): {@code inf} registers GPU memory on every HCA, {@code auto} only on the topologically
 * closest ones, {@code N} on the N closest ([ucx-src] src/ucp/core/ucp_context.c, v1.21.0 and later).
 *
 * @param kind  which form
 * @param count the N of {@link Kind#COUNT}; 0 otherwise
 */
public record HcaPerGpuLimit(Kind kind, int count) {

    /** The three forms of the limit. */
    public enum Kind { INF, AUTO, COUNT }

    public static final HcaPerGpuLimit INF = new HcaPerGpuLimit(Kind.INF, 0);
    public static final HcaPerGpuLimit AUTO = new HcaPerGpuLimit(Kind.AUTO, 0);

    public HcaPerGpuLimit {
        if (kind == Kind.COUNT && count < 1) {
            throw new IllegalArgumentException("a count of at least 1");
        }
    }

    public static HcaPerGpuLimit parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("inf")) {
            return INF;
        }
        if (t.equals("auto")) {
            return AUTO;
        }
        if (t.matches("\\d{1,9}") && Integer.parseInt(t) >= 1) {
            return new HcaPerGpuLimit(Kind.COUNT, Integer.parseInt(t));
        }
        throw new IllegalArgumentException("'inf', 'auto' or a positive number of HCAs");
    }

    @Override
    public String toString() {
        return switch (kind) {
            case INF -> "inf";
            case AUTO -> "auto";
            case COUNT -> Integer.toString(count);
        };
    }
}
