package org.rdmasim.sizing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The order in which a sizing run tries knob values: galloping 1, 2, 4, 8, ... (the bound itself last)
 * until a value meets the target, then bisection between the last value that missed and the first that
 * met it. It rests on one assumption, monotonicity: raising the knob never makes p99 worse, so every
 * value below the answer misses and every value from it up meets. Under that assumption the answer is
 * the one a linear scan of 1..bound finds, after at most {@code 2 ceil(log2 answer)} points (one when
 * the answer is 1), or {@code ceil(log2 bound) + 1} points when no value meets the target.
 *
 * <p>Bisection only tries values between the last miss and the first meet, so the pass/miss outcomes
 * it keeps always look monotone; what it can see is a p99 that rises with the knob, which
 * {@link #violations(String)} reports: the answer may then not be the smallest value that meets.
 */
public final class SizingSearch {
    /**
     * One evaluated value.
     *
     * @param p99   pooled p99 pull time, NaN when the variant failed
     * @param meets whether the point met the target (a failed variant does not)
     */
    public record Point(int value, double p99, boolean meets) {
    }

    /** Relative rise in p99 treated as a real rise rather than rounding in the pooled percentile. */
    static final double RISE_TOLERANCE = 1e-9;

    private final int bound;
    private final boolean monotone;
    private final TreeMap<Integer, Point> points = new TreeMap<>();
    /** Values evaluated while doubling, and by bisection after it, each in the order tried. */
    private final List<Integer> doubled = new ArrayList<>();
    private final List<Integer> bisected = new ArrayList<>();
    private int lastMiss;
    private int firstMeet = -1;
    private int nextGallop = 1;
    private boolean galloping = true;

    /** A search over 1..{@code bound}. */
    public SizingSearch(int bound) {
        this(bound, true);
    }

    private SizingSearch(int bound, boolean monotone) {
        if (bound < 1) {
            throw new IllegalArgumentException("the largest value to try must be at least 1, got " + bound);
        }
        this.bound = bound;
        this.monotone = monotone;
    }

    /**
     * A scan of every value 1..{@code count} in order, for a knob that cannot be assumed monotone: nothing
     * can be skipped, and the answer is the value with the lowest p99 (the figure the target is on) among those
     * that meet the target.
     */
    public static SizingSearch scan(int count) {
        return new SizingSearch(count, false);
    }

    public int bound() {
        return bound;
    }

    /** False for a {@link #scan(int)}. */
    public boolean monotone() {
        return monotone;
    }

    /** The next value to evaluate, or empty when the search is over. */
    public OptionalInt next() {
        if (!monotone) {
            return points.size() < bound ? OptionalInt.of(points.size() + 1) : OptionalInt.empty();
        }
        if (galloping) {
            return OptionalInt.of(nextGallop);
        }
        if (firstMeet - lastMiss <= 1) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(lastMiss + (firstMeet - lastMiss) / 2);
    }

    public boolean done() {
        return next().isEmpty();
    }

    /** Records the outcome of the value {@link #next()} gave. */
    public void record(Point p) {
        OptionalInt expected = next();
        if (expected.isEmpty() || expected.getAsInt() != p.value()) {
            throw new IllegalStateException("expected a point at " + (expected.isEmpty() ? "none" : expected.getAsInt())
                    + ", got one at " + p.value());
        }
        points.put(p.value(), p);
        if (!monotone) {
            return;
        }
        (galloping ? doubled : bisected).add(p.value());
        if (p.meets()) {
            firstMeet = p.value();
            galloping = false;
        } else {
            lastMiss = p.value();
            if (galloping) {
                if (p.value() == bound) {
                    galloping = false;
                    firstMeet = bound + 1; // none in range: lastMiss + 1 == firstMeet ends the search
                } else {
                    nextGallop = (int) Math.min((long) p.value() * 2, bound);
                }
            }
        }
    }

    /** The smallest value that met the target, once the search is over; empty if none in 1..bound did. */
    public OptionalInt answer() {
        if (!monotone) {
            if (!done()) {
                return OptionalInt.empty();
            }
            return points.values().stream().filter(Point::meets)
                    .min(java.util.Comparator.comparingDouble(Point::p99).thenComparingInt(Point::value))
                    .map(p -> OptionalInt.of(p.value())).orElse(OptionalInt.empty());
        }
        return firstMeet >= 1 && firstMeet <= bound ? OptionalInt.of(firstMeet) : OptionalInt.empty();
    }

    /** The points evaluated so far, in knob order. */
    public List<Point> points() {
        return List.copyOf(points.values());
    }

    /**
     * Which values were simulated and how, in the order tried, shown by {@code shown}: {@code tried senders = 1, 2,
     * 4, 8, 16 (doubling from 1, the bound 16 last), then 3 (bisection)}, or for a scan every value run. A search
     * that gallops skips values; the sentence names them ({@link #notTried}) so that no conclusion claims a range
     * it did not run.
     */
    public String tried(String knob, IntFunction<String> shown) {
        if (!monotone) {
            return "tried " + knob + " = " + joined(List.copyOf(points.keySet()), shown) + " (every value, in order)";
        }
        StringBuilder b = new StringBuilder("tried " + knob + " = " + joined(doubled, shown) + " (doubling from 1");
        int last = doubled.isEmpty() ? 0 : doubled.get(doubled.size() - 1);
        if (last == bound && Integer.bitCount(bound) != 1) {
            b.append(", the bound ").append(shown.apply(bound)).append(" last");
        }
        b.append(')');
        if (!bisected.isEmpty()) {
            b.append(", then ").append(joined(bisected, shown)).append(" (bisection)");
        }
        String skipped = notTried(shown);
        if (!skipped.isEmpty()) {
            b.append("; not simulated: ").append(skipped);
        }
        return b.toString();
    }

    /** The values of 1..bound not simulated, neighbours joined as runs: {@code 3, 5-7, 9-15}; empty when none. */
    public String notTried(IntFunction<String> shown) {
        List<String> runs = new ArrayList<>();
        int v = 1;
        while (v <= bound) {
            if (points.containsKey(v)) {
                v++;
                continue;
            }
            int end = v;
            while (end + 1 <= bound && !points.containsKey(end + 1)) {
                end++;
            }
            runs.add(end == v ? shown.apply(v) : shown.apply(v) + "-" + shown.apply(end));
            v = end + 1;
        }
        return String.join(", ", runs);
    }

    /**
     * The conclusion when no value simulated met the target, for a finished search: it names only what was
     * simulated, and what the values skipped would do rests on monotonicity, which {@code violated} says the
     * points break.
     */
    public String noneMeets(String knob, IntFunction<String> shown, boolean violated) {
        String out = "no " + knob + " tried meets the target";
        String skipped = notTried(shown);
        if (skipped.isEmpty()) {
            return out + " (all " + bound + " of its values were simulated)";
        }
        return out + (violated ? "; the points break monotonicity, so a value not simulated (" + skipped
                + ") may still meet it" : "; under the monotonicity assumption none of those not simulated ("
                + skipped + ") would meet it either");
    }

    /**
     * For a finished search where no value meets: the largest values simulated that give the same figure
     * (within a millionth of the largest's), from the smallest of them, said plainly, since then more of the
     * knob buys nothing and the target needs another change; empty when the largest value's figure differs
     * from the value simulated before it (or only one value ran, or the largest failed).
     *
     * @param figure   what the search compares with the target ("p99", "steady cycle")
     * @param where    where the output says what holds the figure
     * @param violated whether the points break monotonicity: then values not simulated between the equal ones
     *                 may differ, so the line names only the values simulated and says so
     */
    public java.util.Optional<String> plateau(String knob, IntFunction<String> shown, String figure, String where,
            boolean violated) {
        if (points.size() < 2 || !Double.isFinite(points.lastEntry().getValue().p99())) {
            return java.util.Optional.empty();
        }
        Point last = points.lastEntry().getValue();
        int from = last.value();
        for (Point p : points.descendingMap().values()) {
            if (!Double.isFinite(p.p99()) || Math.abs(p.p99() - last.p99()) > 1e-6 * last.p99()) {
                break;
            }
            from = p.value();
        }
        if (from == last.value()) {
            return java.util.Optional.empty();
        }
        if (violated) {
            // a rise elsewhere in the points voids the monotone reading: say what was simulated, no more
            List<Integer> equal = new ArrayList<>(points.subMap(from, true, last.value(), true).keySet());
            return java.util.Optional.of(String.format(Locale.ROOT, "%s is %.4f s at every value of %s simulated from %s to "
                    + "%s (%s); the points break the monotone assumption (above), so values not simulated between "
                    + "them may differ (%s)", figure, last.p99(), knob, shown.apply(from), shown.apply(last.value()),
                    joined(equal, shown), where));
        }
        return java.util.Optional.of(String.format(Locale.ROOT, "%s stays at %.4f s from %s = %s to %s: above %s "
                + "this knob does not move it, so meeting the target takes another change (%s)", figure, last.p99(),
                knob, shown.apply(from), shown.apply(last.value()), shown.apply(from), where));
    }

    private static String joined(List<Integer> values, IntFunction<String> shown) {
        return String.join(", ", values.stream().map(shown::apply).toList());
    }

    public int evaluated() {
        return points.size();
    }

    /** The most points still to evaluate, whatever their outcomes. */
    public int maxRemaining() {
        if (!monotone) {
            return bound - points.size();
        }
        if (!galloping) {
            return bisectionProbes(firstMeet - lastMiss);
        }
        // Meet at some later gallop value: the gallop points up to it, then bisection below it.
        int worst = 0;
        int steps = 0;
        int miss = lastMiss;
        long v = nextGallop;
        while (true) {
            steps++;
            worst = Math.max(worst, steps + bisectionProbes((int) v - miss));
            if (v >= bound) {
                return worst;
            }
            miss = (int) v;
            v = Math.min(v * 2, bound);
        }
    }

    /** The most points this whole search evaluates. */
    public int mostPoints() {
        return monotone ? maxEvaluations(bound) : bound;
    }

    /** The most points a whole search over 1..{@code bound} evaluates. */
    public static int maxEvaluations(int bound) {
        return new SizingSearch(bound).maxRemaining();
    }

    /** Probes bisection needs in the worst case to close a bracket {@code width} apart: ceil(log2 width). */
    static int bisectionProbes(int width) {
        return width <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(width - 1);
    }

    /**
     * Where the points seen contradict monotonicity: each pair of neighbouring points (in knob order,
     * failed variants left out) whose p99 rises as the knob rises; a point that meets the target below
     * one that misses it would be such a rise. Empty when the points agree with the assumption.
     */
    public List<String> violations(String knob) {
        return violations(knob, Integer::toString, "p99");
    }

    /** As {@link #violations(String)}, with each value shown by {@code shown} and the figure named {@code figure}. */
    public List<String> violations(String knob, java.util.function.IntFunction<String> shown, String figure) {
        List<String> out = new ArrayList<>();
        if (!monotone) {
            return out; // a scan assumes nothing
        }
        List<Point> ok = points.values().stream().filter(p -> !Double.isNaN(p.p99())).toList();
        for (int i = 0; i + 1 < ok.size(); i++) {
            Point lo = ok.get(i);
            Point hi = ok.get(i + 1);
            if (hi.p99() > lo.p99() * (1 + RISE_TOLERANCE)) {
                // the rise itself, so a reader can tell a model effect of microseconds from one that moves the answer
                double rise = hi.p99() - lo.p99();
                out.add(String.format(Locale.ROOT, "%s rises from %.6g s at %s=%s to %.6g s at %s=%s (by %s, %s%%)",
                        figure, lo.p99(), knob, shown.apply(lo.value()), hi.p99(), knob, shown.apply(hi.value()),
                        org.rdmasim.hardware.Units.duration(rise),
                        org.rdmasim.hardware.Units.number(100 * rise / lo.p99())));
            }
        }
        return out;
    }
}
