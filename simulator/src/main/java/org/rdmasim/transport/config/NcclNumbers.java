package org.rdmasim.transport.config;

/**
 * NCCL's integer parameters ({@code NCCL_PARAM}) are read by {@code ncclLoadParam}
 * ({@code src/misc/param.cc}) with {@code strtoll(str, nullptr, 0)}: base prefixes {@code 0x}
 * (hex) and {@code 0} (octal) are honoured, reading stops at the first character that is not a
 * digit, and text with no digits reads as 0. Only overflow ({@code errno = ERANGE}) makes NCCL
 * fall back to the default ("Invalid value %s for %s, using default %lld."). So
 * {@code NCCL_IB_QPS_PER_CONNECTION=two} really means 0 to NCCL; rdmasim reproduces that and warns.
 */
public final class NcclNumbers {

    private NcclNumbers() {
    }

    /**
     * What {@code strtoll(text, &end, 0)} returns.
     *
     * @param value    the number read (0 when none)
     * @param consumed how many characters were part of the number (0 when none)
     * @param overflow whether the number did not fit ({@code ERANGE})
     */
    public record Parsed(long value, int consumed, boolean overflow) {
        public boolean complete(String text) {
            return consumed > 0 && consumed == text.length();
        }
    }

    public static Parsed strtoll(String text) {
        int i = 0;
        int n = text.length();
        while (i < n && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        int radix = 10;
        if (i + 1 < n && text.charAt(i) == '0' && (text.charAt(i + 1) == 'x' || text.charAt(i + 1) == 'X')
                && i + 2 < n && Character.digit(text.charAt(i + 2), 16) >= 0) {
            radix = 16;
            i += 2;
        } else if (i < n && text.charAt(i) == '0') {
            radix = 8;
        }
        int start = i;
        java.math.BigInteger acc = java.math.BigInteger.ZERO;
        while (i < n && Character.digit(text.charAt(i), radix) >= 0) {
            acc = acc.multiply(java.math.BigInteger.valueOf(radix))
                    .add(java.math.BigInteger.valueOf(Character.digit(text.charAt(i), radix)));
            i++;
        }
        if (i == start) {
            return new Parsed(0, 0, false);
        }
        if (negative) {
            acc = acc.negate();
        }
        boolean overflow = acc.bitLength() > 63;
        long value = overflow ? (negative ? Long.MIN_VALUE : Long.MAX_VALUE) : acc.longValue();
        return new Parsed(value, i, overflow);
    }
}
