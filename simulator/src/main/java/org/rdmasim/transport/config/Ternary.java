package org.rdmasim.transport.config;

import java.util.Locale;

/**
 * A UCX yes/no/try/auto value ({@code UCS_CONFIG_TYPE_TERNARY_AUTO} in
 * {@code src/ucs/config/parser.c}), as used by {@code UCX_IB_PCI_RELAXED_ORDERING}.
 *
 * <p>UCX's boolean parser ({@code ucs_config_sscanf_bool}) accepts {@code y yes 1} and
 * {@code n no 0}, letters in any case; the ternary adds {@code try}/{@code maybe}, and the
 * ternary-auto adds {@code auto}. {@code on}/{@code off} belong to a different UCX type
 * ({@code ON_OFF}) and are rejected here exactly as UCX rejects them for these variables.
 */
public enum Ternary {
    YES, NO, TRY, AUTO;

    static final String EXPECTED = "one of y, yes, 1, n, no, 0, try, maybe, auto (UCX ternary)";

    public static Ternary parse(String text) {
        String t = text.strip();
        String lower = t.toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "y", "yes", "1" -> YES;
            case "n", "no", "0" -> NO;
            case "try", "maybe" -> TRY;
            case "auto" -> AUTO;
            default -> throw new IllegalArgumentException(EXPECTED);
        };
    }

    /** Parses a plain UCX boolean ({@code ucs_config_sscanf_bool}): {@code y yes 1 / n no 0}. */
    public static boolean parseBoolean(String text) {
        Ternary t;
        try {
            t = parse(text);
        } catch (IllegalArgumentException e) {
            t = null;
        }
        if (t == YES) {
            return true;
        }
        if (t == NO) {
            return false;
        }
        throw new IllegalArgumentException("one of y, yes, 1, n, no, 0 (UCX boolean)");
    }
}
