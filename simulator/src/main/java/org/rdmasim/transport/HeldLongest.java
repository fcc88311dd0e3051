package org.rdmasim.transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdmasim.engine.SimulationClock;
import org.rdmasim.hardware.Bottleneck;

/**
 * The one rule for what bounds a lane or a transfer: the limit that held it longest, by seconds. Not the
 * limit that carried the most bytes, nor the one a transfer's last lane ended under: a lane held to a third
 * of its rate by a shared link for most of its life carries fewer bytes than in its last, unshared part, yet
 * that share is what set its length. A transfer's bound is the limit that held its last lane longest
 * ({@link #ofTransfer}).
 * Limits whose holds are equal within {@link #TIE} of the longest are a {@link Bottleneck.Tie}, named
 * together: two NICs each at their line rate the whole time bind the transfer equally.
 */
public final class HeldLongest {
    /** Holds this close (relative) count as the same time: sums of the same seconds in another order differ in the last bits. */
    static final double TIE = 1e-9;

    /**
     * Lanes ending this close (seconds) finished together. Absolute, not a share of the clock reading: which
     * lanes were last is a property of the transfer, not of when in the run it ended (a billionth of the clock
     * gave a transfer ending at 1 ms one picosecond, less than a byte at 400 Gbps, and one ending at 1,000 s a
     * microsecond, 50 kB). One nanosecond is far above the rounding of two computations of one finish time (a
     * double near 10^6 s is exact to 1.2e-10 s) and far below the shortest time the model charges (an
     * InfiniBand switch hop, ~130 ns: {@link org.rdmasim.hardware.FabricSpec}); past 1,000 s the clock's own
     * instant ({@link SimulationClock#SAME_INSTANT}) is wider and is used.
     */
    static final double TOGETHER_SECONDS = 1e-9;

    private HeldLongest() {
    }

    /** The bound of one lane from its holds, each limit once ({@code alone} when it has none: one limit all its life). */
    public static Bottleneck ofLane(List<LaneResult.Held> held, Bottleneck alone) {
        if (held.isEmpty()) {
            return alone;
        }
        Map<Bottleneck, Double> longest = new LinkedHashMap<>();
        for (LaneResult.Held h : held) {
            longest.merge(h.limit(), h.seconds(), Double::sum);
        }
        return longestOf(longest);
    }

