package org.rdmasim.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.hardware.Hosts;
import org.rdmasim.hardware.TopologyNode;
import org.rdmasim.memory.MemoryRegion;
import org.rdmasim.memory.RegistrationModel;
import org.rdmasim.memory.RegistrationParts;
import org.rdmasim.memory.RegistrationPlan;
import org.rdmasim.memory.RegistrationTotals;
import org.rdmasim.memory.VariantRegistration.Buffer;
import org.rdmasim.memory.VariantRegistration;
import org.rdmasim.scenario.TransportSettings;
import org.rdmasim.scenario.VariantSpec;
import org.rdmasim.transport.Endpoint;
import org.rdmasim.transport.backend.RegistrationSites;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TransferItem;

/**
 * The registrations a variant's run makes, for either workload shape. First the buffers each host's
 * processes register ({@link #buffersByHost}: a fan-out's from its plan, a transfer list's from its
 * endpoints); then, since hosts of one shape holding the same buffers register identically, one host per
 * group is registered for all of it (16k identical receivers, or a list of 4,096 transfers to one counted
 * group, cost one plan) and the totals count every host: sums over all of them, and as wall the slowest
 * host's slowest process, hosts registering side by side ({@link RegistrationTotals}).
 *
 * <p>The first host of a group, in the order the buffers list hosts, registers for it, so a failure names
 * the host, with the text, that registering every host in that order would.
 */
final class VariantRegistrations {
    private final VariantRegistration.Outcome outcome;
    private final RegistrationParts parts;
    private final Map<String, String> representativeOf;
    private final Set<Buffer> kept;
    /** The registrations {@code ucp_mem_map} made, whose rkeys the peers hold: this, unless lanes added to it. */
    private final VariantRegistrations byMemMap;

    private VariantRegistrations(VariantRegistration.Outcome outcome, RegistrationParts parts,
            Map<String, String> representativeOf, Set<Buffer> kept, VariantRegistrations byMemMap) {
        this.outcome = outcome;
        this.parts = parts;
        this.representativeOf = Map.copyOf(representativeOf);
        this.kept = Set.copyOf(kept);
        this.byMemMap = byMemMap == null ? this : byMemMap;
    }

    /**
     * Registers the variant's buffers on {@code hosts} (the variant's, in cluster order): as {@code ucp_mem_map}
     * places them, then on the HCAs lanes register an initiator's buffer on at first use
     * ({@link FirstUseRegistrations}), when there are any.
     */
    static VariantRegistrations of(VariantSpec v, List<Host> hosts) {
        VariantRegistration.Sites sites = VariantRunner.sites(v);
        VariantRegistrations byMemMap = of(v, hosts, sites, Map.of(), null);
        if (!byMemMap.outcome.passed()) {
            return byMemMap;
        }
        Map<String, Map<String, Set<String>>> late = FirstUseRegistrations.of(v, hosts, byMemMap);
        if (late.isEmpty()) {
            return byMemMap;
        }
        VariantRegistration.Sites withLate = (host, device) -> {
            RegistrationSites where = sites.of(host, device);
            Set<String> nics = late.getOrDefault(host.name(), Map.of()).get(device);
            return nics != null && where instanceof RegistrationSites.ByUcxConfig ucx ? ucx.withFirstUse(nics) : where;
        };
        return of(v, hosts, withLate, late, byMemMap);
    }

    /** The registrations whose rkeys the peers hold, as {@code ucp_mem_map} made them, before any first use. */
    VariantRegistrations byMemMap() {
        return byMemMap;
    }

