package org.rdmasim.transport;

import java.util.Locale;

/**
 * The NIXL backend plugin that carries a transfer: UCX (rc_mlx5 lanes, transport.ucx) or libfabric
 * (SRD over AWS EFA, transport.libfabric). NIXL ships both as plugins (ai-dynamo/nixl
 * {@code src/plugins/ucx}, {@code src/plugins/libfabric} since 0.7.0).
 */
public enum NixlBackend {
    UCX, LIBFABRIC;

    /** {@code ucx} or {@code libfabric}, any case. */
    public static NixlBackend parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (NixlBackend b : values()) {
            if (b.name().toLowerCase(Locale.ROOT).equals(t)) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown NIXL backend '" + text + "' (expected ucx or libfabric)");
    }
}
