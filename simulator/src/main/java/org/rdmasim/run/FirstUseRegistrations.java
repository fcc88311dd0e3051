package org.rdmasim.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.LanePolicy;
import org.rdmasim.transport.Operation;
import org.rdmasim.transport.ucx.UcxLaneSelection;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TransferItem;

/**
 * The HCAs on which UCX registers an initiator's buffer when a lane first uses it. {@code ucp_mem_map}
 * registers a buffer where {@code UCX_MAX_HCA_PER_GPU} lets it; a lane is wired to a remote device when the
 * endpoint is made and survives when that device is in the remote buffer's rkey, whatever the initiator's own
 * memh holds; a lane whose local md the memh lacks registers it there first ({@code
 * ucp_datatype_iter_mem_reg_single} calls {@code ucp_memh_register}, openucx/ucx v1.20.0
 * src/ucp/dt/datatype_iter.inl L276-282). Those registrations cost time, MRs and firmware memory like any
 * other, so the run counts them with the rest; the rkeys the lanes are chosen by stay the ones exchanged
 * before the first transfer.
 *
 * <p>Decided with the lane selection the run uses, once per pair of registered host groups, devices and
 * operation. A fan-out's receivers pull from every source (and in a tree from other receivers) as its
 * plan's pulls do.
 */
final class FirstUseRegistrations {
    private FirstUseRegistrations() {
    }

    /** Host, then device, to the HCAs registered at first use; empty when none or when UCX does not choose lanes. */
    static Map<String, Map<String, Set<String>>> of(VariantSpec v, List<Host> hosts, VariantRegistrations byMemMap) {
        if (v.isRefit() || !v.transport().lanes().isEmpty()) {
            return Map.of();
        }
        LanePolicy policy = v.transport().backend().lanes(v.transport().stack(), VariantRunner.held(byMemMap).lanes());
        if (!(policy instanceof UcxLaneSelection selection)) {
            return Map.of();
        }
        Hosts cluster = Hosts.of(hosts);
        Map<String, String> representativeOf = byMemMap.representativeOf();
        Map<List<Object>, List<String>> decided = new HashMap<>();
        Map<String, Map<String, Set<String>>> out = new LinkedHashMap<>();
        if (!v.isFanout()) {
            for (TransferItem t : v.transfers()) {
                add(out, t, decide(v, cluster, selection, representativeOf, decided, t));
            }
            return out;
        }
        // a fan-out: one receiver of each registered group pulls from one member of each group it pulls from, and
        // every receiver of its group takes the answer
        FanoutPlan plan = v.fanoutPlan();
        List<FanoutPlan.Member> from = new ArrayList<>(plan.sources());
        if (plan.tree() != null) {
            from.addAll(plan.receivers());
        }
        Map<String, FanoutPlan.Member> firstOfGroup = new LinkedHashMap<>();
        for (FanoutPlan.Member s : from) {
            firstOfGroup.putIfAbsent(group(representativeOf, s.host()), s);
        }
        Map<String, List<FanoutPlan.Member>> receiversByGroup = new LinkedHashMap<>();
        for (FanoutPlan.Member r : plan.receivers()) {
            receiversByGroup.computeIfAbsent(group(representativeOf, r.host()), g -> new ArrayList<>()).add(r);
        }
        for (List<FanoutPlan.Member> group : receiversByGroup.values()) {
            FanoutPlan.Member first = group.get(0);
            for (FanoutPlan.Member s : firstOfGroup.values()) {
                if (s.host().equals(first.host())) {
                    continue; // a tree receiver does not pull from itself
                }
                for (TransferItem t : plan.pulls(first, s)) {
                    List<String> nics = decide(v, cluster, selection, representativeOf, decided, t);
                    for (FanoutPlan.Member r : group) {
                        add(out, new TransferItem(t.id(), t.from(), new Endpoint(r.host(), t.to().device()), t.bytes(),
                                0, t.operation(), t.descriptors()), nics);
                    }
                }
            }
        }
        return out;
    }

    private static String group(Map<String, String> representativeOf, String host) {
        return representativeOf.getOrDefault(host, host);
    }

    /** UCX's first-use HCAs for {@code t}, decided once per pair of groups, devices and operation. */
    private static List<String> decide(VariantSpec v, Hosts cluster, UcxLaneSelection selection,
            Map<String, String> representativeOf, Map<List<Object>, List<String>> decided, TransferItem t) {
        Endpoint initiator = initiator(t);
        Endpoint remote = t.operation() == Operation.READ ? t.from() : t.to();
        List<Object> key = List.of(group(representativeOf, initiator.host()), initiator.device(),
                group(representativeOf, remote.host()), remote.device(), t.operation());
        return decided.computeIfAbsent(key,
                k -> selection.decide(cluster, FirstLaneDecision.spec(v, cluster, t)).registeredAtFirstUse());
    }

    private static Endpoint initiator(TransferItem t) {
        return t.operation() == Operation.READ ? t.to() : t.from();
    }

    private static void add(Map<String, Map<String, Set<String>>> out, TransferItem t, List<String> nics) {
        if (!nics.isEmpty()) {
            Endpoint initiator = initiator(t);
            out.computeIfAbsent(initiator.host(), h -> new LinkedHashMap<>())
                    .computeIfAbsent(initiator.device(), d -> new LinkedHashSet<>()).addAll(nics);
        }
    }
}