    private static VariantRegistrations of(VariantSpec v, List<Host> hosts, VariantRegistration.Sites sites,
            Map<String, Map<String, Set<String>>> late, VariantRegistrations byMemMap) {
        Map<String, Host> byName = new HashMap<>();
        hosts.forEach(h -> byName.put(h.name(), h));
        Set<Buffer> kept = new HashSet<>();
        Map<String, List<Buffer>> buffers = buffersByHost(v, hosts, kept);
        // Groups in the order the buffers list hosts, keyed by shape and buffers. A counted host group
        // shares one spec instance: identity is enough and avoids deep hashing.
        Map<HostSpec, Integer> shapes = new IdentityHashMap<>();
        Map<List<Object>, String> groups = new HashMap<>();
        Map<String, String> representativeOf = new LinkedHashMap<>();
        Map<String, Integer> groupSize = new LinkedHashMap<>();
        List<Host> representatives = new ArrayList<>();
        List<Buffer> registered = new ArrayList<>();
        for (Map.Entry<String, List<Buffer>> e : buffers.entrySet()) {
            Host h = byName.get(e.getKey());
            List<Object> key = List.of(shapes.computeIfAbsent(h.spec(), x -> shapes.size()),
                    e.getValue().stream().map(Buffer::region).toList(), late.getOrDefault(h.name(), Map.of()));
            String first = groups.putIfAbsent(key, h.name());
            if (first == null) {
                representatives.add(h);
                registered.addAll(e.getValue());
            }
            String representative = first == null ? h.name() : first;
            representativeOf.put(h.name(), representative);
            groupSize.merge(representative, 1, Integer::sum);
        }
        VariantRegistration.Outcome reps = VariantRegistration.registerOnSites(representatives, sites,
                registered, new RegistrationModel(v.registration().parameters()), v.registration().caps());
        Map<String, RegistrationTotals> totalsOf = new HashMap<>();
        Map<String, RegistrationParts> partsOf = new HashMap<>();
        reps.hosts().forEach(h -> {
            totalsOf.put(h.host(), h.totals());
            partsOf.put(h.host(), RegistrationParts.of(h.plans()));
        });
        RegistrationTotals totals = RegistrationTotals.ZERO;
        RegistrationParts parts = RegistrationParts.ZERO;
        if (v.isFanout()) {
            // A group's totals times its size, group by group, as fan-outs have always been totalled: adding
            // member by member moves registrationSeconds in its last bits (fanout-256-pin-vs-stripe-vs-tree:
            // 48.17140298507462 s becomes 48.1714029850744 s), which the committed reports would show.
            for (Map.Entry<String, Integer> g : groupSize.entrySet()) {
                totals = totals.plus(totalsOf.get(g.getKey()).times(g.getValue()));
                parts = parts.plus(partsOf.get(g.getKey()).times(g.getValue()));
            }
        } else {
            // Every host's own, in order: the same sums, to the last bit, as registering each host.
            for (String representative : representativeOf.values()) {
                totals = totals.plus(totalsOf.get(representative));
                parts = parts.plus(partsOf.get(representative));
            }
        }
        return new VariantRegistrations(new VariantRegistration.Outcome(totals, reps.hosts()), parts, representativeOf,
                kept, byMemMap);
    }

    /** One host per group (in the order registered), the totals over every host. */
    VariantRegistration.Outcome outcome() {
        return outcome;
    }

    /**
     * The totals of {@link #outcome()} in {@code ucp_mem_map}'s part and the lanes' first-use part, summed in the
     * same order (with no first use, the totals and nothing).
     */
    RegistrationParts parts() {
        return parts;
    }

    /** Each host with buffers, mapped to the host registered for it (itself when first of its group). */
    Map<String, String> representativeOf() {
        return representativeOf;
    }

    /**
     * The registration a fan-out cycle waits for: the wall of {@link RegistrationTotals} (whose rule says who
     * waits for whom) over the buffers the cycle registers; the first cycle's is the variant's wall. Only
     * the first cycle waits for what a process registers once and keeps: UCX's rendezvous fragment pool
     * belongs to the process's worker, which frees it only when it is destroyed
     * ({@code ucp_worker_destroy_mpools}, openucx/ucx v1.20.0 src/ucp/core/ucp_worker.c L2032-2044), so a
     * later cycle takes fragments from the chunk its first allocated and registered.
     */
    double cycleSeconds(boolean first) {
        double slowest = 0;
        for (VariantRegistration.HostOutcome h : outcome.hosts()) {
            List<RegistrationPlan> paid = h.plans().stream()
                    .filter(p -> first || !kept.contains(new Buffer(h.host(), p.region(), p.process()))).toList();
            slowest = Math.max(slowest, RegistrationTotals.of(paid).wallSeconds());
        }
        return slowest;
    }

    /**
     * The buffers each host's processes register, host by host in the order they register: a fan-out's
     * sources then receivers, in plan order; a transfer list's hosts in cluster order. Hosts without
     * buffers are left out. After a host's own buffers come the bounce fragments its backend registers for
     * them, whichever the workload's shape, also added to {@code kept}: a process registers them once.
     */
    static Map<String, List<Buffer>> buffersByHost(VariantSpec v, List<Host> hosts, Set<Buffer> kept) {
        Hosts cluster = Hosts.of(hosts);
        Map<String, List<Buffer>> out = v.isFanout() ? fanoutBuffers(v.fanoutPlan()) : transferBuffers(v, hosts, cluster);
        out.forEach((host, buffers) -> {
            List<Buffer> bounce = bounceFragments(v, cluster.host(host), buffers);
            buffers.addAll(bounce);
            kept.addAll(bounce);
        });
        return out;
    }

