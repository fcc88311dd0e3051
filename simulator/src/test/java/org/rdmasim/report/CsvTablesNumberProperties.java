package org.rdmasim.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * CsvTables.num writes what {@code String.format(Locale.ROOT, "%.9g", v)} writes, so reports keep their
 * bytes: random doubles of every magnitude, values one ulp around the plain/scientific switches, and
 * values whose shortest decimal ends in a 5 at the tenth digit (half-up rounding).
 */
class CsvTablesNumberProperties {
    private static void same(double v) {
        assertEquals(String.format(Locale.ROOT, "%.9g", v), CsvTables.num(v), () -> "for " + v);
    }

    @Property(tries = 20000)
    void anyDouble(@ForAll double v) {
        same(v);
    }

    @Property(tries = 20000)
    void scaledMantissas(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int mantissa,
            @ForAll @IntRange(min = -12, max = 14) int exponent) {
        double v = mantissa * Math.pow(10, exponent - 9);
        same(v);
        same(-v);
    }

    @Property(tries = 5000)
    void halfwayDigits(@ForAll @IntRange(min = 100000000, max = 999999999) int digits,
            @ForAll @IntRange(min = -8, max = 12) int exponent) {
        same(Double.parseDouble(digits + "5e" + (exponent - 9)));
    }

    /** The memo of recent numbers gives each number's own text, whatever came before it (collisions included). */
    @Property(tries = 200)
    void memoAgreesWithFormat(@ForAll @net.jqwik.api.constraints.Size(max = 3000) java.util.List<@IntRange(min = 0, max = 5000) Integer> picks) {
        CsvTables.NumberMemo memo = new CsvTables.NumberMemo();
        StringBuilder out = new StringBuilder();
        for (int k : picks) {
            // a few thousand distinct values, far more than the memo's slots, many repeated
            double v = k % 7 == 0 ? -k * 0.1 : k * 1.000000001e-3;
            out.setLength(0);
            assertEquals(String.format(Locale.ROOT, "%.9g", v), memo.append(out, v).toString(), () -> "for " + v);
        }
    }

    @Example
    void edges() {
        double[] edges = {0.0, -0.0, 1e-4, 9.999999995e-5, 9.9999999949e-5, 1e9, 999999999.4, 999999999.6, 1e100, 1e-100,
            Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.5, 0.1 + 0.2};
        for (double v : edges) {
            same(v);
            same(Math.nextUp(v));
            same(Math.nextDown(v));
        }
    }
}
