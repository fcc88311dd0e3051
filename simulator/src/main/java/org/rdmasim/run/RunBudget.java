package org.rdmasim.run;

import java.util.Locale;
import org.rdmasim.scenario.Scenario;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.workload.FanoutPlan;

/**
 * What a scenario costs at the least, known before anything is built: the events its variants fire and
 * the heap one replication holds. A scenario whose least cost is over the limit is refused with the
 * estimate, the limit and what to change, instead of running out of heap after minutes or running for
 * hours. Both are lower bounds, so a refused run could never have finished; a run under them may still
 * be large (the progress line then shows its pace).
 *
 * @param events          events the variants fire at the least, replications and cycles included
 * @param liveBytes       heap one replication of the largest variant holds at the least
 * @param largestVariant  the variant that sets {@code liveBytes}
 * @param pulls           transfers or receiver pulls of that variant in one replication, cycles included
 */
public record RunBudget(long events, long liveBytes, String largestVariant, long pulls) {
    /**
     * Events a run may fire: at the 100,000 events per second the user path reaches on a striped fan-out
     * ({@code ./rdmasim bench --scenario scenarios/scale/fanout-4096-striped.yaml}), 10^8 is over a quarter
     * of an hour; more is a scenario written larger than meant.
     */
    public static final long MAX_EVENTS = 100_000_000L;

    /**
     * Heap a receiver's pull or a transfer holds at the least while in flight, with its lanes, flow and
     * result: measured with {@code bench --scenario} on 1,024, 4,096 and 8,192 striped receivers (peak live
     * heap 42, 91 and 133 MB: 12.7 KiB per receiver over 4 lanes, so 3 KiB for one lane is a floor).
     */
    static final long BYTES_PER_PULL = 3 * 1024;

    /** What the JVM and rdmasim's classes hold before a scenario is read (peak live heap of tiny runs). */
    static final long BASE_BYTES = 24L << 20;

    /** Events one pull fires at the least: its post or arrival, lane start, completion and end. */
    static final int EVENTS_PER_PULL = 4;

    /** The least cost of {@code scenario}. */
    public static RunBudget of(Scenario scenario) {
        long events = 0;
        long largestPulls = -1;
        String largest = "";
        for (VariantSpec v : scenario.variants()) {
            long pulls = pulls(v);
            events = saturatedAdd(events, saturatedMultiply(saturatedMultiply(pulls, scenario.replications()),
                    EVENTS_PER_PULL));
            long inFlight = v.isFanout() ? pulls / v.fanoutPlan().cycles().count() : pulls;
            if (inFlight > largestPulls) {
                largestPulls = inFlight;
                largest = v.name();
            }
        }
        return new RunBudget(events, saturatedAdd(BASE_BYTES, saturatedMultiply(Math.max(0, largestPulls),
                BYTES_PER_PULL)), largest, Math.max(0, largestPulls));
    }

    /** Receiver pulls (every receiver GPU, every cycle) or transfers of one replication of {@code v}. */
    static long pulls(VariantSpec v) {
        if (v.isFanout()) {
            FanoutPlan f = v.fanoutPlan();
            long perCycle = 0;
            for (FanoutPlan.Member r : f.receivers()) {
                perCycle += r.gpus().size();
            }
            return saturatedMultiply(perCycle, f.cycles().count());
        }
        if (v.isRefit()) {
            // at least one pull (or broadcast receive) per inference rank and cycle
            var r = v.refitSpec();
            return saturatedMultiply(r.inference().ranks(), r.cycles());
        }
        return v.transfers().size();
    }

    /** Refuses a run over either limit; {@code maxHeapBytes} is the Java heap's maximum. */
    public void check(long maxHeapBytes) {
        if (events > MAX_EVENTS) {
            throw new TooLarge(String.format(Locale.ROOT, "the scenario fires at least %,d events (receiver pulls or "
                    + "transfers x replications x cycles x %d), over the limit of %,d (at 100,000 events/s, over 15 "
                    + "minutes): lower replications, cycles or receivers", events, EVENTS_PER_PULL, MAX_EVENTS));
        }
        if (liveBytes > maxHeapBytes) {
            throw new TooLarge(String.format(Locale.ROOT, "variant '%s' needs at least %,d MiB of Java heap (%,d "
                    + "pulls in flight at %d KiB each at the least) and the heap has %,d MiB: run fewer receivers, or "
                    + "give more with RDMASIM_JAVA_OPTS=-Xmx<size>", largestVariant, liveBytes >> 20, pulls,
                    BYTES_PER_PULL >> 10, maxHeapBytes >> 20));
        }
    }

    private static long saturatedMultiply(long a, long b) {
        long r = a * b;
        return (a != 0 && (r / a != b || (a == -1 && b == Long.MIN_VALUE))) ? Long.MAX_VALUE : r;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** A run too large for the limits: bad input (exit 2), saying what to change. */
    public static final class TooLarge extends IllegalArgumentException {
        TooLarge(String message) {
            super(message);
        }
    }
}