    /** Each receiver GPU registers the bytes it pulls, each source GPU what it serves. */
    private static Map<String, List<Buffer>> fanoutBuffers(FanoutPlan plan) {
        Map<String, List<Buffer>> out = new LinkedHashMap<>();
        int gpusPerReceiver = plan.receivers().get(0).gpus().size();
        for (FanoutPlan.Member source : plan.sources()) {
            List<Buffer> list = new ArrayList<>();
            for (int k = 0; k < source.gpus().size(); k++) {
                list.add(Buffer.gpu(source.host(), source.gpus().get(k),
                        plan.bytesForGpu(Math.min(k, gpusPerReceiver - 1), gpusPerReceiver)));
            }
            out.computeIfAbsent(source.host(), h -> new ArrayList<>()).addAll(list);
        }
        for (FanoutPlan.Member receiver : plan.receivers()) {
            List<Buffer> list = new ArrayList<>();
            int n = receiver.gpus().size();
            for (int k = 0; k < n; k++) {
                list.add(Buffer.gpu(receiver.host(), receiver.gpus().get(k), plan.bytesForGpu(k, n)));
            }
            // a host that both serves and pulls registers both (the plan does not forbid it)
            out.computeIfAbsent(receiver.host(), h -> new ArrayList<>()).addAll(list);
        }
        return out;
    }

    /**
     * Every endpoint once, at the most bytes it moves, where the transfers first name it (GPU memory on a
     * GPU, host memory on a CPU socket); hosts in cluster order.
     */
    private static Map<String, List<Buffer>> transferBuffers(VariantSpec v, List<Host> hosts, Hosts cluster) {
        Map<String, Endpoint> endpoints = new LinkedHashMap<>();
        Map<String, Long> sizes = new HashMap<>();
        for (TransferItem t : v.transfers()) {
            for (Endpoint e : List.of(t.from(), t.to())) {
                String name = e.toString();
                endpoints.putIfAbsent(name, e);
                sizes.merge(name, t.bufferBytes(), Math::max);
            }
        }
        Map<String, List<Buffer>> perHost = new HashMap<>();
        for (Map.Entry<String, Endpoint> en : endpoints.entrySet()) {
            Endpoint e = en.getValue();
            long bytes = sizes.get(en.getKey());
            boolean gpu = cluster.host(e.host()).find(e.device()).map(n -> n.kind() == TopologyNode.Kind.GPU).orElse(false);
            perHost.computeIfAbsent(e.host(), k -> new ArrayList<>()).add(gpu ? Buffer.gpu(e.host(), e.device(), bytes)
                    : new Buffer(e.host(), MemoryRegion.host(e.device(), bytes)));
        }
        Map<String, List<Buffer>> out = new LinkedHashMap<>();
        for (Host h : hosts) {
            List<Buffer> mine = perHost.get(h.name());
            if (mine != null) {
                out.put(h.name(), mine);
            }
        }
        return out;
    }

    /**
     * Bounce fragments the backend registers in host memory for the GPU buffers among {@code buffers}
     * when it cannot register them itself, one chunk per GPU buffer's process, on that GPU's socket. The
     * sending and the receiving process alike: for UCX's rendezvous without GPUDirect the receiver stages
     * through its pool (rtr/mtype, get/mtype) and the sender through its own (put/mtype), each taking a
     * fragment with {@code ucp_proto_rndv_mtype_request_init} (openucx/ucx v1.20.0 src/ucp/rndv/rndv_rtr.c
     * L355, rndv_get.c L295, rndv_put.c L528) from its worker's pool ({@code ucp_rndv_mpool_get},
     * src/ucp/rndv/rndv.c L1136-1185). A fan-out's receivers and sources register them as the endpoints of
     * a transfer list do.
     */
    private static List<Buffer> bounceFragments(VariantSpec v, Host h, List<Buffer> buffers) {
        TransportSettings ts = v.transport();
        List<Buffer> out = new ArrayList<>();
        for (Buffer b : buffers) {
            TopologyNode gpu = h.find(b.region().deviceName()).filter(n -> n.kind() == TopologyNode.Kind.GPU).orElse(null);
            long bytes = gpu == null ? 0 : ts.backend().hostBounceBytes(ts.stack(), h, gpu, ts.gpudirect());
            if (bytes > 0) {
                // the GPU's process registers it: its time adds to that GPU's, not to another process's
                out.add(new Buffer(h.name(), MemoryRegion.host(socketOf(h, gpu), bytes), gpu.name()));
            }
        }
        return out;
    }

    private static String socketOf(Host h, TopologyNode gpu) {
        return h.sockets().stream().filter(s -> s.socket() == gpu.socket()).map(TopologyNode::name).findFirst()
                .orElseThrow(() -> new IllegalStateException("host " + h.name() + " has no socket for " + gpu.name()));
    }
}