    /**
     * The bound of a transfer: the limit that held its last lane longest. The transfer ends when its last lane
     * does, so that lane's holds are what it waited through; a lane that finished earlier set nothing, however
     * long it was held. Lanes that finish together (within {@link #TOGETHER_SECONDS}) are all last, and their
     * limits compete on the longest each held one of them.
     */
    public static Bottleneck ofTransfer(List<LaneResult> lanes) {
        int n = lanes.size();
        double end = Double.NEGATIVE_INFINITY;
        int room = 0;
        for (int i = 0; i < n; i++) {
            LaneResult lane = lanes.get(i);
            end = Math.max(end, lane.finishSeconds());
            room += Math.max(1, lane.heldOverTime().size());
        }
        double together = Math.max(TOGETHER_SECONDS, SimulationClock.SAME_INSTANT * Math.abs(end));
        // Each limit once with the longest it held one of the last lanes, in the order first met, as a
        // LinkedHashMap merged with max would keep them, but searched in place: a transfer's last lanes
        // meet a handful of limits, and this runs at every transfer's end. The map hashed each limit, a
        // record whose generated hashCode runs through method handles the launcher's C1 compiler does
        // not inline (with the boxed seconds, ~5% of a 65,536-receiver fan-out's event loop, perf).
        Bottleneck[] limits = new Bottleneck[room];
        double[] seconds = new double[room];
        int count = 0;
        for (int i = 0; i < n; i++) {
            LaneResult lane = lanes.get(i);
            if (lane.finishSeconds() < end - together) {
                continue;
            }
            List<LaneResult.Held> held = lane.heldOverTime();
            if (held.isEmpty()) {
                // holds(lane): one limit, the lane's whole time
                count = keepLongest(limits, seconds, count, lane.limiter(),
                        Math.max(0, lane.finishSeconds() - lane.startSeconds()));
            } else {
                for (int k = 0; k < held.size(); k++) {
                    LaneResult.Held h = held.get(k);
                    count = keepLongest(limits, seconds, count, h.limit(), h.seconds());
                }
            }
        }
        if (count == 0) {
            return Bottleneck.Plain.NONE;
        }
        double top = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < count; j++) {
            top = Math.max(top, seconds[j]);
        }
        List<Bottleneck> tied = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            if (seconds[j] >= top - TIE * Math.abs(top)) {
                tied.add(limits[j]);
            }
        }
        return tied.size() == 1 ? tied.get(0) : new Bottleneck.Tie(tied);
    }

    /**
     * Records that {@code limit} held a last lane {@code s} seconds: the longer of that and what it holds
     * already, or a new entry after the {@code count} kept (equal limits are one, as map keys are).
     *
     * @return how many limits are kept now
     */
    private static int keepLongest(Bottleneck[] limits, double[] seconds, int count, Bottleneck limit, double s) {
        for (int j = 0; j < count; j++) {
            if (sameLimit(limits[j], limit)) {
                seconds[j] = Math.max(seconds[j], s);
                return count;
            }
        }
        limits[count] = limit;
        seconds[count] = s;
        return count + 1;
    }

    /**
     * {@code Objects.equals(a, b)}, answered without the records' generated {@code equals} where it can be:
     * that runs through method handles the launcher's C1 compiler does not inline (~1% of a
     * 65,536-receiver fan-out's event loop, JFR), and most pairs met here are one object (a lane's limit is
     * its resource's) or of two kinds. Every limit is a record or an enum constant, so equal ones are of
     * one class and an object equals itself.
     */
    private static boolean sameLimit(Bottleneck a, Bottleneck b) {
        if (a == b) {
            return true;
        }
        return a != null && b != null && a.getClass() == b.getClass() && a.equals(b);
    }

    /** The holds with each limit once, its seconds summed, in the order first met. */
    public static List<LaneResult.Held> merged(List<LaneResult.Held> held) {
        Map<Bottleneck, Double> sum = new LinkedHashMap<>();
        for (LaneResult.Held h : held) {
            sum.merge(h.limit(), h.seconds(), Double::sum);
        }
        if (sum.size() == held.size()) {
            return held;
        }
        List<LaneResult.Held> out = new ArrayList<>(sum.size());
        sum.forEach((limit, seconds) -> out.add(new LaneResult.Held(limit, seconds)));
        return out;
    }

    /** Each limit the lane met with its seconds (one limit: the lane's whole time). */
    public static List<LaneResult.Held> holds(LaneResult lane) {
        if (!lane.heldOverTime().isEmpty()) {
            return lane.heldOverTime();
        }
        return List.of(new LaneResult.Held(lane.limiter(), Math.max(0, lane.finishSeconds() - lane.startSeconds())));
    }

    private static Bottleneck longestOf(Map<Bottleneck, Double> seconds) {
        List<Bottleneck> tied = longest(seconds);
        return tied.size() == 1 ? tied.get(0) : new Bottleneck.Tie(tied);
    }

    /**
     * What held longest, by this class's rule, whatever names it: every key whose seconds are within {@link #TIE}
     * of the longest, in the order met (one key when one held longest, several when they tie, none when
     * {@code seconds} is empty). A refit's stages name GPU work and wire limits alike by it.
     */
    public static <K> List<K> longest(Map<K, Double> seconds) {
        double top = Double.NEGATIVE_INFINITY;
        for (double s : seconds.values()) {
            top = Math.max(top, s);
        }
        List<K> tied = new ArrayList<>();
        for (Map.Entry<K, Double> e : seconds.entrySet()) {
            if (e.getValue() >= top - TIE * Math.abs(top)) {
                tied.add(e.getKey());
            }
        }
        return tied;
    }
}
