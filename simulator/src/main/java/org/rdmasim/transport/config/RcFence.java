package org.rdmasim.transport.config;

/**
 * {@code UCX_RC_FENCE}: what an RC fence does when the API asks for one. Values from the
 * {@code FENCE} entry of the RC interface config table ({@code src/uct/ib/rc/base/rc_iface.c}):
 * {@code none} (no-op), {@code weak} (remote reads ordered after remote writes), {@code auto}
 * (chosen from hardware capabilities). NIXL sets {@code none}.
 */
public enum RcFence {
    NONE, WEAK, AUTO;

    public static RcFence parse(String text) {
        return switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> NONE;
            case "weak" -> WEAK;
            case "auto" -> AUTO;
            default -> throw new IllegalArgumentException("one of none, weak, auto");
        };
    }
}
