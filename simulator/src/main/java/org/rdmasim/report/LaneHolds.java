package org.rdmasim.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.rdmasim.hardware.Bottleneck;
import org.rdmasim.hardware.Units;
import org.rdmasim.transport.LaneResult;
import org.rdmasim.transport.TransferResult;
import org.rdmasim.workload.RunResult;

/**
 * What held a lane, or a transfer's lanes, over time: each limit with the seconds it held them. A lane's
 * {@link LaneResult#limiter()} and a transfer's bound are the limit that held it longest
 * ({@link org.rdmasim.transport.HeldLongest}, the one rule); this says how long each held it.
 */
final class LaneHolds {
    /** A limit that holds less of a lane's time than this is left out of its words. */
    private static final double SHOWN_SHARE = 0.01;

    private LaneHolds() {
    }

    /** Each limit the lane met with its seconds, in the order met (one limit: the lane's whole time). */
    static List<LaneResult.Held> of(LaneResult lane) {
        return org.rdmasim.transport.HeldLongest.holds(lane);
    }

    /**
     * What held the lane, in words: its limit, or, when it met several, each that held at least 1% of its time
     * with its share, longest first ("A for 60% of its time and B for 40%"; not in the order met: a limit met
     * twice, at the start and the end, is one entry).
     */
    static String words(LaneResult lane) {
        List<LaneResult.Held> met = lane.heldOverTime();
        double total = met.stream().mapToDouble(LaneResult.Held::seconds).sum();
        List<LaneResult.Held> shown = met.stream().filter(h -> total > 0 && h.seconds() >= SHOWN_SHARE * total)
                .sorted(java.util.Comparator.comparingDouble(LaneResult.Held::seconds).reversed()).toList();
        if (shown.size() <= 1) {
            return shown.isEmpty() ? lane.limiter().words() : shown.get(0).limit().words();
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < shown.size(); i++) {
            LaneResult.Held h = shown.get(i);
            b.append(i == 0 ? "" : i == shown.size() - 1 ? " and by " : ", by ").append(h.limit().words())
                    .append(" for ").append(percent(h.seconds() / total)).append(i == 0 ? " of its time" : "");
        }
        return b.toString();
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    /**
     * The GPU link (PCIe, or NVLink-C2C on a Grace superchip) of one end of a transfer that held its lanes
     * longer than any other limit did: the cut every lane of the transfer crosses, so while it holds them the
     * NICs behind it cannot go faster.
     *
     * @param link     the link, in one direction
     * @param lanes    how many of the transfer's lanes it held
     * @param share    the longest it held one of them, over the transfer's time
     * @param leastShare the shortest it held one of them (the clause says "up to" when the two differ)
     * @param floor    the transfer's bytes over the link's capacity: the least time the transfer can take
     * @param gbps     the link's capacity
     * @param ofLanes  the transfer's lanes
     * @param bytes    the transfer's bytes
     */
    record GpuLink(Bottleneck.Link link, int lanes, int ofLanes, double share, double leastShare, double floor,
            double gbps, long bytes) {
        /**
         * Said after the limit of the lane that finished last ({@code limiter}): "; GPU0's PCIe link on source
         * (towards the CPU) (451.2 Gbps) held all 4 lanes for 60% of the pull, longer than any other limit:
         * through that link alone 16 GB take at least 0.2837 s, the GPU-link floor"; when that limit is the link
         * itself, only what it held and its floor.
         */
        String clause(Bottleneck limiter) {
            String held = (lanes == ofLanes ? (ofLanes == 1 ? "its lane" : "all " + ofLanes + " lanes")
                    : lanes + " of its " + ofLanes + " lanes")
                    // the share is the longest one lane was held: said as such when the lanes' holds differ
                    + (percent(leastShare).equals(percent(share)) ? " for " : " for up to ") + percent(share);
            String floorWords = "through that link alone " + org.rdmasim.hardware.Units.number(bytes / 1e9)
                    + " GB take at least " + org.rdmasim.hardware.Units.number(floor) + " s, the GPU-link floor";
            if (link.equals(limiter)) {
                return " (" + org.rdmasim.hardware.Units.number(gbps) + " Gbps; it held " + held
                        + " of the pull: " + floorWords + ")";
            }
            return "; " + link.words() + " (" + org.rdmasim.hardware.Units.number(gbps) + " Gbps) held " + held
                    + " of the pull, longer than any other limit: " + floorWords;
        }
    }

    /**
     * The GPU link that held the last transfer into {@code receiver} longest, when one did; none for a fan-out
     * (its receivers are hosts, not one transfer's end) or when another limit held the lanes longer.
     */
    static Optional<GpuLink> gpuLink(RunResult result, ReceiverSummary.Receiver receiver) {
        if (result.fanout() != null || result.refit() != null) {
            return Optional.empty();
        }
        TransferResult last = null;
        for (TransferResult t : result.transfers()) {
            if (!t.failed() && t.spec().sink().toString().equals(receiver.id())
                    && (last == null || t.finishSeconds() > last.finishSeconds())) {
                last = t;
            }
        }
        if (last == null || last.lanes().isEmpty()) {
            return Optional.empty();
        }
        double span = last.finishSeconds() - last.startSeconds();
        // per limit, the longest it held one lane, and how many lanes it held
        Map<Bottleneck, double[]> longest = new LinkedHashMap<>();
        for (LaneResult lane : last.lanes()) {
            for (LaneResult.Held h : of(lane)) {
                double[] v = longest.computeIfAbsent(h.limit(), k -> new double[] {0, 0, Double.MAX_VALUE});
                v[0] = Math.max(v[0], h.seconds());
                v[1]++;
                v[2] = Math.min(v[2], h.seconds());
            }
        }
        // the transfer's bound, by the one rule (HeldLongest): the limit that held one of its lanes longest
        Bottleneck top = last.bottleneck();
        if (!(top instanceof Bottleneck.Link link) || span <= 0) {
            return Optional.empty();
        }
        boolean atAnEnd = List.of(last.spec().source(), last.spec().sink()).stream()
                .anyMatch(e -> e.host().equals(link.host()) && e.device().equals(link.device()));
        if (!atAnEnd) {
            return Optional.empty();
        }
        double capacity = 0;
        for (RunResult.ResourceUsage r : result.resources()) {
            if (r.limit().id().equals(link.id())) {
                capacity = r.capacityBytesPerSecond();
            }
        }
        if (capacity <= 0) {
            return Optional.empty();
        }
        double[] v = longest.get(top);
        long bytes = last.spec().bytes();
        return Optional.of(new GpuLink(link, (int) v[1], last.lanes().size(), v[0] / span, v[2] / span,
                bytes / capacity, Units.bytesPerSecondToGbps(capacity), bytes));
    }
}
