package org.rdmasim.transport.config;

/**
 * UCX's numeric config parsers ({@code src/ucs/config/parser.c}).
 *
 * <p>{@code ucs_config_sscanf_uint} accepts {@code inf} (any case) as {@code UINT_MAX} and otherwise
 * {@code sscanf("%u")}. sscanf would also take {@code "4x"} as 4 and {@code "-1"} as
 * {@code UINT_MAX}; rdmasim rejects both rather than silently read something else.
 */
public final class UcxNumbers {

    /** {@code UINT_MAX}, what UCX stores for {@code inf} in an unsigned field. */
    public static final long UINT_INF = 0xFFFF_FFFFL;

    private UcxNumbers() {
    }

    public static long unsigned(String text) {
        String t = text.strip();
        if (t.equalsIgnoreCase("inf")) {
            return UINT_INF;
        }
        if (t.matches("\\d{1,10}")) {
            long v = Long.parseLong(t);
            if (v <= UINT_INF) {
                return v;
            }
        }
        throw new IllegalArgumentException("an unsigned integer or 'inf'");
    }

    /** {@code ucs_config_sscanf_double}: a decimal number ({@code sscanf("%lf")}). */
    public static double decimal(String text) {
        try {
            double d = Double.parseDouble(text.strip());
            if (!Double.isNaN(d) && !text.strip().matches(".*[dDfF]$")) {
                return d;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("a decimal number such as 4 or 2.5");
    }

    /**
     * {@code ucs_config_sscanf_time} (src/ucs/config/parser.c L493-523, v1.20.0): a number with an
     * optional unit m, s, ms, us or ns right after it; no unit means seconds. Returns seconds.
     */
    public static double time(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)(m|s|ms|us|ns)?")
                .matcher(text.strip());
        if (m.matches()) {
            double v = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            double perSecond = switch (unit) {
                case "m" -> 1.0 / 60;
                case "ms" -> 1e3;
                case "us" -> 1e6;
                case "ns" -> 1e9;
                default -> 1;
            };
            if (Double.isFinite(v)) {
                return v / perSecond;
            }
        }
        throw new IllegalArgumentException("a time such as 1.0s, 500ms or 20us");
    }
}
