package org.rdmasim.sizing;

import java.util.ArrayList;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rdmasim.hardware.Units;
import org.rdmasim.run.FirstLaneDecision;
import org.rdmasim.run.VariantRunner;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.ucx.LaneDecision;
import org.rdmasim.transport.ucx.LaneVerdict;
import org.rdmasim.transport.ucx.StackProfile;
import org.rdmasim.workload.VariantOutcome;

/**
 * Which NICs carry a point's data and which UCX was given but dropped, from UCX's lane decision for the first
 * transfer {@code explain} shows ({@link FirstLaneDecision}), and the UCX install that decision assumed: a knob
 * that lists more NICs (or allows more rails) buys nothing past what UCX's lane selection keeps, and the table
 * says which those are.
 *
 * @param process  the process whose lanes these are, e.g. {@code receiver:GPU0}
 * @param carrying NICs with a lane UCX picked, in lane order
 * @param dropped  NICs UCX had as candidates (listed in UCX_NET_DEVICES, or all when it says {@code all}) and gave
 *                 no lane, each with why: its bandwidth under the ratio filter, over the rail limit, or not holding
 *                 the buffer's registration
 * @param install  the UCX install assumed, as {@code explain} names it: {@code nixl-wheel (not stated: ...)}
 * @param readsUcxConf whether that install reads the ucx.conf its UCX release ships
 */
public record NicLanes(String process, List<String> carrying, Map<String, String> dropped, String install,
        boolean readsUcxConf) {
    /** No UCX lane decision: the lanes are given, the backend chooses its own, or the point failed. */
    public static final NicLanes NONE = new NicLanes("", List.of(), Map.of(), "", false);

    public NicLanes {
        carrying = List.copyOf(carrying);
        dropped = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
    }

    /** The NICs of the point simulated as {@code v}, whose run was {@code outcome} over the registrations {@code held}. */
    static NicLanes of(VariantSpec v, VariantOutcome outcome, VariantRunner.Held held) {
        return FirstLaneDecision.of(v, outcome, held).map(s -> of(s.process(), s.decision(), v.transport().stack()))
                .orElse(NONE);
    }

    static NicLanes of(String process, LaneDecision d, StackProfile stack) {
        List<String> carrying = new ArrayList<>();
        Map<String, String> dropped = new LinkedHashMap<>();
        d.nicVerdicts().forEach((nic, verdict) -> {
            if (verdict == LaneVerdict.PICKED) {
                carrying.add(nic);
            } else {
                dropped.put(nic, switch (verdict) {
                    case DROPPED_AT_WIREUP -> "bandwidth x UCX_MULTI_LANE_MAX_RATIO=" + Units.number(d.ratio())
                            + " below the best wired lane's, at wireup";
                    case DROPPED_BY_RATIO -> "bandwidth x UCX_MULTI_LANE_MAX_RATIO=" + Units.number(d.ratio())
                            + " below the best lane's";
                    case OVER_RAIL_LIMIT -> "over the rail limit " + d.railLimitName() + "=" + d.railLimit();
                    default -> verdict.words();
                });
            }
        });
        return new NicLanes(process, carrying, dropped, stack.install().yamlName() + " ("
                + stack.installStatedWhere() + ")", stack.install().readsUcxConf());
    }

    boolean known() {
        return !process.isEmpty();
    }

    /** {@code carry data: mlx5_0, mlx5_1; listed, dropped by UCX: mlx5_2 (why)}. */
    String words() {
        StringBuilder b = new StringBuilder("carry data: " + String.join(", ", carrying));
        if (!dropped.isEmpty()) {
            // NICs dropped for one reason share it
            Map<String, List<String>> byWhy = new LinkedHashMap<>();
            dropped.forEach((nic, why) -> byWhy.computeIfAbsent(why, k -> new ArrayList<>()).add(nic));
            List<String> parts = new ArrayList<>();
            byWhy.forEach((why, nics) -> parts.add(String.join(", ", nics) + " (" + why + ")"));
            b.append("; listed, dropped by UCX: ").append(String.join("; ", parts));
        }
        return b.toString();
    }

    /**
     * The lines after a table's points: each point's NICs, then the install assumed; nothing when no point had a
     * UCX lane decision.
     */
    static void table(Formatter t, List<SimulatedPoint> points, String knob, IntFunction<String> shown) {
        List<SimulatedPoint> known = points.stream().filter(r -> r.lanes().known()).toList();
        if (known.isEmpty()) {
            return;
        }
        NicLanes first = known.get(0).lanes();
        // the first transfer's initiator can change with the knob (inference TP moves which GPU reads first): a
        // heading naming one process would then name the wrong one for the other points
        boolean oneProcess = known.stream().allMatch(r -> r.lanes().process().equals(first.process()));
        if (oneProcess) {
            t.format("NICs at each point (UCX's lane choice for %s's first transfer, as explain shows it):%n",
                    first.process());
        } else {
            t.format("NICs at each point (UCX's lane choice for the first transfer, as explain shows it, by the "
                    + "process that initiates it at that point):%n");
        }
        int width = known.stream().mapToInt(r -> shown.apply(r.value()).length()).max().orElse(1) + knob.length() + 1;
        for (SimulatedPoint r : known) {
            t.format("  %-" + width + "s  %s%s%n", knob + "=" + shown.apply(r.value()),
                    oneProcess ? "" : r.lanes().process() + ": ", r.lanes().words());
        }
        t.format("UCX install assumed: %s: %s%n", first.install(), first.readsUcxConf() ? "UCX reads its ucx.conf"
                : "UCX finds no ucx.conf");
    }

    /** The point's sizing.json fields: {@code lanes} {process, carrying, dropped [{nic, why}]}, when known. */
    void putTo(ObjectNode n) {
        if (!known()) {
            return;
        }
        ObjectNode l = n.putObject("lanes");
        l.put("process", process);
        ArrayNode c = l.putArray("carrying");
        carrying.forEach(c::add);
        ArrayNode d = l.putArray("dropped");
        dropped.forEach((nic, why) -> d.addObject().put("nic", nic).put("why", why));
    }

    /** sizing.json's {@code ucxInstall} {install, readsUcxConf}, from the first point with a UCX lane decision. */
    static void putInstall(ObjectNode root, List<SimulatedPoint> points) {
        points.stream().map(SimulatedPoint::lanes).filter(NicLanes::known).findFirst().ifPresent(l -> {
            ObjectNode i = root.putObject("ucxInstall");
            i.put("install", l.install());
            i.put("readsUcxConf", l.readsUcxConf());
        });
    }
}
