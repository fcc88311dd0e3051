package org.rdmasim.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntToDoubleFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Galloping then bisection: the linear scan's answer, in a logarithmic number of points. */
class SizingSearchTest {
    /** Runs the search on {@code p99(value)} against {@code target}; returns the values tried, in order. */
    private static List<Integer> drive(SizingSearch s, IntToDoubleFunction p99, double target) {
        List<Integer> tried = new ArrayList<>();
        for (OptionalInt next = s.next(); next.isPresent(); next = s.next()) {
            int v = next.getAsInt();
            tried.add(v);
            double p = p99.applyAsDouble(v);
            s.record(new SizingSearch.Point(v, p, p <= target));
        }
        return tried;
    }

    private static OptionalInt linearScan(int bound, IntToDoubleFunction p99, double target) {
        for (int v = 1; v <= bound; v++) {
            if (p99.applyAsDouble(v) <= target) {
                return OptionalInt.of(v);
            }
        }
        return OptionalInt.empty();
    }

    private static int ceilLog2(int n) {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    @Test
    void gallopsThenBisects() {
        // 86 sources meet (the 2,048-receiver case): 1..128 by doubling, then bisection in (64, 128).
        SizingSearch s = new SizingSearch(2048);
        List<Integer> tried = drive(s, v -> v >= 86 ? 1.0 : 2.0, 1.5);
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64, 128, 96, 80, 88, 84, 86, 85), tried);
        assertEquals(OptionalInt.of(86), s.answer());
        assertEquals(2 * ceilLog2(86), tried.size());
        assertTrue(s.violations("sources").isEmpty());
    }

    @Test
    void noneInRangeEndsAtTheBound() {
        SizingSearch s = new SizingSearch(12);
        List<Integer> tried = drive(s, v -> 5.0, 1.0);
        assertEquals(List.of(1, 2, 4, 8, 12), tried);
        assertTrue(s.answer().isEmpty());
        assertEquals(ceilLog2(12) + 1, tried.size());
    }

    @Test
    void pointsComeOutInKnobOrder() {
        SizingSearch s = new SizingSearch(8);
        drive(s, v -> 10.0 / v, 3.0);
        assertEquals(List.of(1, 2, 3, 4), s.points().stream().map(SizingSearch.Point::value).toList());
    }

    @Test
    void aRiseInP99IsReportedAsAViolation() {
        // p99 worse at 2 than at 1, and the search still ends on 4: the pair (1, 2) contradicts monotonicity.
        double[] p99 = {0, 10, 12, 11, 1, 1, 1, 1, 1};
        SizingSearch s = new SizingSearch(8);
        drive(s, v -> p99[v], 5);
        assertEquals(OptionalInt.of(4), s.answer());
        List<String> v = s.violations("sources");
        assertEquals(1, v.size(), v.toString());
        assertTrue(v.get(0).contains("sources=1") && v.get(0).contains("sources=2"), v.get(0));
    }

    @Test
    void theMostPointsMatchesTheWorstCase() {
        for (int bound = 1; bound <= 70; bound++) {
            int worst = 0;
            for (int answer = 1; answer <= bound + 1; answer++) {
                int a = answer;
                worst = Math.max(worst, drive(new SizingSearch(bound), v -> v >= a ? 0 : 1, 0.5).size());
            }
            assertEquals(worst, SizingSearch.maxEvaluations(bound), "bound " + bound);
        }
    }

    @Property(tries = 2000)
    void findsTheLinearScansAnswer(@ForAll @IntRange(min = 1, max = 5000) int bound,
            @ForAll @IntRange(min = 1, max = 6000) int threshold) {
        // A monotone p99: falls with the knob, meets the target from `threshold` on.
        IntToDoubleFunction p99 = v -> v >= threshold ? 1.0 / v : 2.0 + 1.0 / v;
        SizingSearch s = new SizingSearch(bound);
        List<Integer> tried = drive(s, p99, 1.5);
        assertEquals(linearScan(bound, p99, 1.5), s.answer());
        assertEquals(tried.size(), tried.stream().distinct().count(), "a value tried twice: " + tried);
        if (s.answer().isPresent()) {
            assertTrue(tried.size() <= Math.max(1, 2 * ceilLog2(s.answer().getAsInt())), tried.toString());
        } else {
            assertEquals(ceilLog2(bound) + 1, tried.size(), tried.toString());
        }
        assertTrue(tried.size() <= SizingSearch.maxEvaluations(bound));
        assertTrue(s.violations("k").isEmpty());
    }

    @Test
    void aScanRunsEveryValueAndAnswersTheFastestThatMeets() {
        // Not monotone: fastest at 5, both ends slower; values 3 to 7 meet 4.0.
        IntToDoubleFunction time = v -> 1.0 + (v - 5) * (v - 5) * 0.5;
        SizingSearch s = SizingSearch.scan(9);
        assertEquals(9, s.mostPoints());
        List<Integer> tried = drive(s, time, 4.0);
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9), tried);
        assertEquals(OptionalInt.of(5), s.answer());
        assertTrue(s.violations("bucket").isEmpty(), "a scan assumes no monotonicity to violate");
        SizingSearch none = SizingSearch.scan(3);
        drive(none, v -> 10.0, 4.0);
        assertTrue(none.answer().isEmpty());
    }
    /**
     * The conclusion names the values simulated and how, and the ones skipped: a p99 rising with the knob over
     * 1..16 is tried at 1, 2, 4, 8, 16 only, and the skipped 3, 5-7, 9-15 are not claimed to miss.
     */
    @Test
    void theConclusionNamesOnlyTheValuesSimulated() {
        SizingSearch rising = new SizingSearch(16);
        drive(rising, v -> 1.0 + v, 0.5);
        assertEquals("tried senders = 1, 2, 4, 8, 16 (doubling from 1); not simulated: 3, 5-7, 9-15",
                rising.tried("senders", Integer::toString));
        assertEquals("no senders tried meets the target; the points break monotonicity, so a value not simulated "
                + "(3, 5-7, 9-15) may still meet it", rising.noneMeets("senders", Integer::toString,
                        !rising.violations("senders").isEmpty()));
        // a bisection is named after the doubling; a bound that is no power of two comes last
        SizingSearch met = new SizingSearch(12);
        drive(met, v -> v >= 3 ? 1.0 : 2.0, 1.5);
        assertEquals("tried n = 1, 2, 4 (doubling from 1), then 3 (bisection); not simulated: 5-12",
                met.tried("n", Integer::toString));
        SizingSearch none = new SizingSearch(3);
        drive(none, v -> 2.0, 1.0);
        assertEquals("tried n = 1, 2, 3 (doubling from 1, the bound 3 last)", none.tried("n", Integer::toString));
        assertEquals("no n tried meets the target (all 3 of its values were simulated)",
                none.noneMeets("n", Integer::toString, false));
        // a scan runs every value and says so
        SizingSearch scan = SizingSearch.scan(3);
        drive(scan, v -> 2.0, 1.0);
        assertEquals("tried b = 1, 2, 3 (every value, in order)", scan.tried("b", Integer::toString));
    }
    /**
     * The architect's rails case: p99 falls from 1 rail to 2 and then stays put at 4 and 8 (UCX drops the
     * other Grace's NICs), so the conclusion says the knob stopped helping at 2 rather than only that none meets.
     */
    @Test
    void aFlatTailSaysWhereTheKnobStopsHelping() {
        SizingSearch rails = new SizingSearch(8);
        drive(rails, v -> v == 1 ? 69.0 : 26.3756, 2.0);
        assertEquals("no rails tried meets the target; under the monotonicity assumption none of those not "
                + "simulated (3, 5-7) would meet it either", rails.noneMeets("rails", Integer::toString, false));
        assertEquals("p99 stays at 26.3756 s from rails = 2 to 8: above 2 this knob does not move it, so meeting "
                + "the target takes another change (see above)",
                rails.plateau("rails", Integer::toString, "p99", "see above", false).orElseThrow());
        // still falling at the bound: nothing to say beyond "none meets"
        SizingSearch falling = new SizingSearch(8);
        drive(falling, v -> 10.0 / v, 0.5);
        assertTrue(falling.plateau("rails", Integer::toString, "p99", "x", false).isEmpty());
        // a failed largest point (no figure) is not a plateau
        SizingSearch failed = new SizingSearch(2);
        failed.record(new SizingSearch.Point(1, 5.0, false));
        failed.record(new SizingSearch.Point(2, Double.NaN, false));
        assertTrue(failed.plateau("rails", Integer::toString, "p99", "x", false).isEmpty());
        // the Kimi-K2 NIC search: 5.44 s at 1, 7.16 s at 2, 5.44 s at 4 and 8; the rise from 1 to 2 breaks the
        // assumption, so the equal 4 and 8 say nothing of 5-7: the line names the values simulated only
        SizingSearch nics = new SizingSearch(8);
        drive(nics, v -> v == 2 ? 7.1620 : 5.4356, 5.0);
        assertTrue(!nics.violations("nics").isEmpty());
        assertEquals("steady cycle is 5.4356 s at every value of nics simulated from 4 to 8 (4, 8); the points break the "
                + "monotone assumption (above), so values not simulated between them may differ (x)",
                nics.plateau("nics", Integer::toString, "steady cycle", "x", true).orElseThrow());
    }
}
